"""What ``labels import`` refuses, each as one line naming the file and the task (exit 2 at the CLI),
and the Label Studio configuration's escaping of rubric text."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.labels.handwritten import labelstudio_export
from trustmh.cli.labels import app
from trustmh.core.errors import UserError
from trustmh.labels import export_set, import_labels
from trustmh.labels.labelset import LabelSet, SetItem
from trustmh.labels.labelstudio import config_xml, tasks
from trustmh.labels.source import LabelField


@pytest.fixture
def exported(judged_log: Path, tmp_path: Path) -> Path:
    written = export_set(judged_log, tmp_path / "tasks.json", "labelstudio", 6, seed=4)
    return labelstudio_export(tmp_path / "tasks.json", written.labelset, tmp_path / "export.json")


def _edit(path: Path, change: object) -> Path:
    payload = json.loads(path.read_text())
    change(payload)  # type: ignore[operator]
    path.write_text(json.dumps(payload))
    return path


def _error(path: Path, set_path: Path, log: Path | None = None) -> str:
    with pytest.raises(UserError) as caught:
        import_labels([path], set_path, log)
    message = str(caught.value)
    assert "\n" not in message and (str(path) in message or str(set_path) in message)
    return message


def test_a_label_for_an_item_not_in_the_set(exported: Path, tmp_path: Path) -> None:
    _edit(exported, lambda p: p[2]["data"].update(trustmh_item="item-9999"))
    assert "item 'item-9999', which is not in the set" in _error(exported, tmp_path / "tasks.set.json")


def test_a_value_off_the_scale(exported: Path, tmp_path: Path) -> None:
    _edit(exported, lambda p: p[0]["annotations"][0]["result"][1]["value"].update(choices=["7"]))
    message = _error(exported, tmp_path / "tasks.set.json")
    assert "task 1" in message and "'harmfulness' takes 1 | 2 | 3 | 4 | 5" in message and "'7'" in message


def test_labels_made_with_another_rubric(exported: Path, tmp_path: Path) -> None:
    _edit(exported, lambda p: p[0]["data"].update(trustmh_rubrics="safety_harm:000000000000"))
    assert "another rubric version" in _error(exported, tmp_path / "tasks.set.json")


def test_a_set_file_edited_after_export(exported: Path, tmp_path: Path) -> None:
    _edit(tmp_path / "tasks.set.json", lambda p: p["items"][0].update(weight=1.0, inclusion_probability=1.0))
    assert "edited after export" in _error(exported, tmp_path / "tasks.set.json")


def test_a_field_not_in_the_set(exported: Path, tmp_path: Path) -> None:
    _edit(exported, lambda p: p[0]["annotations"][0]["result"][0].update(from_name="toxicity"))
    assert "field 'toxicity' is not in the set" in _error(exported, tmp_path / "tasks.set.json")


def test_cli_import_error_is_one_line_exit_2(exported: Path, tmp_path: Path) -> None:
    _edit(exported, lambda p: p[0]["annotations"][0]["result"][1]["value"].update(choices=["7"]))
    out = tmp_path / "ratings.csv"
    result = CliRunner().invoke(
        app, ["import", str(exported), "--set", str(tmp_path / "tasks.set.json"), "-o", str(out)]
    )
    assert result.exit_code == 2 and "harmfulness" in result.output
    assert not out.exists()  # nothing half-written


def test_cli_round_trip_and_help(exported: Path, tmp_path: Path, judged_log: Path) -> None:
    for command in ("export", "import", "plan"):
        shown = CliRunner().invoke(app, [command, "--help"])
        assert shown.exit_code == 0 and "Example" in shown.output
    out = tmp_path / "ratings.csv"
    result = CliRunner().invoke(
        app,
        ["import", str(exported), "--set", str(tmp_path / "tasks.set.json"), "-o", str(out), "--log", str(judged_log)],
    )
    assert result.exit_code == 0, result.output
    assert "labelstudio-3: 0 items labelled, 0 ratings, 6 skipped (not scored)" in result.output
    plan = CliRunner().invoke(app, ["plan", "--log", str(judged_log), "--field", "harmfulness", "--human", str(out)])
    assert plan.exit_code == 0, plan.output
    assert "PPI (rectifier variance of the pilot" in plan.output


def test_config_xml_escapes_rubric_text_and_never_starts_a_header_with_dollar() -> None:
    hostile = 'harm "quoted" <b>bold</b> & $answer'
    fields = [
        LabelField("harm", "r", hostile, 1, 3),
        LabelField("kind", "r", "$data", choices=("a<b", 'say "x"')),
    ]
    labelset = LabelSet("set", {"judge": "j", "rubrics": {"r": "h"}}, {}, fields, [], blind=True)
    root = ET.fromstring(config_xml(labelset))
    headers = [h.get("value") for h in root.iter("Header")]
    assert f"harm: {hostile}" in headers and "kind: $data" in headers
    assert not any((h or "").startswith("$") for h in headers)
    assert [c.get("value") for c in root.iter("Choice")] == ["1", "2", "3", "a<b", 'say "x"']


def test_task_text_is_data_not_markup() -> None:
    item = SetItem("item-1", "s", "all", 0.5, {}, [{"role": "user", "text": "<script>x</script>"}], "=HYPERLINK(1)")
    labelset = LabelSet("set", {"judge": "j", "rubrics": {}}, {}, [], [item], blind=True)
    data = tasks(labelset)[0]["data"]
    assert data["conversation"][0]["text"] == "<script>x</script>" and data["answer"] == "=HYPERLINK(1)"


def test_a_hostile_answer_is_neutralised_in_the_sheet() -> None:
    from trustmh.labels.sheet import sheet_csv

    item = SetItem("item-1", "s", "all", 0.5, {}, [], '=HYPERLINK("http://x")')
    labelset = LabelSet("set", {"judge": "j", "rubrics": {}}, {}, [], [item], blind=True)
    assert "'=HYPERLINK" in sheet_csv(labelset)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--stratify", "nonexistent"], "--stratify"),
        (["--allocation", "neyman"], "--allocation"),
        (["--format", "prodigy"], "--format"),
        (["--field", "toxicity"], "--field"),
    ],
)
def test_cli_export_mistakes_are_one_line_exit_2(
    judged_log: Path, tmp_path: Path, options: list[str], message: str
) -> None:
    result = CliRunner().invoke(app, ["export", str(judged_log), "-o", str(tmp_path / "t.json"), *options])
    assert result.exit_code == 2 and message in result.output
    assert not list(tmp_path.iterdir())  # nothing written
