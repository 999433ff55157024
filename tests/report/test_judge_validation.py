"""The report's judge-validation note: validated (with CI, n, raters) beside the metrics a
judge-check file vouches for, "unvalidated" beside other judged metrics, nothing beside
metrics no judge made; a validation file of another shape is one line, exit 2."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.judgecheck.judged_run import human_file, judged_safety_log
from trustmh.core.errors import UserError
from trustmh.core.files import json_text
from trustmh.judgecheck import check
from trustmh.judgecheck.ratings import read_ratings
from trustmh.judgecheck.verdicts import from_log
from trustmh.report import build_report
from trustmh.report.judge_validation import FieldValidation, judgement, load_validations


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("validated")
    log, ids = judged_safety_log(tmp)
    human = human_file(tmp / "human.csv", ids)
    result = check(read_ratings(human), str(human), from_log(log), n_boot=200)
    validation = tmp / "validation.json"
    validation.write_text(json_text(result.to_json()), encoding="utf-8")
    return build_report([log.parent], tmp / "report.html", judge_validation=[validation])


def note_of(*args):  # the note alone, as the report shows it
    return judgement(*args)[0]


def notes(html: str) -> dict[str, str]:
    """metric -> the validation note of its (single model's) cell, or "" when none."""
    out = {}
    for row in re.finditer(r'<tr><th scope="row"><code>([^<]*)</code></th>(.*?)</tr>', html, re.S):
        note = re.search(r'class="judge-validation[^"]*">([^<]*)<', row.group(2))
        out[row.group(1)] = note.group(1) if note else ""
    return out


def test_notes_beside_judged_metrics_only(page: Path) -> None:
    found = notes(page.read_text(encoding="utf-8"))
    # Fleiss over (judge, a, b): 22 unanimous items and one 2-1 split -> P-bar = (22 + 1/3) / 23;
    # 35 of the 69 ratings are 1 -> P_e = (35/69)^2 + (34/69)^2; kappa = 0.942
    # ... then the two raters' own agreement (a and b differ on sample 0 only)
    humans = r"; humans among themselves: AC1 0\.91 \[[0-9.]+, 1\.00\], Fleiss&#39; κ 0\.91 \[[0-9.]+, 1\.00\], α 0\.91 \[[0-9.]+, 1\.00\], n=23"
    agreement = r"judge vs humans: Fleiss&#39; κ 0\.94 \[[0-9.]+, 1\.00\], n=23, 2 raters" + humans
    # rta_judge is judge_refused's mean over the run: its corrected mean comes first (every answered
    # sample is labelled, so it is the humans' mean: a 11/23, b 12/23 -> 0.5)
    corrected = r"corrected by 23 human labels from human\.csv \(PPI\+\+, rubric [0-9a-f]{6}\): 0\.500 .*; "
    assert re.fullmatch(corrected + agreement, found["rta_judge"]), found["rta_judge"]
    # grouped rows and a kappa read the same field but are not its mean: the agreement only
    assert re.fullmatch(agreement, found["rta_judge[method=cot]"])
    assert re.fullmatch(agreement, found["detector_judge_kappa"])
    # harmfulness is the judge's own verdict field, and nobody rated it
    assert found["harmfulness"] == "unvalidated"
    assert found["detector_judge_agreement"] == "unvalidated"
    assert found["rta_keyword"] == "" and found["judge_unparsed_rate"] == ""  # no judge made these


def test_validation_of_another_judge_or_task_does_not_apply() -> None:
    fields = {"rta_judge": ["judge_refused"]}
    validation = FieldValidation(
        "v.json", "safety_jailbreakmh", "openai/gpt-4o", "judge_refused", "cohen_kappa", 0.8, (0.7, 0.9), 50, 1
    )
    note = note_of("safety_jailbreakmh", "openai/gpt-4o", "rta_judge", fields, set(), [validation])
    assert note == "judge vs humans: Cohen's κ 0.80 [0.70, 0.90], n=50, 1 rater"
    other_judge = note_of("safety_jailbreakmh", "anthropic/claude", "rta_judge", fields, set(), [validation])
    assert other_judge == "unvalidated (the validation on file is of judge openai/gpt-4o)"
    assert note_of("safety_other", "openai/gpt-4o", "rta_judge", fields, set(), [validation]) == "unvalidated"
    assert note_of("safety_jailbreakmh", None, "rta_judge", fields, set(), [validation]) is None


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"rows": []}, r"v\.json: expected `trustmh judge-check --json` output"),
        (
            {"format": "trustmh-judge-check/1", "judge": "j", "fields": [{"field": "x"}]},
            r"v\.json:fields\[0\]: expected",
        ),
    ],
)
def test_bad_validation_file_is_one_line(tmp_path: Path, payload: dict, message: str) -> None:
    path = tmp_path / "v.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    with pytest.raises(UserError, match=message):
        load_validations([path])


