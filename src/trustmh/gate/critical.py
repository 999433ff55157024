"""Critical items: one item of a task whose score field meets the rule fails the build, whatever the means.

Every epoch of every sample is checked on its own (an item that failed once in three epochs
failed). An item whose field is unparsed cannot be ruled out: it is *insufficient evidence*,
never a pass. Each failing item is a check of its own, with an excerpt of its input and answer.
"""

from __future__ import annotations

import operator
from collections.abc import Callable

from inspect_ai.log import EvalSample

from trustmh.core.errors import UserError
from trustmh.gate.evidence import Run
from trustmh.gate.policy import CriticalRule
from trustmh.report.collect import sample_excerpt, score_values
from trustmh.report.gate_verdict import FAIL, INSUFFICIENT, PASS, Case
from trustmh.scoring.unparsed import is_unparsed

COMPARE: dict[str, Callable[[float, float], bool]] = {
    "==": operator.eq,
    "!=": operator.ne,
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
}
SHOWN_IDS = 5


def _item(sample: EvalSample) -> str:
    return f"{sample.id}" + (f" (epoch {sample.epoch})" if sample.epoch and sample.epoch > 1 else "")


def _excerpt(sample: EvalSample) -> str:
    shown = sample_excerpt(sample)
    return f"input: {shown.input}\nanswer: {shown.output}\nscores: {shown.score}"


def _number(rule: CriticalRule, sample: EvalSample, value: object) -> float:
    try:
        return float(value)  # type: ignore[arg-type]  # a score value is a number, a bool or text
    except (TypeError, ValueError):
        raise UserError(
            f"critical: {rule.task}: {rule.when}: the field is not a number (item {sample.id}: {str(value)[:40]!r})"
        ) from None


def critical_cases(rule: CriticalRule, run: Run) -> list[Case]:
    field, op, number = rule.condition()
    samples = run.samples(rule.task, f"critical: {rule.task}")
    failed: list[EvalSample] = []
    unparsed: list[EvalSample] = []
    checked = 0
    fields: set[str] = set()
    for sample in samples:
        values = score_values(sample)
        fields.update(values)
        if field not in values:
            continue
        if is_unparsed(values[field]):
            unparsed.append(sample)
            continue
        checked += 1
        if COMPARE[op](_number(rule, sample, values[field]), number):
            failed.append(sample)
    if field not in fields:
        known = ", ".join(sorted(fields)) or "none"
        raise UserError(
            f"critical: {rule.task}: no score field {field} in its samples (they have: {known}); "
            "a judged field needs the run to have a --judge"
        )
    name = f"{rule.task}: {rule.when}"
    cases = [
        Case(
            "critical",
            f"{name} — item {_item(sample)}",
            FAIL,
            f"item {_item(sample)} of {rule.task} has {rule.when}: a critical failure",
            task=rule.task,
            sample_id=str(sample.id),
            excerpt=_excerpt(sample),
        )
        for sample in failed
    ]
    if unparsed:
        ids = ", ".join(_item(s) for s in unparsed[:SHOWN_IDS]) + (" …" if len(unparsed) > SHOWN_IDS else "")
        message = f"{len(unparsed)} item(s) with {field} unparsed cannot be ruled out ({ids})"
        cases.append(
            Case("critical", f"{name} — unparsed items", INSUFFICIENT, message, n=len(unparsed), task=rule.task)
        )
    if not failed and not unparsed:
        message = f"no item of {checked} checked has {rule.when}"
        cases.append(Case("critical", name, PASS if checked else INSUFFICIENT, message, n=checked, task=rule.task))
    return cases
