"""MentalBench-Align: the published ICC and bias tables beside ``trustmh align`` on the released ratings.

Upstream released the ratings (MentalAlign-70k) and the tables, not the analysis code, so there
is no "upstream parser" column: ours is trustmh's analysis (two-way ICCs, each judge's own model
family excluded, the human file's zero cells kept as upstream did). A figure ours does not meet
within its rounding is shown as ``unverified`` with the measured gap, never as reproduced.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from trustmh.align import AlignmentResult, analyze
from trustmh.data.loaders.mentalalign import (
    HUMAN_FILE,
    HUMAN_PREFIX,
    JUDGE_FILES,
    JUDGE_PREFIX,
    SELF_FAMILY,
    RatingTable,
    read_ratings,
)
from trustmh.data.registry import resolve_file
from trustmh.data.upstream import upstream_text
from trustmh.mentalalign.schema import DEFAULT_SCORE_RANGE
from trustmh.reproduce.explain import release_gap
from trustmh.reproduce.rows import ReproRow, decimals_tolerance

ICC = "MentalBench-Align: ICC (model level)"
BIAS = "MentalBench-Align: systematic bias (item level)"
ICC_FILE = "mentalalign70k/upstream/Results/ICC Reliability Analysis.md"
BIAS_FILE = "mentalalign70k/upstream/Results/Systematic Bias Decomposition.md"
DECIMALS = 3  # both tables print three decimals
TASK = "align_mentalalign70k"


def _judge_key(published_name: str) -> str:
    """``"Claude-3.7-Sonnet"`` -> ``"claude"``: the released file whose name starts the published one."""
    lowered = published_name.lower()
    matches = [key for key in JUDGE_FILES if lowered.startswith(key)]
    if len(matches) != 1:
        raise ValueError(f"published judge {published_name!r} matches no released judge file")
    return matches[0]


def _number(cell: str) -> float:
    return float(cell.strip().strip("*").replace("−", "-").replace("+", ""))


def published_icc(text: str) -> Iterator[tuple[str, str, float, float]]:
    """``(judge, attribute, ICC(C,1), ICC(A,1))`` rows of the published ICC table."""
    judge = ""
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 8 or not re.match(r"^\**-?\d", cells[3]):
            continue
        judge = cells[0].strip("*") or judge
        yield _judge_key(judge), cells[2].strip("*"), _number(cells[3]), _number(cells[5])


def published_bias(text: str) -> Iterator[tuple[str, str, tuple[float, ...]]]:
    """``(judge, attribute, (human mean, LLM mean, bias, MSE))`` of the published bias table."""
    judges: list[str] = []
    for line in text.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and "Attribute" in cells[0]:
            judges = [_judge_key(cell.strip("*").split(" (")[0]) for cell in cells[1:]]
        elif judges and len(cells) == 5 and "→" in cells[1]:
            for judge, cell in zip(judges, cells[1:], strict=True):
                yield judge, cells[0], tuple(_number(part) for part in cell.split("→"))


def _analysis(data_dir: str | Path | None) -> AlignmentResult:
    def table(name: str, prefix: str) -> RatingTable:
        return read_ratings(resolve_file("mentalalign70k", name, data_dir), prefix, DEFAULT_SCORE_RANGE)

    judges = {key: table(name, JUDGE_PREFIX) for key, name in JUDGE_FILES.items()}
    exclude = {key: [family] for key, family in SELF_FAMILY.items()}
    return analyze(table(HUMAN_FILE, HUMAN_PREFIX), judges, exclude, level="both", n_boot=0)


def _row(benchmark: str, judge: str, metric: str, n: int, published: float, ours: float) -> ReproRow:
    return ReproRow(
        benchmark,
        TASK,
        judge,
        metric,
        n,
        published,
        None,
        ours,
        decimals_tolerance(DECIMALS),
        release_gap("mentalalign_analysis"),
    )


def alignment_rows(data_dir: str | Path | None) -> list[ReproRow]:
    result = _analysis(data_dir)
    rows = []
    for judge, attribute, c1, a1 in published_icc(upstream_text(ICC_FILE, data_dir)):
        (ours,) = result.select(level="model", judge=judge, attribute=attribute)
        rows.append(_row(ICC, judge, f"{attribute} ICC(C,1)", ours.n, c1, ours.icc_c1))
        rows.append(_row(ICC, judge, f"{attribute} ICC(A,1)", ours.n, a1, ours.icc_a1))
    for judge, attribute, values in published_bias(upstream_text(BIAS_FILE, data_dir)):
        (ours,) = result.select(level="item", judge=judge, attribute=attribute)
        for name, published, value in zip(
            ("human mean", "judge mean", "bias", "MSE"),
            values,
            (ours.human_mean, ours.judge_mean, ours.bias, ours.mse),
            strict=True,
        ):
            rows.append(_row(BIAS, judge, f"{attribute} {name}", ours.n, published, value))
    return rows
