"""The gate inside a team's own test suite.

::

    from trustmh.gate.pytest_helper import assert_gate

    def test_release_gate():
        assert_gate("logs/", "gate.yaml", baseline="release-logs/")

``assert_gate`` fails the test (an ``AssertionError`` listing every failed or undecided check)
unless the verdict passes, exactly when ``trustmh gate`` would exit 1; a run it cannot decide on
(a bad policy, errored or unfinished samples, a metric the logs lack) raises the one-line
:class:`~trustmh.core.errors.UserError` instead, so the test errors rather than fails. No pytest
import: any test runner reports an ``AssertionError``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trustmh.gate.check import check
from trustmh.gate.policy import Policy
from trustmh.report.gate_verdict import PASS, Verdict


def failure_text(verdict: Verdict) -> str:
    """The verdict's headline, then one line per check that did not pass."""
    lines = [verdict.headline()]
    lines += [f"  {case.status}: {case.name}: {case.message}" for case in verdict.cases if case.status != PASS]
    return "\n".join(lines)


def assert_gate(log_dir: str | Path, policy: Policy | str | Path | dict[str, Any], **options: Any) -> Verdict:
    """The verdict of :func:`trustmh.gate.check` (``options``: its keyword arguments, e.g.
    ``baseline=``), or an ``AssertionError`` listing the checks that did not pass."""
    __tracebackhide__ = True  # pytest shows the failed checks, not this frame
    verdict = check(log_dir, policy, **options)
    if not verdict.passed:
        raise AssertionError(failure_text(verdict))
    return verdict
