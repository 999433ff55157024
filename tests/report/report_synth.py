"""Build inspect logs for pillars not on this branch by editing a real log's copy."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, EvalMetric, EvalSample, EvalScore, write_eval_log
from inspect_ai.model import ModelOutput
from inspect_ai.scorer import Score


def estimate(name: str, value: float, n: int = 20, half_width: float = 0.1, unparsed: int = 0) -> dict[str, float]:
    """The flat keys a trustmh metric reports for one estimate."""
    return {
        name: value,
        f"{name}_ci_low": max(value - half_width, 0.0),
        f"{name}_ci_high": value + half_width,
        f"{name}_n": float(n),
        f"{name}_unparsed": float(unparsed),
    }


def synthetic_log(
    template: EvalLog,
    directory: Path,
    *,
    task: str,
    pillar: str,
    model: str,
    metrics: dict[str, float],
    samples: list[dict[str, Any]] | None = None,
    source: str = "benchmark",
    status: str = "success",
    created: str | None = None,
) -> Path:
    log = template.model_copy(deep=True)
    log.status = status
    log.eval.task = f"trustmh/{task}"
    log.eval.model = model
    if created:
        log.eval.created = created
    log.eval.metadata = {
        "trustmh_pillar": pillar,
        "trustmh_source": source,
        "trustmh_datasets": ["synthetic"],
        "trustmh_note": "",
    }
    assert log.results is not None
    log.results.scores = [
        EvalScore(
            name="synthetic", scorer="synthetic", metrics={k: EvalMetric(name=k, value=v) for k, v in metrics.items()}
        )
    ]
    log.samples = [
        EvalSample(
            id=s["id"],
            epoch=1,
            input=s["input"],
            target="",
            output=ModelOutput.from_content(model, s["output"]),
            scores={"synthetic": Score(value=s["value"], explanation=s.get("explanation"))},
            metadata=s.get("metadata", {}),
        )
        for s in samples or []
    ]
    log.results.total_samples = log.results.completed_samples = len(log.samples)
    safe_model = model.replace("/", "-")
    path = directory / f"{created or '2026-11-26T00-00-00'}_{task}_{safe_model}.eval"
    write_eval_log(log, str(path))
    return path
