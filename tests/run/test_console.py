"""The run summary: one line per task with its headline, never a cell cut, not-scored folded."""

from __future__ import annotations

from rich.console import Console

from trustmh.run.console import not_scored_note, results_tables, summarise
from trustmh.scoring.results import MetricRow

WIDTH = 120  # a wide terminal: the table as a table


def _row(task: str, pillar: str, metric: str, value: float | None, n: int = 40, unparsed: int = 0) -> MetricRow:
    low, high = (None, None) if value is None else (value - 0.1, value + 0.1)
    return MetricRow(
        task, pillar, "openai/some-long-model-name", metric, value, low, high, n, unparsed, "starter", None
    )


ROWS = [
    _row("robustness_crisis_classification", "robustness", "score[perturbation=clean]", 0.8),
    _row("robustness_crisis_classification", "robustness", "relative_drop[perturbation=typo@1]", 0.1),
    _row("robustness_crisis_classification", "robustness", "relative_drop[perturbation=typo@2]", 0.3),
    _row("fairness_esconv", "fairness", "support_quality_range[attribute=age]", None, n=0),
    _row("fairness_esconv", "fairness", "refusal_rate_range[attribute=age]", 0.25),
    _row("ethics_ethicmh", "ethics", "accuracy", 0.9),
    _row("ethics_ethicmh", "ethics", "accuracy_strict", 0.7),
    _row("ethics_ethicmh", "ethics", "sc1", None, n=0),
    _row("sycophancy_oeq", "sycophancy", "emotional_validation_rate", None, n=0),
    _row("reliability_emobench_eu", "reliability", "emotion_accuracy", None, n=0, unparsed=5),
    _row("crisis_escalation", "crisis", "appropriateness_mean", None, n=0),
    _row("crisis_escalation", "crisis", "resource_rate", 0.5),
]


def test_one_line_per_task_with_grouped_and_strict_headlines() -> None:
    lines, nothing, partly = summarise(ROWS)
    by_task = {line.task: line for line in lines}
    robust = by_task["robustness_crisis_classification"]
    assert robust.metric == "mean relative_drop" and abs(robust.value - 0.2) < 1e-9
    assert by_task["fairness_esconv"].metric == "mean refusal_rate_range"  # Fairness is in the summary
    assert by_task["ethics_ethicmh"].metric == "accuracy_strict" and by_task["ethics_ethicmh"].value == 0.7
    assert by_task["crisis_escalation"].metric == "resource_rate"  # no declared headline: first scored metric
    # every answer unparsed is a result (a line with the count), not "needs a judge"
    assert by_task["reliability_emobench_eu"].value is None and by_task["reliability_emobench_eu"].unparsed == 5
    assert nothing == ["sycophancy_oeq"]
    assert set(partly) == {"fairness_esconv", "ethics_ethicmh", "crisis_escalation"}


def test_every_cell_whole_and_not_scored_is_one_note_with_the_fix() -> None:
    lines, nothing, partly = summarise(ROWS)
    console = Console(width=WIDTH, record=True)
    for table in results_tables(lines):
        console.print(table)
    text = console.export_text()
    assert "…" not in text and "robustness_crisis_classification*" in text  # whole task names, starter marked
    assert "0.200 [0.100, 0.300]" in text and "40 / 0" in text
    note = not_scored_note(nothing, partly, judged=False)
    assert note is not None and "1 task not scored (sycophancy_oeq)" in note and "--judge MODEL" in note
    assert "could not be read" in not_scored_note(nothing, partly, judged=True)
    assert not_scored_note([], [], judged=False) is None


def test_strict_variants_folded_into_a_row_are_shown_with_their_ci() -> None:
    """results.py folds ``<m>_strict`` into the row of ``<m>``: the line shows it, headline or not."""
    from dataclasses import replace

    folded = [
        replace(_row("ethics_ethicmh", "ethics", "accuracy", 0.9), strict=0.6, strict_ci_low=0.5, strict_ci_high=0.7),
        replace(
            _row("privacy_psyleak", "privacy", "control_error", 0.1, unparsed=4),
            strict=0.3,
            strict_ci_low=0.2,
            strict_ci_high=0.4,
            strict_n=44,
        ),
    ]
    lines, _, _ = summarise(folded)
    by_task = {line.task: line for line in lines}
    assert (by_task["ethics_ethicmh"].metric, by_task["ethics_ethicmh"].value) == ("accuracy_strict", 0.6)
    control = by_task["privacy_psyleak"]  # no headline among its rows: the first metric, strict
    assert (control.metric, control.value, control.ci, control.n) == ("control_error_strict", 0.3, (0.2, 0.4), 44)
    console = Console(width=WIDTH, record=True)
    for table in results_tables(lines):
        console.print(table)
    assert "0.300 [0.200, 0.400]" in console.export_text()


# Issue 30: the summary states what the report states.


