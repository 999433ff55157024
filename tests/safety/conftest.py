"""Fixtures of the Safety tests: the shared data folder; importing safety_judge registers the scripted judge."""

from __future__ import annotations

import tests.safety.safety_judge  # noqa: F401  (registers the scripted_safety_judge model API)
