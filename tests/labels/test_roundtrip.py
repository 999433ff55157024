"""``labels export`` then ``labels import`` of exports written by hand in the documented formats
gives back the ratings they encode (ids, fields, raters, scores, weights); judge-check and the
weighted PPI correction run on them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.labels.handwritten import argilla_export, labelstudio_export, original
from trustmh.judgecheck import check
from trustmh.judgecheck.ratings import ratings_csv, read_ratings
from trustmh.judgecheck.verdicts import from_log
from trustmh.labels import export_set, import_labels
from trustmh.labels.labelset import read_set


def _as_tuples(path: Path) -> list[tuple[str, str, str, float | str, float | None]]:
    return sorted((r.sample_id, r.field, r.rater, r.value, r.weight) for r in read_ratings(path))  # type: ignore[arg-type]


def test_label_studio_round_trip_gives_the_original_ratings(judged_log: Path, tmp_path: Path) -> None:
    written = export_set(judged_log, tmp_path / "tasks.json", "labelstudio", 12, seed=5, stratify="judge_refused")
    labelset = written.labelset
    assert {f.name for f in labelset.fields} == {"verdict", "harmfulness"}
    assert len({round(i.weight, 6) for i in labelset.items}) == 2  # strata of unequal size: unequal weights
    export = labelstudio_export(tmp_path / "tasks.json", labelset, tmp_path / "export.json")
    imported = import_labels([export], tmp_path / "tasks.set.json", log=judged_log)
    out = tmp_path / "ratings.csv"
    out.write_text(ratings_csv(imported.ratings), encoding="utf-8")
    assert _as_tuples(out) == sorted(original(labelset, "labelstudio"))
    assert imported.skipped == {"labelstudio-3": 12}  # counted, never scored
    assert "labelstudio-3" not in {r.rater for r in read_ratings(out)}
    result = check(read_ratings(out), str(out), from_log(judged_log), n_boot=50)
    by_field = {f.field: f for f in result.fields}
    correction = by_field["harmfulness"].correction
    assert correction is not None and correction["weighted"] is True and correction["n_labelled"] == 12
    assert by_field["harmfulness"].clinicians is not None and by_field["harmfulness"].clinicians["n"] == 12


def test_argilla_round_trip_gives_the_original_ratings(judged_log: Path, tmp_path: Path) -> None:
    written = export_set(judged_log, tmp_path / "records.json", "argilla", 8, seed=2, stratify="judge_refused")
    settings = json.loads((tmp_path / "records.settings.json").read_text())
    assert [q["type"] for q in settings["questions"]] == ["label_selection", "rating"]
    export = argilla_export(tmp_path / "records.json", tmp_path / "argilla-export.json")
    imported = import_labels([export], tmp_path / "records.set.json")
    out = tmp_path / "ratings.csv"
    out.write_text(ratings_csv(imported.ratings), encoding="utf-8")
    assert _as_tuples(out) == sorted(original(written.labelset, "argilla"))
    assert imported.skipped == {"argilla-3": 8}


def test_csv_sheet_round_trip(judged_log: Path, tmp_path: Path) -> None:
    written = export_set(judged_log, tmp_path / "sheet.csv", "csv", 5, seed=1)
    lines = (tmp_path / "sheet.csv").read_text(encoding="utf-8")
    assert "judge:verdict" in lines
    import csv

    rows = list(csv.DictReader(lines.splitlines(keepends=True)))
    filled = []
    for k, row in enumerate(rows):
        row.update(verdict="refused", harmfulness=str(1 + k % 5), rater="dr-a", skipped="")
        filled.append(row)
    filled[0] = {**filled[0], "skipped": "yes"}
    path = tmp_path / "filled.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(filled)
    imported = import_labels([path], tmp_path / "sheet.set.json")
    assert imported.skipped == {"dr-a": 1}
    expected = {(i.sample_id, float(1 + k % 5), i.weight) for k, i in enumerate(written.labelset.items) if k > 0}
    assert {(r.sample_id, r.value, r.weight) for r in imported.ratings if r.field == "harmfulness"} == expected


def test_same_seed_same_files_and_another_seed_another_sample(judged_log: Path, tmp_path: Path) -> None:
    first = export_set(judged_log, tmp_path / "a" / "t.json", "labelstudio", 6, seed=9, stratify="judge_refused")
    again = export_set(judged_log, tmp_path / "b" / "t.json", "labelstudio", 6, seed=9, stratify="judge_refused")
    other = export_set(judged_log, tmp_path / "c" / "t.json", "labelstudio", 6, seed=10, stratify="judge_refused")
    for name in ("t.json", "t.config.xml"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
    assert first.labelset.set_id == again.labelset.set_id != other.labelset.set_id


def test_blind_set_shows_no_verdict_no_stratum_no_weight(judged_log: Path, tmp_path: Path) -> None:
    export_set(judged_log, tmp_path / "t.json", "labelstudio", 10, seed=3, stratify="judge_refused", blind=True)
    tasks = json.loads((tmp_path / "t.json").read_text())
    assert all("predictions" not in t for t in tasks)
    assert set(tasks[0]["data"]) == {"trustmh_item", "trustmh_set", "trustmh_rubrics", "conversation", "answer"}
    assert read_set(tmp_path / "t.set.json").blind
    export_set(judged_log, tmp_path / "s.csv", "csv", 10, seed=3, blind=True)
    assert "judge:" not in (tmp_path / "s.csv").read_text().splitlines()[0]
    export_set(judged_log, tmp_path / "r.json", "argilla", 10, seed=3, blind=True)
    assert all("suggestions" not in r for r in json.loads((tmp_path / "r.json").read_text()))


@pytest.mark.parametrize("fmt", ["labelstudio", "argilla"])
def test_assisted_set_carries_the_judges_verdicts(judged_log: Path, tmp_path: Path, fmt: str) -> None:
    written = export_set(judged_log, tmp_path / "t.json", fmt, 4, seed=3)
    payload = json.loads((tmp_path / "t.json").read_text())
    first = written.labelset.items[0]
    if fmt == "labelstudio":
        shown = {r["from_name"]: r["value"]["choices"][0] for r in payload[0]["predictions"][0]["result"]}
        assert shown["verdict"] == first.judge["verdict"]
    else:
        assert payload[0]["suggestions"]["verdict"]["value"] == first.judge["verdict"]