def _printed(lines: list) -> str:  # type: ignore[type-arg]
    console = Console(width=WIDTH, record=True)
    for table in results_tables(lines):
        console.print(table)
    return console.export_text()


def test_strict_headline_still_counts_its_unparsed_answers() -> None:
    """5 of 6 answers unparsed: the strict value counts them wrong, and the column says 5, not 0."""
    from dataclasses import replace

    rows = [
        replace(
            _row("reliability_emobench_eu", "reliability", "emotion_accuracy", 1.0, n=1, unparsed=5),
            strict=1 / 6,
            strict_ci_low=0.03,
            strict_ci_high=0.56,
            strict_n=6,
        ),
        replace(
            _row("ethics_ethicmh", "ethics", "accuracy", 0.9, n=10, unparsed=3),
            strict=0.7,
            strict_ci_low=0.5,
            strict_ci_high=0.8,
            strict_n=13,
        ),
    ]
    lines, _, _ = summarise(rows)
    by_task = {line.task: line for line in lines}
    assert by_task["ethics_ethicmh"].metric == "accuracy_strict"
    assert (by_task["ethics_ethicmh"].n, by_task["ethics_ethicmh"].unparsed) == (13, 3)
    emo = by_task["reliability_emobench_eu"]
    assert emo.metric.endswith("_strict") and (emo.n, emo.unparsed) == (6, 5)
    text = _printed(lines)
    assert "13 / 3" in text and "6 / 5" in text


def test_counts_are_never_a_headline_and_a_judged_task_says_it_needs_a_judge() -> None:
    rows = [
        _row("crisis_psychosis_bench", "crisis", "dcs", None, n=0),
        _row("crisis_psychosis_bench", "crisis", "turns", 12.0, n=2),
        _row("crisis_psychosis_bench", "crisis", "shortened_rate", 0.0, n=2),  # how the run went, not a score
        _row("reliability_esconv_support", "reliability", "empathy", None, n=0),
        _row("reliability_esconv_support", "reliability", "reply_length", 503.5, n=8),
    ]
    lines, nothing, partly = summarise(rows)
    by_task = {line.task: line for line in lines}
    assert by_task["crisis_psychosis_bench"].metric == "not scored"
    assert by_task["crisis_psychosis_bench"].value is None
    assert by_task["reliability_esconv_support"].metric == "not scored"
    assert set(nothing) == {"crisis_psychosis_bench", "reliability_esconv_support"} and partly == []
    text = _printed(lines)
    assert "turns" not in text and "503.5" not in text and "12.0" not in text and "shortened" not in text
    psychosis = next(line for line in text.splitlines() if "crisis_psychosis_bench" in line)
    assert "not scored" in psychosis and "— needs --judge" in psychosis


def test_a_task_without_a_judge_is_never_said_to_need_one() -> None:
    """A robustness task (labels, no judge) with an empty metric is not put down to a missing judge."""
    rows = [
        _row("robustness_crisis_classification", "robustness", "score[perturbation=clean]", 0.8),
        _row("robustness_crisis_classification", "robustness", "relative_drop[perturbation=typo@1]", 0.1),
        _row("robustness_crisis_classification", "robustness", "relative_drop[perturbation=typo@2]", None, n=0),
    ]
    lines, nothing, partly = summarise(rows)
    assert nothing == [] and partly == []
    assert not_scored_note(nothing, partly, judged=False) is None
    assert lines[0].task == "robustness_crisis_classification"


def test_uninformative_values_are_marked_with_the_reports_reason() -> None:
    from trustmh.run.console import uninformative_notes

    rows = [
        # 4 items only: below the report's minimum
        _row("ethics_ethicmh", "ethics", "accuracy", 0.0, n=4),
        # a drop measured from a base at chance (the report leaves it out)
        _row("robustness_crisis_classification", "robustness", "score[perturbation=clean]", 0.15, n=40),
        _row("robustness_crisis_classification", "robustness", "relative_drop[perturbation=typo@1]", 0.1, n=40),
        # a well-measured value: no mark
        _row("privacy_psyleak", "privacy", "control_error", 0.2, n=40),
    ]
    lines, _, _ = summarise(rows)
    by_task = {line.task: line for line in lines}
    assert by_task["ethics_ethicmh"].uninformative == "n = 4, below the minimum of 5"
    assert "at chance level" in (by_task["robustness_crisis_classification"].uninformative or "")
    assert by_task["privacy_psyleak"].uninformative is None
    notes = uninformative_notes(lines)
    assert any(note.startswith("† ethics_ethicmh") and "below the minimum" in note for note in notes)
    text = _printed(lines)
    ethics_line = next(line for line in text.splitlines() if "ethics_ethicmh" in line)
    privacy_line = next(line for line in text.splitlines() if "privacy_psyleak" in line)
    assert "†" in ethics_line and "†" not in privacy_line
    assert all(len(line) <= WIDTH for line in text.splitlines())


