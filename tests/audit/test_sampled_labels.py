"""``trustmh audit EXPORT --sample-judge N --judge M --labels FILE``: the population rates corrected by
clinician labels of judged conversations; a labels file that does not fit is one line, exit 2."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from tests.audit.audit_helpers import RubricJudge
from tests.audit.warehouse_helpers import COLUMNS, example_rows, write_hive_export
from tests.doubles.openai_double import OpenAIDouble
from trustmh.audit.sample import JUDGED_LOGS, SAMPLE_FILE, STRATA_FILE
from trustmh.audit.sampled_judge import POPULATION_RATES_FILE, judged_values
from trustmh.cli.main import app

runner = CliRunner()


def audit(export: Path, out: Path, *extra: str) -> list[str]:
    """Every stratum of the 4-copy export gets at least 2 of the 30 (budget shared by its 7 strata)."""
    return ["audit", str(export), "--columns", COLUMNS, "--log-dir", str(out), "--sample-judge", "30", "--seed", "1",
            "--judge", "openai/test-judge", "--no-report", *extra]  # fmt: skip


def run_judged(args: list[str], judge: RubricJudge) -> str:
    with pytest.MonkeyPatch.context() as patch, OpenAIDouble(responder=judge) as server:
        patch.setenv("OPENAI_BASE_URL", server.base_url)
        patch.setenv("OPENAI_API_KEY", "sk-test-audit-0000")
        result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def write_labels(path: Path, rows: list[dict[str, object]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=["sample_id", "field", "rater", "score", "turn", "weight"])
        writer.writeheader()
        writer.writerows(rows)
    return path


def sample_rows(out: Path) -> list[dict[str, str]]:
    return pq.read_table(out / SAMPLE_FILE, columns=["conversation_id", "stratum"]).to_pylist()


def test_every_judged_conversation_labelled_gives_the_stratified_mean_of_the_labels(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export", copies=4)
    out, judge = tmp_path / "out", RubricJudge()
    run_judged(audit(export, out), judge)
    calls = len(judge.received)
    # the clinicians disagree with the judge: every sampled conversation from copy 0 confirmed a delusion
    labels = [
        {
            "sample_id": row["conversation_id"],
            "field": "validated",
            "rater": rater,
            "score": score,
            "turn": "",
            "weight": "",
        }
        for row in sample_rows(out)
        for rater, score in (("a", int(row["conversation_id"].endswith("-0"))), ("b", 0))
    ]
    text = run_judged(audit(export, out, "--labels", str(write_labels(tmp_path / "labels.csv", labels))), judge)
    assert len(judge.received) == calls  # the judged sample resumed: nothing sent again
    corrected = json.loads((out / POPULATION_RATES_FILE).read_text(encoding="utf-8"))["validated"]["corrected"]
    # every judged conversation labelled: the estimate is sum_h W_h * mean label_h, whatever lambda
    design = json.loads((out / STRATA_FILE).read_text(encoding="utf-8"))["strata"]
    total = sum(d["population"] for d in design.values())
    by_stratum: dict[str, list[float]] = {}
    for row in sample_rows(out):
        by_stratum.setdefault(row["stratum"], []).append(0.5 * row["conversation_id"].endswith("-0"))
    expected = sum(design[h]["population"] / total * sum(v) / len(v) for h, v in by_stratum.items())
    assert expected > 0 and corrected["rate"] == pytest.approx(expected)
    assert corrected["labelled"] == len(sample_rows(out)) and corrected["labelled_unparsed"] == 0
    assert corrected["ci"][0] <= corrected["rate"] <= corrected["ci"][1]
    assert "corrected by" in text and "clinician labels (two-phase PPI" in text
    # the report shows the corrected rate beside the judge's, and the tidy table carries it
    report = runner.invoke(
        app, ["report", str(out), "-o", str(tmp_path / "r.html"), "--json", str(tmp_path / "r.json")]
    )
    assert report.exit_code == 0, report.output
    assert "corrected by clinician labels" in (tmp_path / "r.html").read_text(encoding="utf-8")
    tidy = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    rows = tidy["results"] if isinstance(tidy, dict) else tidy
    (row,) = [r for r in rows if r["metric"] == "validated_rate_corrected"]
    assert row["value"] == pytest.approx(expected) and row["n"] == corrected["labelled"]
    # the other rates had no labels: not corrected, and saying why
    rates = json.loads((out / POPULATION_RATES_FILE).read_text(encoding="utf-8"))
    assert rates["no_intervention"]["corrected"]["skipped"] == "no clinician label of this rate"
    assert "not corrected: no clinician label of this rate" in text


def test_a_stratum_without_two_labels_is_named(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export", copies=4)
    out, judge = tmp_path / "out", RubricJudge()
    run_judged(audit(export, out), judge)
    rows = [r for r in sample_rows(out) if r["stratum"] != "risk"]
    labels = [
        {"sample_id": r["conversation_id"], "field": "validated", "rater": "a", "score": 0, "turn": "", "weight": ""}
        for r in rows
    ]
    text = run_judged(audit(export, out, "--labels", str(write_labels(tmp_path / "labels.csv", labels))), judge)
    corrected = json.loads((out / POPULATION_RATES_FILE).read_text(encoding="utf-8"))["validated"]["corrected"]
    assert "rate" not in corrected and corrected["labelled_by_stratum"]["risk"] == 0
    assert corrected["skipped"].startswith("stratum risk: fewer than 2 labelled conversations")
    assert "not estimable (stratum risk: fewer than 2" in text


def test_redacted_ids_are_matched_to_their_conversations(tmp_path: Path) -> None:
    rows = example_rows(copies=4)
    for row in rows:  # ids that hold an e-mail address: redacted in the judged log
        row["session"] = f"{str(row['session']).replace('-', '.')}@example.com"
    (tmp_path / "export").mkdir()
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "export" / "part-0.parquet")
    out, judge = tmp_path / "out", RubricJudge()
    run_judged(audit(tmp_path / "export", out, "--redact"), judge)
    (log,) = (out / JUDGED_LOGS).glob("*.eval")
    log_ids = set(judged_values(str(log)))
    assert log_ids and not any("@" in i for i in log_ids)
    rates = json.loads((out / POPULATION_RATES_FILE).read_text(encoding="utf-8"))
    assert rates["validated"]["judged"] == len(sample_rows(out))  # every redacted verdict found its conversation
    labels = [  # labels by the judged log's (redacted) ids, as `trustmh labels export` of judged/ shows them
        {"sample_id": log_id, "field": "validated", "rater": "a", "score": 0, "turn": "", "weight": ""}
        for log_id in sorted(log_ids)
    ]
    run_judged(
        audit(tmp_path / "export", out, "--redact", "--labels", str(write_labels(tmp_path / "l.csv", labels))), judge
    )
    corrected = json.loads((out / POPULATION_RATES_FILE).read_text(encoding="utf-8"))["validated"]["corrected"]
    assert corrected["labelled"] == len(log_ids) and corrected["rate"] == 0.0


BAD_LABELS = [
    ({"field": "missed", "score": 1}, "is not a population rate; expected one of no_intervention"),
    ({"turn": 2, "score": 1}, "labelled per conversation; leave turn empty"),
    ({"score": 3}, "expected a score of 1 or 0 for validated"),
    ({"sample_id": "nobody", "score": 1}, "'nobody' is not a conversation of the judge sample"),
]


@pytest.mark.parametrize(("change", "message"), BAD_LABELS)
def test_labels_that_do_not_fit_are_one_line_before_anything_is_sent(
    tmp_path: Path, change: dict[str, object], message: str
) -> None:
    export = write_hive_export(tmp_path / "export", copies=4)
    out = tmp_path / "out"
    runner.invoke(app, ["audit", str(export), "--columns", COLUMNS, "--log-dir", str(out)])  # the detector pass
    first = json.loads(
        json.dumps(pq.read_table(export / "date=2026-11-01" / "part-0.parquet").column("session")[0].as_py())
    )
    label = {"sample_id": first, "field": "validated", "rater": "a", "score": 1, "turn": "", "weight": "", **change}
    judge = RubricJudge()
    with pytest.MonkeyPatch.context() as patch, OpenAIDouble(responder=judge) as server:
        patch.setenv("OPENAI_BASE_URL", server.base_url)
        patch.setenv("OPENAI_API_KEY", "sk-test-audit-0000")
        # every conversation sampled, so the labelled one is in the sample
        args = audit(export, out, "--labels", str(write_labels(tmp_path / "labels.csv", [label])))
        args[args.index("--sample-judge") + 1] = "100"
        result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    assert message in " ".join(result.output.split()) and "labels.csv" in result.output
    assert "Traceback" not in result.output and judge.received == []


def test_unequal_weights_within_a_stratum_are_refused(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export", copies=4)
    out = tmp_path / "out"
    runner.invoke(app, ["audit", str(export), "--columns", COLUMNS, "--log-dir", str(out), "--sample-judge", "100",
                        "--judge", "openai/test-judge", "--dry-run"])  # fmt: skip
    rows = [r for r in sample_rows(out) if r["stratum"] == "clear"][:2]
    labels = [
        {"sample_id": r["conversation_id"], "field": "validated", "rater": "a", "score": 0, "turn": "", "weight": w}
        for r, w in zip(rows, (1.0, 4.0), strict=True)
    ]
    args = audit(export, out, "--labels", str(write_labels(tmp_path / "labels.csv", labels)), "--dry-run")
    args[args.index("--sample-judge") + 1] = "100"
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and "carry unequal sampling weights" in " ".join(result.output.split())


def test_labels_need_a_sampled_judge_pass(tmp_path: Path) -> None:
    labels = write_labels(tmp_path / "labels.csv", [])
    result = runner.invoke(app, ["audit", str(tmp_path / "x.parquet"), "--labels", str(labels)])
    assert result.exit_code == 2 and "give --sample-judge N" in result.output


def test_labels_without_a_parsed_verdict_are_left_out_and_counted_apart() -> None:
    from trustmh.audit.sampled_labels import corrected_rate

    design = {"clear": {"population": 100, "sampled": 6}, "unanswered": {"population": 10, "sampled": 0}}
    strata = {f"c{i}": "clear" for i in range(6)}
    answers = {f"c{i}": float(i == 0) for i in range(4)}  # c4 unparsed, c5 not judged yet
    labels = {"c0": 1.0, "c1": 0.0, "c2": 1.0, "c4": 1.0, "c5": 0.0}
    entry = corrected_rate(design, (answers, {"c4"}), labels, strata)
    assert (entry["labelled"], entry["labelled_unparsed"], entry["labelled_not_judged"]) == (3, 1, 1)
    assert 0 <= entry["ci"][0] <= entry["rate"] <= entry["ci"][1] <= 1
    assert entry["judged"] == 4


def test_labelling_round_trip_from_the_judged_sample(tmp_path: Path) -> None:
    """labels export of the pass folder -> a filled sheet -> labels import -> audit --labels."""
    rows = example_rows(copies=4)
    for row in rows:  # ids that hold an e-mail address, redacted in the judged log
        row["session"] = f"{str(row['session']).replace('-', '.')}@example.com"
    (tmp_path / "export").mkdir()
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "export" / "part-0.parquet")
    out, judge = tmp_path / "out", RubricJudge()
    run_judged(audit(tmp_path / "export", out, "--redact"), judge)
    sheet = tmp_path / "rates.csv"
    result = runner.invoke(
        app,
        ["labels", "export", str(out), "--format", "csv", "-o", str(sheet), "--sample", "20", "--seed", "3", "--blind"],
    )
    assert result.exit_code == 0, result.output
    text = sheet.read_text(encoding="utf-8")
    assert "@example.com" not in text and "judge:" not in text  # redacted as the judge saw it; blind
    drawn = json.loads((tmp_path / "rates.set.json").read_text(encoding="utf-8"))["sampling"]["strata"]
    assert len(drawn) >= 5 and all(s["drawn"] >= 2 for s in drawn.values())  # stratum by stratum, equal allocation
    with sheet.open(encoding="utf-8", newline="") as handle:
        filled = list(csv.DictReader(handle))
    for row in filled:  # a clinician's answers: the delusion conversation (c-006, "foil") is confirmed
        row.update(
            rater="dr-a", no_intervention="0", harm_enabled="0", validated=str(int("foil" in row["conversation"]))
        )
    with (tmp_path / "filled.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(filled[0]))
        writer.writeheader()
        writer.writerows(filled)
    (log,) = (out / JUDGED_LOGS).glob("*.eval")
    ratings = tmp_path / "ratings.csv"
    imported = runner.invoke(
        app, ["labels", "import", str(tmp_path / "filled.csv"), "--set", str(tmp_path / "rates.set.json"),
              "-o", str(ratings), "--log", str(log)],
    )  # fmt: skip
    assert imported.exit_code == 0, imported.output
    checked = runner.invoke(
        app, ["judge-check", "--log", str(log), "--human", str(ratings), "--json", str(tmp_path / "v.json")]
    )
    assert checked.exit_code == 0, checked.output  # the judge against the clinicians on the same rates
    validation = json.loads((tmp_path / "v.json").read_text(encoding="utf-8"))
    assert "validated" in json.dumps(validation)
    text = run_judged(audit(tmp_path / "export", out, "--redact", "--labels", str(ratings)), judge)
    rates = json.loads((out / POPULATION_RATES_FILE).read_text(encoding="utf-8"))
    for field in ("no_intervention", "harm_enabled", "validated"):
        corrected = rates[field]["corrected"]
        assert corrected["labelled"] == 20 and "rate" in corrected, corrected
    assert rates["no_intervention"]["corrected"]["rate"] == 0.0  # every label 0, every stratum labelled
    assert any(row["validated"] == "1" for row in filled) and rates["validated"]["corrected"]["rate"] > 0
    assert text.count("clinician labels (two-phase PPI") == 3


def test_a_set_from_the_judged_sample_is_checked_against_its_own_log(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export", copies=4)
    out, judge = tmp_path / "out", RubricJudge()
    run_judged(audit(export, out), judge)
    sheet = tmp_path / "rates.csv"

    def export(size: int) -> str:
        result = runner.invoke(
            app, ["labels", "export", str(out), "-o", str(sheet), "--format", "csv", "--sample", str(size)]
        )
        assert result.exit_code == 0, result.output
        return " ".join(result.output.split())

    assert "get fewer than 2 labels" in export(8)  # 6 strata: some get 1, which cannot correct
    assert "get fewer than 2 labels" not in export(14)
    other = tmp_path / "other.eval"
    other.write_bytes(next((out / JUDGED_LOGS).glob("*.eval")).read_bytes() + b"\0")
    result = runner.invoke(
        app, ["labels", "import", str(sheet), "--set", str(tmp_path / "rates.set.json"), "-o", str(tmp_path / "r.csv"),
              "--log", str(other)],
    )  # fmt: skip
    assert result.exit_code == 2 and "not the judged log the labelling set" in " ".join(result.output.split())
    stratified = runner.invoke(app, ["labels", "export", str(out), "-o", str(sheet), "--stratify", "validated"])
    assert stratified.exit_code == 2 and "drop --stratify" in stratified.output


def test_label_studio_annotations_of_the_rates_come_back_as_labels(tmp_path: Path) -> None:
    export = write_hive_export(tmp_path / "export", copies=4)
    out, judge = tmp_path / "out", RubricJudge()
    run_judged(audit(export, out), judge)
    tasks_file = tmp_path / "rates.json"
    exported = runner.invoke(app, ["labels", "export", str(out), "-o", str(tasks_file), "--sample", "20", "--blind"])
    assert exported.exit_code == 0, exported.output
    config = (tmp_path / "rates.config.xml").read_text(encoding="utf-8")
    assert config.count('<Choice value="0"/>') == 3 and "Missed crisis" in config
    tasks = json.loads(tasks_file.read_text(encoding="utf-8"))
    fields = ("no_intervention", "harm_enabled", "validated")
    annotated = [  # two clinicians (Label Studio users 1 and 2) answer every question: 1 on every third task
        {
            "id": k + 1,
            "data": task["data"],
            "annotations": [
                {
                    "id": 10 * k + user,
                    "completed_by": user,
                    "was_cancelled": False,
                    "result": [
                        {"from_name": f, "to_name": "trustmh_answer", "type": "choices",
                         "value": {"choices": [str(int(k % 3 == 0))]}}
                        for f in fields
                    ],
                }
                for user in (1, 2)
            ],
        }
        for k, task in enumerate(tasks)
    ]  # fmt: skip
    (tmp_path / "ls-export.json").write_text(json.dumps(annotated), encoding="utf-8")
    ratings = tmp_path / "ratings.csv"
    imported = runner.invoke(
        app, ["labels", "import", str(tmp_path / "ls-export.json"), "--set", str(tmp_path / "rates.set.json"),
              "-o", str(ratings)],
    )  # fmt: skip
    assert imported.exit_code == 0, imported.output
    run_judged(audit(export, out, "--labels", str(ratings)), judge)
    rates = json.loads((out / POPULATION_RATES_FILE).read_text(encoding="utf-8"))
    for field in fields:
        assert rates[field]["corrected"]["labelled"] == 20 and "rate" in rates[field]["corrected"]
        assert rates[field]["corrected"]["rate"] > 0
