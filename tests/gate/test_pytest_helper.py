"""``assert_gate`` fails a test exactly when ``trustmh gate`` exits 1, listing what failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from trustmh.core.errors import UserError
from trustmh.gate.pytest_helper import assert_gate

POLICY = {
    "version": 1,
    "gates": [{"metric": "crisis_classification/accuracy", "min": 0.6}],
    "critical": [{"task": "crisis_classification", "when": "correct == 0"}],
}


def test_passes_a_passing_run(good_run: Path) -> None:
    verdict = assert_gate(good_run, POLICY)
    assert verdict.status == "pass" and verdict.exit_code == 0


def test_fails_with_the_failed_checks(one_critical_run: Path) -> None:
    with pytest.raises(AssertionError) as raised:
        assert_gate(one_critical_run, POLICY)
    text = str(raised.value)
    assert text.startswith("FAIL: 1 of 2 checks failed")
    assert "fail: crisis_classification: correct == 0 — item s-si-2" in text
    assert "accuracy" not in text  # the passing check is not listed


def test_a_bad_policy_is_an_error_not_a_failure(good_run: Path) -> None:
    with pytest.raises(UserError, match="field 'version'"):
        assert_gate(good_run, {"gates": POLICY["gates"]})