def test_a_pillar_without_its_fixed_headline_says_what_it_needs_with_the_others_beside() -> None:
    """Issue 30: safety without a judge shows rta_judge as needing one, the keyword RtA on a line
    marked beside; ConfAIde alone shows r marked beside, and privacy as not scored."""
    from trustmh.run.console import pillar_notes

    rows = [
        _row("safety_jailbreakmh", "safety", "rta_judge", None, n=0),
        _row("safety_jailbreakmh", "safety", "rta_keyword", 0.7),
        _row("privacy_confaide_tier1", "privacy", "pearson_r", 0.5),
        _row("privacy_confaide_tier1", "privacy", "mean_rating", 2.5),
    ]
    lines, _, _ = summarise(rows)
    shown = [(line.task, line.metric, line.value, line.needs, line.beside) for line in lines]
    assert shown == [
        ("safety_jailbreakmh", "rta_judge", None, "needs --judge", False),
        ("safety_jailbreakmh", "rta_keyword", 0.7, None, True),
        ("privacy_confaide_tier1", "pearson_r", 0.5, None, True),
    ]
    text = _printed(lines)
    assert all(len(line) <= WIDTH for line in text.splitlines())
    by_metric = {line.split()[1] + " " + line.split()[2]: line for line in text.splitlines() if "beside:" in line}
    assert "0.700 [0.600, 0.800]" in by_metric["beside: rta_keyword"]
    assert "0.500 [0.400, 0.600]" in by_metric["beside: pearson_r"]
    judge_line = next(line for line in text.splitlines() if " rta_judge " in line)
    assert "— needs --judge" in judge_line and "beside" not in judge_line
    model = "openai/some-long-model-name"
    assert pillar_notes(rows, lines) == [
        f"safety ({model}): not scored — needs --judge (headline: rta_judge); beside it: rta_keyword",
        f"privacy ({model}): not scored — needs privacy_psyleak (headline: free_response_leak_rate); "
        "beside it: pearson_r",
        "beside: a metric shown beside its pillar's headline, never ranked.",
    ]


def test_the_fixed_headline_is_shown_whether_or_not_the_beside_metric_ran() -> None:
    leak = _row("privacy_psyleak", "privacy", "free_response_leak_rate", 0.2)
    for rows in ([leak], [leak, _row("privacy_confaide_tier1", "privacy", "pearson_r", 0.5)]):
        lines, _, _ = summarise(rows)
        psyleak = next(line for line in lines if line.task == "privacy_psyleak")
        assert (psyleak.metric, psyleak.value, psyleak.beside) == ("free_response_leak_rate", 0.2, False)
        from trustmh.run.console import pillar_notes

        assert not any("not scored" in note for note in pillar_notes(rows, lines))


def _strict_row(metric: str, parsed_value: float, strict_value: float, items: int, unparsed: int) -> MetricRow:
    """A crisis row as the scorer writes it: the parsed-only value with its strict twin folded in."""
    row = _row("crisis_classification", "crisis", metric, parsed_value, n=items - unparsed, unparsed=unparsed)
    row.strict, row.strict_ci_low, row.strict_ci_high, row.strict_n = strict_value, 0.0, 0.0, items
    return row


def test_a_value_from_mostly_unparsed_answers_is_marked_not_shown_as_a_finding() -> None:
    from trustmh.run.console import uninformative_notes

    # 19 of 21 answers unparsed: the strict 0.000 [0.000, 0.000] is the unread answers, not the model
    lines, _, _ = summarise([_strict_row("macro_f1", 0.0, 0.0, items=21, unparsed=19)])
    (line,) = lines
    assert line.uninformative == "19 of 21 answers unparsed (more than 50%)"
    assert uninformative_notes(lines) == [
        "† crisis_classification (openai/some-long-model-name): no information — 19 of 21 answers unparsed (more than 50%)"
    ]


def test_items_count_every_item_whether_the_strict_or_the_parsed_value_is_shown() -> None:
    # The same six items, four unparsed: a headline shown strict, and a fallback metric shown parsed-only
    strict, _, _ = summarise([_strict_row("macro_f1", 1.0, 0.333, items=6, unparsed=4)])
    parsed, _, _ = summarise([_row("crisis_classification", "crisis", "accuracy", 1.0, n=2, unparsed=4)])
    assert (strict[0].n, strict[0].unparsed) == (parsed[0].n, parsed[0].unparsed) == (6, 4)
    assert strict[0].uninformative == parsed[0].uninformative == "4 of 6 answers unparsed (more than 50%)"
    console = Console(width=WIDTH, record=True)
    console.print(results_tables(strict)[0])
    text = console.export_text()
    assert "items (all)" in text and "6 / 4 †" in text


def test_a_well_measured_strict_value_with_few_unparsed_is_a_finding() -> None:
    lines, _, _ = summarise([_strict_row("macro_f1", 0.8, 0.7, items=40, unparsed=3)])
    assert lines[0].uninformative is None and (lines[0].n, lines[0].unparsed) == (40, 3)
