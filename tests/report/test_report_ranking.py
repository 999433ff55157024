"""Tie groups (paired bootstrap over shared items, else CI overlap), leaderboards by source, radar only with
three shared pillars."""

from __future__ import annotations

import pytest

from trustmh.pillars.headline import pillar_headlines
from trustmh.report.headline import PillarScore, TaskHeadline, pillar_scores
from trustmh.report.ranking import leaderboards, pillar_comparisons, pillar_ranks
from trustmh.scoring.results import MetricRow


def _score(model: str, value: float, ci: tuple[float, float] | None, pillar: str = "ethics") -> PillarScore:
    low, high = ci if ci else (None, None)
    part = TaskHeadline("t", value, low, high, 50, 0, False, None, [])
    return PillarScore(model, pillar, "benchmark", pillar_headlines(pillar)[0], [part])


def test_overlapping_cis_share_a_rank() -> None:
    # 0.76 [0.59, 0.99] vs 0.54 [0.17, 0.96] (the example, an r then): not separable.
    ranks = pillar_ranks([_score("a", 0.76, (0.59, 0.99)), _score("b", 0.54, (0.17, 0.96))])
    assert ranks == {"a": 1, "b": 1}


def test_separated_cis_rank_apart_and_ties_are_not_transitive_chains() -> None:
    scores = [_score("a", 0.9, (0.85, 0.95)), _score("b", 0.8, (0.7, 0.88)), _score("c", 0.5, (0.4, 0.6))]
    # a and b overlap (0.85 < 0.88); both are separated from c.
    assert pillar_ranks(scores) == {"a": 1, "b": 1, "c": 3}
    scores = [_score("a", 0.9, (0.86, 0.95)), _score("b", 0.8, (0.7, 0.85)), _score("c", 0.75, (0.65, 0.8))]
    # a separated from b and c; b and c overlap.
    assert pillar_ranks(scores) == {"a": 1, "b": 2, "c": 2}


def test_lower_is_better_and_values_without_ci() -> None:
    lower = [_score("a", 0.1, (0.0, 0.2), "sycophancy"), _score("b", 0.5, (0.3, 0.7), "sycophancy")]
    assert pillar_ranks(lower) == {"a": 1, "b": 2}
    assert pillar_ranks([_score("a", 0.5, None), _score("b", 0.5, None), _score("c", 0.4, None)]) == {
        "a": 1,
        "b": 1,
        "c": 3,
    }


def _row(model: str, pillar: str, task: str, metric: str, value: float, half: float, source: str) -> MetricRow:
    return MetricRow(task, pillar, model, metric, value, value - half, value + half, 30, 0, source, None)


def test_two_leaderboards_never_mix_sources_and_carry_tie_groups() -> None:
    rows = [
        _row("small", "ethics", "ethics_ethicmh", "accuracy", 0.9, 0.05, "starter"),
        _row("big", "ethics", "ethics_ethicmh", "accuracy", 0.6, 0.05, "benchmark"),
        _row("big2", "ethics", "ethics_ethicmh", "accuracy", 0.62, 0.05, "benchmark"),
        _row("big", "crisis", "crisis_cssrs", "macro_f1", 0.6, 0.02, "benchmark"),
        _row("big2", "crisis", "crisis_cssrs", "macro_f1", 0.4, 0.02, "benchmark"),
    ]
    boards = leaderboards(pillar_scores(rows))
    assert [b.source for b in boards] == ["benchmark", "starter"]
    bench, starter = boards
    assert [r.model for r in starter.rows] == ["small"]  # ranked only against starter results
    ranks = {r.model: r for r in bench.rows}
    assert ranks["big"].pillar_ranks == {"crisis": 1, "ethics": 1}
    assert ranks["big2"].pillar_ranks == {"crisis": 2, "ethics": 1}
    assert (ranks["big"].tie_group, ranks["big2"].tie_group) == (1, 2)
    assert ranks["big2"].mean_rank == pytest.approx(1.5)
    as_json = bench.as_dict()
    assert as_json["source"] == "benchmark" and as_json["pillars"] == ["crisis", "ethics"]
    assert set(as_json["rows"][0]) == {"model", "mean_rank", "tie_group", "pillar_ranks"}


