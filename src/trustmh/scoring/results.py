"""Metrics out of inspect logs, folded back into one row per metric.

trustmh metrics are flat dicts expanded by inspect into ``<m>``, ``<m>_ci_low``,
``<m>_ci_high``, ``<m>_n`` and ``<m>_unparsed``, and for metrics with a strict variant
``<m>_strict`` with its own ``_ci_low``, ``_ci_high`` and ``_n`` (see
:mod:`trustmh.scoring.metrics`). The strict variant is folded into the row of ``<m>``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from inspect_ai.log import EvalLog, read_eval_log

from trustmh.core.errors import UserError

# Metric arguments that name the score field a trustmh metric reads.
FIELD_ARGUMENTS = ("field", "first", "second", "predicted", "gold", "denominator")
SUFFIXES = ("_ci_low", "_ci_high", "_n", "_unparsed")
STRICT = "_strict"


@dataclass
class MetricRow:
    task: str
    pillar: str
    model: str
    metric: str
    value: float | None
    ci_low: float | None
    ci_high: float | None
    n: int | None
    unparsed: int | None
    source: str
    judge: str | None
    # the metric with every unparsed answer counted as wrong (None: the metric has no strict variant)
    strict: float | None = None
    strict_ci_low: float | None = None
    strict_ci_high: float | None = None
    strict_n: int | None = None

    @property
    def scored(self) -> bool:
        return self.value is not None

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def read_log(path: str, header_only: bool = False) -> EvalLog:
    """An inspect log; a corrupt, foreign or missing file is a one-line :class:`UserError`."""
    try:
        return read_eval_log(path, header_only=header_only)
    except Exception as error:  # noqa: BLE001 - inspect raises many types for a corrupt or foreign file
        reason = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise UserError(f"{path}: cannot read this inspect log ({reason})") from None


def _finite(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else float(value)


def fold_metrics(flat: dict[str, float]) -> dict[str, dict[str, float | None]]:
    """``{"x": .5, "x_n": 10, ...}`` → ``{"x": {"value": .5, "n": 10, ...}}``."""
    folded: dict[str, dict[str, float | None]] = {}
    bases = [k for k in flat if not any(k.endswith(s) and k[: -len(s)] in flat for s in SUFFIXES)]
    for base in bases:
        entry: dict[str, float | None] = {"value": _finite(flat[base])}
        for suffix in SUFFIXES:
            if base + suffix in flat:
                entry[suffix[1:]] = _finite(flat[base + suffix])
        folded[base] = entry
    for base in [b for b in folded if b.endswith(STRICT) and b[: -len(STRICT)] in folded]:
        strict = folded.pop(base)
        folded[base[: -len(STRICT)]].update({f"strict_{k}" if k != "value" else "strict": v for k, v in strict.items()})
    return folded


def flat_metrics(log: EvalLog) -> dict[str, float]:
    flat: dict[str, float] = {}
    if log.results is None:
        return flat
    for score in log.results.scores:
        for name, metric in score.metrics.items():
            flat[name] = metric.value
    return flat


def log_judge(log: EvalLog) -> str | None:
    """The judge of a log; a panel (roles ``judge``, ``judge_2``, …) as ``"a, b"``."""
    roles = getattr(log.eval, "model_roles", None) or {}
    names = ["judge"] + sorted((r for r in roles if re.fullmatch(r"judge_\d+", r)), key=lambda r: int(r[6:]))
    judges = [getattr(roles[r], "model", None) for r in names if r in roles]
    return ", ".join(str(j) for j in judges if j) or None


def metric_fields(scorers: Iterable[Any]) -> dict[str, list[str]]:
    """``{score field: [metric names reading it]}`` from a log's scorer definitions."""
    out: dict[str, list[str]] = {}
    for scorer in scorers:
        metrics = scorer.metrics or []
        if isinstance(metrics, dict):
            metrics = [m for group in metrics.values() for m in group]
        for definition in metrics:
            if isinstance(definition, dict):  # {metric: [definitions]} form
                definitions = [m for group in definition.values() for m in group]
            else:
                definitions = [definition]
            for metric in definitions:
                options = metric.options or {}
                for argument in FIELD_ARGUMENTS:
                    name = options.get(argument)
                    if isinstance(name, str):
                        metric_name = str(options.get("name") or name)
                        out.setdefault(name, [])
                        if metric_name not in out[name]:
                            out[name].append(metric_name)
    return out


def metric_rows(log: EvalLog) -> list[MetricRow]:
    """One row per metric of a finished log."""
    meta = log.eval.metadata or {}
    task = log.eval.task.removeprefix("trustmh/")
    rows: list[MetricRow] = []
    for name, entry in fold_metrics(flat_metrics(log)).items():
        n = entry.get("n")
        unparsed = entry.get("unparsed")
        strict_n = entry.get("strict_n")
        rows.append(
            MetricRow(
                task=task,
                pillar=str(meta.get("trustmh_pillar", "")),
                model=log.eval.model,
                metric=name,
                value=entry["value"],
                ci_low=entry.get("ci_low"),
                ci_high=entry.get("ci_high"),
                n=None if n is None else int(n),
                unparsed=None if unparsed is None else int(unparsed),
                source=str(meta.get("trustmh_source", "")),
                judge=log_judge(log),
                strict=entry.get("strict"),
                strict_ci_low=entry.get("strict_ci_low"),
                strict_ci_high=entry.get("strict_ci_high"),
                strict_n=None if strict_n is None else int(strict_n),
            )
        )
    return rows


def score_summary(log: EvalLog) -> dict[str, object]:
    """The ``trustmh score`` JSON: task, model, n and metrics (CIs beside as ``_ci``; a strict
    variant as ``_strict``, ``_strict_ci``, ``_strict_n``)."""
    metrics: dict[str, object] = {}
    not_scored: list[str] = []
    for row in metric_rows(log):
        metrics[row.metric] = row.value
        if row.value is None:
            not_scored.append(row.metric)
        if row.ci_low is not None and row.ci_high is not None:
            metrics[f"{row.metric}_ci"] = [row.ci_low, row.ci_high]
        if row.n is not None:
            metrics[f"{row.metric}_n"] = row.n
        if row.unparsed is not None:
            metrics[f"{row.metric}_unparsed"] = row.unparsed
        if row.strict_n is not None:
            metrics[f"{row.metric}_strict"] = row.strict
            if row.strict_ci_low is not None and row.strict_ci_high is not None:
                metrics[f"{row.metric}_strict_ci"] = [row.strict_ci_low, row.strict_ci_high]
            metrics[f"{row.metric}_strict_n"] = row.strict_n
    samples = log.results.total_samples if log.results else 0
    return {
        "task": log.eval.task.removeprefix("trustmh/"),
        "model": log.eval.model,
        "n": samples,
        "source": (log.eval.metadata or {}).get("trustmh_source"),
        "metrics": metrics,
        "not_scored": not_scored,
    }
