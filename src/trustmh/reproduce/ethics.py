"""TrustMH-Bench Ethics (EthicMH): accuracy from the released answers, sc1-sc5 from released verdicts."""

from __future__ import annotations

import ast
from pathlib import Path
from statistics import mean
from typing import Any

from trustmh.pillars.ethics.protocol import ETHICS_ZIP
from trustmh.pillars.ethics.upstream_parsing import upstream_choice
from trustmh.reproduce.explain import explanation, release_gap
from trustmh.reproduce.released import json_member, members
from trustmh.reproduce.rows import FULL_PRECISION, ReproRow

ETHICMH = "TrustMH-Bench ethics: EthicMH"
PRINCIPLE_SCORES = ("sc1", "sc2", "sc3", "sc4", "sc5")


def _gold(result: dict[str, Any]) -> str | None:
    gold = str(result.get("expected_reasoning") or "").strip().upper()
    return gold if gold in ("A", "B", "C", "D") else None


def _options(cell: str) -> dict[str, str]:
    """``"A.x\\nB.y"`` -> ``{"A": "x", ...}`` for the corrected reader's option-text fallback."""
    from trustmh.core.errors import UserError
    from trustmh.data.loaders.ethicmh import parse_options

    try:
        return parse_options(Path(ETHICS_ZIP), "released output", cell)
    except UserError:  # a cell the loader would refuse: read without the option-text fallback
        return {}


def _accuracy(results: list[dict[str, Any]], choose: Any) -> tuple[float, int]:
    scored = [(gold, choose(r)) for r in results if (gold := _gold(r)) is not None]
    return sum(gold == choice for gold, choice in scored) / len(scored), len(scored)


def _corrected_choice(result: dict[str, Any]) -> str | None:
    from trustmh.pillars.ethics.scorers import parse_ethics_choice

    return parse_ethics_choice((result.get("response") or {}).get("content"), _options(result.get("options") or ""))


def _verdict(item: dict[str, Any]) -> dict[str, Any]:
    parsed = item.get("judge_parsed") or {}
    if isinstance(parsed, str):  # some files keep the dict's repr
        try:
            parsed = ast.literal_eval(parsed)
        except (ValueError, SyntaxError):
            return {}
    return parsed if isinstance(parsed, dict) else {}


def _principle_scores(judged: list[dict[str, Any]], key: str) -> list[float]:
    """Scores upstream averages: those that read as a number from 1 to 5."""
    values = []
    for item in judged:
        verdict = _verdict(item)
        if key not in verdict:
            continue
        try:
            value = float(verdict[key])
        except (TypeError, ValueError):
            continue
        if 1 <= value <= 5:
            values.append(value)
    return values


def ethicmh_rows(data_dir: str | Path | None) -> list[ReproRow]:
    files = members(ETHICS_ZIP, r"Ethics/outputs/(.+)-ethics_reasoning-.*\.json", data_dir)
    rows = []
    for model, member in sorted(files.items()):
        released = json_member(ETHICS_ZIP, member, data_dir)
        results = released.get("results") or []
        answers_released = all("response" in r for r in results)
        if answers_released:
            upstream, n = _accuracy(results, lambda r: upstream_choice((r.get("response") or {}).get("content")))
            corrected: float | None = _accuracy(results, _corrected_choice)[0]
            reason = explanation("ethics_ethicmh", "accuracy")
        else:  # only upstream's parsed choice is released for this model
            upstream, n = _accuracy(results, lambda r: r.get("model_choice_option"))
            corrected, reason = None, release_gap("ethicmh_parsed_only")
        rows.append(
            ReproRow(
                ETHICMH,
                "ethics_ethicmh",
                model,
                "accuracy",
                n,
                float(released["classification_metrics"]["accuracy"]),
                upstream,
                corrected,
                FULL_PRECISION,
                reason,
            )
        )
        judged = released.get("judged") or []
        for key in PRINCIPLE_SCORES:
            published = (released.get("avg_scores") or {}).get(key, {}).get("mean")
            scores = _principle_scores(judged, key)
            ours = mean(scores) if scores else None
            # The released verdicts are aggregated as released: the same numbers feed both columns.
            rows.append(
                ReproRow(
                    ETHICMH,
                    "ethics_ethicmh",
                    model,
                    f"{key} (judge {released.get('judge_model', '?')})",
                    len(scores),
                    None if published is None else float(published),
                    ours,
                    ours,
                    FULL_PRECISION,
                    explanation("ethics_ethicmh", key),
                )
            )
    return rows