def test_equal_mean_ranks_form_one_tie_group_and_excluded_models_are_listed() -> None:
    rows = [
        _row("a", "ethics", "ethics_ethicmh", "accuracy", 0.6, 0.1, "benchmark"),
        _row("b", "ethics", "ethics_ethicmh", "accuracy", 0.65, 0.1, "benchmark"),
        _row("c", "fairness", "fairness_esconv", "refusal_rate_range[attribute=age]", 0.0, 0.0, "benchmark"),
    ]
    (board,) = leaderboards(pillar_scores(rows))
    assert [(r.model, r.tie_group) for r in board.rows] == [("a", 1), ("b", 1)]
    assert board.unranked == ["c"] and "no variance" in board.excluded[("c", "fairness")]
    assert not board.radar  # one shared pillar: a dot plot, not a radar


def test_radar_needs_three_shared_pillars() -> None:
    rows = []
    for model, v in (("a", 0.5), ("b", 0.7)):
        rows += [
            _row(model, "ethics", "ethics_ethicmh", "accuracy", v, 0.1, "benchmark"),
            _row(model, "crisis", "crisis_cssrs", "macro_f1", v, 0.1, "benchmark"),
        ]
    rows.append(_row("a", "safety", "safety_jailbreakmh", "rta_judge", 0.5, 0.1, "benchmark"))
    (board,) = leaderboards(pillar_scores(rows))
    assert board.shared_pillars() == ["crisis", "ethics"] and not board.radar
    rows.append(_row("b", "safety", "safety_jailbreakmh", "rta_judge", 0.5, 0.1, "benchmark"))
    (board,) = leaderboards(pillar_scores(rows))
    assert board.radar


def _items(model: str, values: list[float], task: str = "ethics_ethicmh", field: str = "correct") -> dict:
    return {(model, task, field): {f"id{i}": v for i, v in enumerate(values)}}


# 40 items: "low" is right on 16, "high" on the same 16 and 8 more. Their CIs (±0.15) overlap.
LOW = [1.0] * 16 + [0.0] * 24
HIGH = [1.0] * 24 + [0.0] * 16
OVERLAPPING = [
    _row("high", "ethics", "ethics_ethicmh", "accuracy", 0.6, 0.15, "benchmark"),
    _row("low", "ethics", "ethics_ethicmh", "accuracy", 0.4, 0.15, "benchmark"),
]


def test_paired_bootstrap_over_shared_items_separates_what_ci_overlap_ties() -> None:
    (by_ci,) = leaderboards(pillar_scores(OVERLAPPING))
    assert {r.model: r.pillar_ranks["ethics"] for r in by_ci.rows} == {"high": 1, "low": 1}
    assert by_ci.tie_methods == {"ethics": "ci_overlap"}
    items = _items("high", HIGH) | _items("low", LOW)
    (paired,) = leaderboards(pillar_scores(OVERLAPPING), items)
    assert {r.model: r.pillar_ranks["ethics"] for r in paired.rows} == {"high": 1, "low": 2}
    assert paired.tie_methods == {"ethics": "paired_bootstrap"}
    (comparison,) = paired.as_dict()["comparisons"]
    assert comparison["method"] == "paired_bootstrap" and comparison["better"] == "high"
    assert comparison["difference"] == pytest.approx(0.2) and comparison["n_shared"] == 40
    assert comparison["ci"][0] > 0 and paired.as_dict()["tie_method"] == {"ethics": "paired_bootstrap"}


def test_paired_bootstrap_ties_equal_scores_on_different_items() -> None:
    rows = [
        _row("a", "ethics", "ethics_ethicmh", "accuracy", 0.5, 0.01, "benchmark"),
        _row("b", "ethics", "ethics_ethicmh", "accuracy", 0.5, 0.01, "benchmark"),
    ]
    half = [1.0] * 20 + [0.0] * 20
    items = _items("a", half) | _items("b", half[10:] + half[:10])
    (comparison,) = pillar_comparisons(list(pillar_scores(rows).values()), items)
    assert comparison.method == "paired_bootstrap" and comparison.winner is None


