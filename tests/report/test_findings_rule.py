"""One rule for what is shown as a finding: the charts leave out what the summary marks †."""

from __future__ import annotations

from trustmh.report.evidence import evidence_problem, items_of
from trustmh.report.figures import grouped_figures, left_out_points, styles
from trustmh.scoring.results import MetricRow


def _drop(group: str, value: float, n: int, unparsed: int) -> MetricRow:
    metric = f"relative_drop[perturbation={group}]"
    return MetricRow("robustness_crisis_classification", "robustness", "m", metric, value, value - 0.1, value + 0.1, n, unparsed, "starter", None)  # fmt: skip


def test_evidence_problem_is_mostly_unparsed_or_too_few_parsed() -> None:
    assert evidence_problem(21, 19) == "19 of 21 answers unparsed (more than 50%)"
    assert evidence_problem(6, 2) == "4 parsed of 6, below the minimum of 5"
    assert evidence_problem(4, 0) == "n = 4, below the minimum of 5"
    assert evidence_problem(10, 5) is None  # half unparsed, five parsed: shown
    assert evidence_problem(None, 0) == "n = —, below the minimum of 5"


def test_items_count_unparsed_for_parsed_only_and_strict_rows() -> None:
    parsed = _drop("typo", 0.1, 2, 4)
    assert items_of(parsed) == 6
    parsed.strict_n = 6
    assert items_of(parsed) == 6


def test_a_group_from_two_parsed_answers_is_not_drawn_and_the_page_says_why() -> None:
    rows = [_drop("typo", -0.5, 2, 18), _drop("case", 0.1, 20, 0)]
    ((name, figure),) = grouped_figures(rows, styles(["m"]))
    assert figure is not None and list(figure.data[0].x) == ["case"]  # typo's "improvement" is not drawn
    assert left_out_points(rows) == [
        "robustness_crisis_classification · m: relative_drop[perturbation=typo] = -0.500 not drawn — "
        "18 of 20 answers unparsed (more than 50%)."
    ]
