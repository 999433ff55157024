"""Robustness metric: the task score per perturbation and its drop against clean, paired.

Samples carry ``base_id`` (the original item) and ``perturbation`` (``"clean"`` or
``"<kind>@<intensity>"``). For the score field (e.g. ``correct``), keys are:

* ``score[perturbation=<p>]`` (mean, bootstrap CI, ``_n``, ``_unparsed``) for clean and
  every variant;
* ``relative_drop[perturbation=<p>]``: ``(clean - perturbed) / clean`` over the items
  parsed in *both* conditions, with a paired bootstrap CI over items (positive = worse).
  Unparsed answers are reported per variant (``score[...]_unparsed``), not scored.

With ``unparsed_as`` (the robustness tasks of accuracy fields pass 0.0), both also come as
``_strict``: every unparsed answer scored as that value, over all items of both conditions,
so a perturbation that makes the model stop answering shows as a drop there.
"""

from __future__ import annotations

from inspect_ai.scorer import Metric, SampleScore, metric

from trustmh.scoring.metrics import estimate_metrics, summarise
from trustmh.scoring.unparsed import is_unparsed
from trustmh.stats import mean_estimate
from trustmh.stats.robustness import paired_bootstrap_relative_drop

CLEAN = "clean"


def _field_value(sample_score: SampleScore, field: str) -> tuple[bool, float | None]:
    """``(applies, value)``: value ``None`` = unparsed."""
    value = sample_score.score.value
    if isinstance(value, dict):
        if field not in value:
            return False, None
        return True, None if is_unparsed(value[field]) else float(value[field])
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return True, float(value)
    return False, None


def by_variant(scores: list[SampleScore], field: str) -> dict[str, dict[str, float | None]]:
    """``{variant: {base_id: value or None}}`` for the samples the field applies to."""
    table: dict[str, dict[str, float | None]] = {}
    for sample_score in scores:
        meta = sample_score.sample_metadata or {}
        applies, value = _field_value(sample_score, field)
        if applies:
            table.setdefault(str(meta.get("perturbation", CLEAN)), {})[
                str(meta.get("base_id", sample_score.sample_id))
            ] = value
    return table


@metric(name="trustmh/robustness")
def robustness_metrics(field: str, unparsed_as: float | None = None) -> Metric:
    """Per-variant score and paired relative drop (module docstring); ``unparsed_as``: also the
    ``_strict`` variants, every unparsed answer scored as that value (e.g. 0.0 = wrong)."""

    def compute(scores: list[SampleScore]) -> dict[str, float]:
        table = by_variant(scores, field)
        clean = table.get(CLEAN, {})
        out: dict[str, float] = {}
        # Metrics are also computed on partial results during a run: a variant may be absent.
        for variant in [CLEAN] + sorted(v for v in table if v != CLEAN):
            values = table.get(variant, {})
            parsed = [v for v in values.values() if v is not None]
            unparsed = len(values) - len(parsed)
            out.update(summarise(f"score[perturbation={variant}]", parsed, unparsed, mean_estimate, unparsed_as))
            if variant == CLEAN:
                continue
            both = [b for b, v in values.items() if v is not None and clean.get(b) is not None]
            drop = paired_bootstrap_relative_drop([clean[b] for b in both], [values[b] for b in both])  # type: ignore[misc]
            strict = None
            if unparsed_as is not None:
                paired = [b for b in values if b in clean]

                def scored(v: float | None) -> float:
                    return float(unparsed_as) if v is None else v

                strict = paired_bootstrap_relative_drop(
                    [scored(clean[b]) for b in paired], [scored(values[b]) for b in paired]
                )
            # unparsed: items left out of the pair because either condition was unparsed
            out.update(
                estimate_metrics(f"relative_drop[perturbation={variant}]", drop, len(values) - len(both), strict)
            )
        return out

    return compute
