"""``check``: one model's logs against a policy, into the one :class:`Verdict` every output is drawn from."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError
from trustmh.gate.critical import critical_cases
from trustmh.gate.evidence import load_run
from trustmh.gate.policy import Policy, load_policy, parse_policy
from trustmh.gate.regression import regression_cases
from trustmh.gate.thresholds import threshold_cases
from trustmh.report.gate_verdict import Verdict
from trustmh.report.render import STARTER_WARNING


def _policy(policy: Policy | str | Path | dict[str, Any]) -> tuple[Policy, str]:
    if isinstance(policy, Policy):
        return policy, "(in code)"
    if isinstance(policy, dict):
        return parse_policy(policy), "(in code)"
    return load_policy(policy), str(policy)


def check(
    log_dir: str | Path,
    policy: Policy | str | Path | dict[str, Any],
    *,
    baseline: str | Path | None = None,
    model: str | None = None,
    baseline_model: str | None = None,
    judge_validation: Iterable[str | Path] = (),
) -> Verdict:
    """The gate's verdict on the finished logs under ``log_dir``.

    ``policy``: a policy file, a mapping of one, or a :class:`Policy`. ``baseline``: the last
    release's log folder, for the policy's ``regression``. ``judge_validation``: ``trustmh
    judge-check --json`` files, whose PPI++ corrections replace a judged metric's CI.

    Raises :class:`~trustmh.core.errors.UserError` (exit 2, no verdict) for a bad policy, a log
    with errored or unfinished samples, or a task, metric or score field the logs lack.
    """
    chosen, source = _policy(policy)
    if chosen.regression is not None and baseline is None:
        raise UserError("the policy has a regression: section; give the last release's logs", argument="baseline")
    if baseline is not None and chosen.regression is None:
        raise UserError("the policy has no regression: section to compare the baseline on", argument="baseline")
    validations = [Path(p) for p in judge_validation]
    run = load_run(Path(log_dir), model, validations)
    cases = [case for gate in chosen.gates for case in threshold_cases(gate, run, chosen.min_n)]
    cases += [case for rule in chosen.critical for case in critical_cases(rule, run)]
    base_model = None
    if chosen.regression is not None and baseline is not None:
        base = load_run(Path(baseline), baseline_model, validations, option="baseline_model", prefer=run.model)
        base_model = base.model
        cases += regression_cases(chosen.regression, run, base, chosen.min_n)
    starter = sorted(task for task, result in run.results.items() if result.source == "starter")
    notes = [f"{STARTER_WARNING} Gated on it: {', '.join(starter)}."] if starter else []
    return Verdict(
        notes=notes,
        cases=cases,
        model=run.model,
        log_dir=str(log_dir),
        policy=source,
        on_insufficient=chosen.on_insufficient,
        baseline=None if baseline is None else str(baseline),
        baseline_model=base_model,
    )