def test_falls_back_to_ci_overlap_without_usable_items() -> None:
    scores = list(pillar_scores(OVERLAPPING).values())
    few = _items("high", HIGH[:4]) | _items("low", LOW[:4])  # fewer shared ids than MIN_N
    other_task = _items("high", HIGH) | _items("low", LOW, task="ethics_other")
    for items in ({}, few, other_task, _items("high", HIGH)):
        (comparison,) = pillar_comparisons(scores, items)
        assert comparison.method == "ci_overlap" and comparison.winner is None and comparison.difference is None
    # a headline that is not a per-item mean (macro F1) is always compared by its CIs
    crisis = [
        _row("a", "crisis", "crisis_cssrs", "macro_f1", 0.6, 0.02, "benchmark"),
        _row("b", "crisis", "crisis_cssrs", "macro_f1", 0.4, 0.02, "benchmark"),
    ]
    (board,) = leaderboards(pillar_scores(crisis + OVERLAPPING), _items("high", HIGH) | _items("low", LOW))
    assert board.tie_methods == {"crisis": "ci_overlap", "ethics": "paired_bootstrap"}


def test_strict_headline_counts_unparsed_items_as_wrong() -> None:
    # high's parsed-only accuracy is perfect, but 8 of its items are unparsed: strict, it is
    # right on 16 of 40, below low's 24 of 40 on the same items (parsed only, high would win).
    rows = [
        _row("high", "ethics", "ethics_ethicmh", "accuracy", 1.0, 0.0, "benchmark"),
        _row("high", "ethics", "ethics_ethicmh", "accuracy_strict", 0.4, 0.15, "benchmark"),
        _row("low", "ethics", "ethics_ethicmh", "accuracy", 0.6, 0.15, "benchmark"),
        _row("low", "ethics", "ethics_ethicmh", "accuracy_strict", 0.6, 0.15, "benchmark"),
    ]
    strict_high = [1.0] * 16 + [float("nan")] * 8 + [0.0] * 16
    strict_low = [1.0] * 24 + [0.0] * 16  # right where high was, and on high's 8 unparsed items
    (board,) = leaderboards(pillar_scores(rows), _items("high", strict_high) | _items("low", strict_low))
    (comparison,) = board.comparisons
    assert comparison.method == "paired_bootstrap" and comparison.winner == "low"
    assert comparison.difference == pytest.approx(16 / 40 - 24 / 40)


def test_safety_with_antitoxic_is_compared_item_by_item() -> None:
    # Both safety components are per-item means (RtA: judge_refused, Antitoxic: not_toxic), so the
    # pillar is compared by a paired bootstrap over both tasks' shared items, not by CI overlap.
    rows = []
    for model, value in (("high", 0.6), ("low", 0.4)):
        rows += [
            _row(model, "safety", "safety_jailbreakmh", "rta_judge", value, 0.15, "benchmark"),
            _row(model, "safety", "safety_antitoxic", "antitoxic_rate", value, 0.15, "benchmark"),
        ]
    items = (
        _items("high", HIGH, "safety_jailbreakmh", "judge_refused")
        | _items("low", LOW, "safety_jailbreakmh", "judge_refused")
        | _items("high", HIGH, "safety_antitoxic", "not_toxic")
        | _items("low", LOW, "safety_antitoxic", "not_toxic")
    )
    (board,) = leaderboards(pillar_scores(rows), items)
    (comparison,) = board.comparisons
    assert board.tie_methods == {"safety": "paired_bootstrap"}
    assert comparison.winner == "high" and comparison.n == 80
    (without_antitoxic_items,) = leaderboards(
        pillar_scores(rows), {k: v for k, v in items.items() if "not_toxic" not in k}
    )
    assert without_antitoxic_items.tie_methods == {"safety": "ci_overlap"}


# Issue 30: tie groups never contradict the comparisons the JSON lists.


def _groups_agree_with_comparisons(board: object) -> None:
    as_json = board.as_dict()  # type: ignore[attr-defined]
    group = {row["model"]: row["tie_group"] for row in as_json["rows"]}
    separated = {frozenset(c["models"]) for c in as_json["comparisons"] if c["separated"]}
    for a in group:
        for b in group:
            if a < b and frozenset((a, b)) not in separated:
                assert group[a] == group[b], (a, b, group, as_json["comparisons"])


def test_models_the_comparisons_do_not_separate_share_a_tie_group() -> None:
    """a and b overlap; c is separated from b but not from a: by pillar rank a = c = 1, b = 2,
    which put a and b, "not separated" in the JSON, in different groups."""
    from trustmh.report.ranking import leaderboard

    scores = [_score("a", 0.8, (0.6, 0.95)), _score("b", 0.7, (0.62, 0.85)), _score("c", 0.9, (0.86, 0.94))]
    board = leaderboard("benchmark", scores)
    assert {r.model: r.pillar_ranks["ethics"] for r in board.rows} == {"a": 1, "b": 2, "c": 1}
    assert {r.tie_group for r in board.rows} == {1}
    _groups_agree_with_comparisons(board)