def test_per_turn_validation_shows_beside_the_conversation_metrics_built_from_it(tmp_path: Path) -> None:
    from tests.judgecheck.conversation_run import judge_table, psychosis_log

    log = psychosis_log(tmp_path / "run")
    human = tmp_path / "human.csv"
    rows = [f"{s},{t},dcs,h,{2 if v == 'unparsed' else v}" for (s, t), v in judge_table()["dcs"].items()]
    human.write_text("\n".join(["sample_id,turn,field,rater,score", *rows]) + "\n", encoding="utf-8")
    validation = tmp_path / "validation.json"
    result = check(read_ratings(human), str(human), from_log(log), n_boot=0)
    validation.write_text(json_text(result.to_json()), encoding="utf-8")
    page = build_report([log.parent], tmp_path / "report.html", judge_validation=[validation])
    found = notes(page.read_text(encoding="utf-8"))
    expected = "judge vs humans: ICC(A,1) 1.00, n=9 turns, 1 rater"  # identical on the 9 parsed turns
    for metric in ("dcs", "dcs[condition=explicit]", "dcs_phase2", "validation_rate", "first_validation_turn"):
        assert found[metric] == expected, metric
    # built from HES and SIS verdicts nobody rated
    for metric in ("hes", "sis", "sis_phase3", "no_intervention_rate"):
        assert found[metric] == "unvalidated", metric
    assert found["turns"] == "" and found["judge_unparsed_share"] == ""  # not judge verdicts


def test_simulated_risk_validation_shows_beside_the_vera_metrics(tmp_path: Path) -> None:
    """A validation of one VERA dimension label (and of the best-practice count) shows beside the three
    VERA metrics, naming what it covers and which dimensions no human checked."""
    from tests.judgecheck.test_simulated_risk_validation import human_file
    from tests.pillars.crisis.simulated_risk_run import simulated_risk_log

    log = Path(simulated_risk_log(tmp_path / "run").location)
    human = human_file(tmp_path / "human.csv")
    validation = tmp_path / "validation.json"
    result = check(read_ratings(human), str(human), from_log(log), n_boot=0)
    validation.write_text(json_text(result.to_json()), encoding="utf-8")
    page = build_report([log.parent], tmp_path / "report.html", judge_validation=[validation])
    found = notes(page.read_text(encoding="utf-8"))
    detects = "detects_risk: Cohen&#39;s κ 0.77, n=6, 1 rater"  # 10/13, see the judge-check test
    rest = "(unvalidated: confirms_risk, guides_to_human_care, supportive_conversation, follows_ai_boundaries)"
    counts = re.compile(rf"judge vs humans: {detects}; vera_bp: ICC\(A,1\) [0-9.]+, n=6, 1 rater {re.escape(rest)}")
    assert counts.fullmatch(found["vera_score"]) and counts.fullmatch(found["best_practice_rate"])
    assert found["high_harm_rate"] == f"judge vs humans: {detects} {rest}"  # it does not read the BP count
    # one dimension's own metrics, and the per-turn verdicts' metric: one judge field each, named by the metric
    assert found["detects_risk_high_harm"] == "judge vs humans: Cohen&#39;s κ 0.77, n=6, 1 rater"
    assert found["risk_detected_rate"] == "judge vs humans: Cohen&#39;s κ 1.00, n=7 turns, 1 rater"
    assert found["confirms_risk_best_practice"] == "unvalidated" and found["turns"] == ""
