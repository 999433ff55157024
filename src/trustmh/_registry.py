"""Loaded by inspect_ai through the ``inspect_ai`` entry point: every task and provider."""

# ruff: noqa: F401
from trustmh.models.providers import TrustmhModelAPI
from trustmh.pillars.privacy.tasks import (
    privacy_confaide_tier1,
    privacy_confaide_tier2a,
    privacy_confaide_tier2b,
    privacy_psyleak,
)
from trustmh.pillars.reliability.tasks import (
    reliability_cpsycoune,
    reliability_crisis_qa,
    reliability_d4,
    reliability_emobench_eu,
    reliability_esconv_support,
    reliability_swmh,
    reliability_usmle_mental,
)