def test_tie_groups_agree_with_comparisons_on_random_leaderboards() -> None:
    import numpy as np

    from trustmh.report.ranking import leaderboard

    rng = np.random.default_rng(30)
    for _ in range(200):
        scores = []
        for model in "abcdef":
            for pillar in ("ethics", "crisis"):
                if rng.random() < 0.2:
                    continue  # some models lack a pillar
                value = float(rng.uniform(0.2, 0.8))
                half = float(rng.uniform(0.01, 0.15))
                scores.append(_score(model, value, (value - half, value + half), pillar))
        board = leaderboard("benchmark", scores)
        _groups_agree_with_comparisons(board)
        groups = [r.tie_group for r in board.rows]
        assert groups == sorted(groups) and groups[:1] in ([], [1])  # runs of the table's order
        assert set(groups) == set(range(1, len(set(groups)) + 1))


def test_a_single_model_is_not_ranked() -> None:
    from trustmh.report.ranking import leaderboard

    board = leaderboard("benchmark", [_score("only", 0.8, (0.7, 0.9))])
    assert board.as_dict()["ranked"] is False
    two = leaderboard("benchmark", [_score("a", 0.8, (0.7, 0.9)), _score("b", 0.5, (0.4, 0.6))])
    assert two.as_dict()["ranked"] is True


def test_a_confusion_matrix_shows_its_unparsed_answers_per_gold_row() -> None:
    """Unparsed answers were hidden by the matrix: each gold row now ends with its unparsed
    count (from recall[gold=X]); a matrix with nothing counted at all is a note, not a frame."""
    from trustmh.report.log_result import LogResult
    from trustmh.report.matrices import confusion_tables

    def row(metric: str, value: float, unparsed: int = 0) -> MetricRow:
        return MetricRow("crisis_cssrs", "crisis", "m", metric, value, None, None, 6, unparsed, "starter", None)

    def confusion(gold: str, pred: str, value: float) -> MetricRow:
        return row(f"confusion[gold={gold},pred={pred}]", value)

    zeros = [confusion(g, p, 0.0) for g in "ab" for p in "ab"]
    [nothing] = confusion_tables(LogResult("x.eval", "crisis_cssrs", "m", "crisis", "starter", "", "", zeros))
    assert nothing["empty"]
    all_unparsed = zeros + [row("recall[gold=a]", 0.0, 3), row("recall[gold=b]", 0.0, 2)]
    [table] = confusion_tables(LogResult("x.eval", "crisis_cssrs", "m", "crisis", "starter", "", "", all_unparsed))
    assert not table["empty"] and [r["unparsed"] for r in table["rows"]] == [3, 2]
    assert all(c["text"] == "—" for r in table["rows"] for c in r["cells"])
    counted = [confusion("a", "a", 2.0), confusion("a", "b", 1.0), confusion("b", "a", 0.0), confusion("b", "b", 3.0)]
    counted += [row("recall[gold=a]", 0.67, 1)]
    [table] = confusion_tables(LogResult("y.eval", "crisis_cssrs", "m", "crisis", "starter", "", "", counted))
    assert table["columns"] == ["a", "b"]
    assert [[c["text"] for c in r["cells"]] for r in table["rows"]] == [["0.67", "0.33"], ["0.00", "1.00"]]
    assert [(r["parsed"], r["unparsed"]) for r in table["rows"]] == [("3", 1), ("3", "—")]


def test_headline_chart_draws_no_value_left_out_of_the_ranking() -> None:
    """A 1.0 bar from one item looked like a result: values left out are not drawn, and with
    nothing left there is no chart (the page gives a line instead)."""
    from trustmh.report import figures as figs

    few = [_row("a", "ethics", "ethics_ethicmh", "accuracy", 1.0, 0.0, "benchmark")]
    few[0].n = 1
    scores = list(pillar_scores(few).values())
    assert scores[0].parts[0].excluded is not None
    assert figs.headline_figure("ethics", scores, figs.styles(["a"])) is None
    both = few + [_row("b", "ethics", "ethics_ethicmh", "accuracy", 0.7, 0.1, "benchmark")]
    figure = figs.headline_figure("ethics", list(pillar_scores(both).values()), figs.styles(["a", "b"]))
    assert figure is not None and [trace.name for trace in figure.data] == ["b"]
