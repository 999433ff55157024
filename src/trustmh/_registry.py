"""Loaded by inspect_ai through the ``inspect_ai`` entry point: every task and provider."""

# ruff: noqa: F401
from trustmh.models.providers import TrustmhModelAPI
