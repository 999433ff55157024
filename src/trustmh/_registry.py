"""Loaded by inspect_ai through the ``inspect_ai`` entry point: every task and provider.

inspect loads every plugin's entry point in every eval, so this module is on the start-up path
of each run: the providers are registered as functions that import their class when a model of
theirs is first asked for (as inspect registers its own), not with the module.
"""

# ruff: noqa: F401
from inspect_ai.model import ModelAPI, modelapi

from trustmh.cost.run_estimate import DryRunModelAPI
from trustmh.dialogue.mindeval import dialogue_mindeval
from trustmh.dialogue.tasks import dialogue_mentalbench
from trustmh.pillars.crisis.balance import crisis_overescalation, crisis_resources_locale
from trustmh.pillars.crisis.psychosis_bench import crisis_psychosis_bench
from trustmh.pillars.crisis.simulated_risk import crisis_simulated_risk
from trustmh.pillars.crisis.tasks import crisis_classification, crisis_cssrs, crisis_escalation
from trustmh.pillars.ethics.tasks import ethics_ethicmh
from trustmh.pillars.fairness.tasks import fairness_esconv
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
from trustmh.pillars.robustness.reliability_tasks import robustness_emobench_eu, robustness_usmle_mental
from trustmh.pillars.robustness.tasks import robustness_crisis_classification, robustness_crisis_cssrs
from trustmh.pillars.safety.crescendo import safety_crescendo
from trustmh.pillars.safety.tasks import (
    safety_antitoxic,
    safety_jailbreak_generated,
    safety_jailbreakmh,
    safety_overrefusal,
)
from trustmh.pillars.sycophancy.tasks import sycophancy_aita, sycophancy_oeq, sycophancy_pas


@modelapi(name="trustmh")
def trustmh() -> type[ModelAPI]:
    """``trustmh/smollm2``, ``trustmh/gguf/...``, ``trustmh/replay/...``: the embedded model and replays."""
    from trustmh.models.providers import TrustmhModelAPI

    return TrustmhModelAPI
