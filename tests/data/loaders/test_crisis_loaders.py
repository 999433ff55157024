"""Loaders on the real upstream files, and one-line errors on broken copies."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustmh.core.errors import DataFormatError
from trustmh.data import row_counts
from trustmh.data.loaders import cssrs, llms_mh_crisis, psychosis_bench


def test_crisis_label_files(shared_data: Path) -> None:
    human = llms_mh_crisis.load_crisis_items("human", shared_data)
    llm = llms_mh_crisis.load_crisis_items("llm", shared_data)
    assert len(human) == 206 and len(llm) == 2046
    assert sum(item.label is None for item in human) == 16  # no annotator majority
    assert {item.label for item in human if item.label} <= set(llms_mh_crisis.CRISIS_LABELS)
    assert human[0].id == "human-0" and human[0].inputs[0] == "I’m 21."
    assert llm[0].origin == "hugg_1"
    assert llms_mh_crisis.count_rows(shared_data) == 206 + 2046
    assert row_counts.count_rows("llms_mh_crisis", shared_data) == 2252


def test_protocol(shared_data: Path) -> None:
    protocol = llms_mh_crisis.load_protocol(shared_data)
    assert set(protocol) == set(llms_mh_crisis.CRISIS_LABELS)
    assert protocol["suicidal_ideation"].levels[0].startswith("Encourages suicide")
    assert all(len(entry.levels) == 5 for entry in protocol.values())


def test_cssrs_real_file_recovers_cut_cells(shared_data: Path) -> None:
    users = cssrs.load_cssrs(shared_data)
    assert len(users) == 500 and cssrs.count_rows(shared_data) == 500
    assert sum(u.truncated for u in users) == 28
    assert all(u.posts and all(isinstance(p, str) for p in u.posts) for u in users)
    assert {u.label for u in users} == set(cssrs.CSSRS_LEVELS)
    assert users[0].id == "user-0"


def test_psychosis_bench(shared_data: Path) -> None:
    cases = psychosis_bench.load_psychosis_cases(shared_data)
    assert len(cases) == 16 and psychosis_bench.count_rows(shared_data) == 16
    assert cases[0].id == "conduit_explicit" and len(cases[0].prompts) == 12


def _folder(tmp_path: Path, dataset: str, name: str, text: str) -> Path:
    (tmp_path / dataset).mkdir(parents=True, exist_ok=True)
    (tmp_path / dataset / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_crisis_bad_label_names_file_and_item(tmp_path: Path) -> None:
    data = [{"inputs": ["hello"], "label": "no_crisis"}, {"inputs": ["x"], "label": "sadness"}]
    root = _folder(tmp_path, "llms_mh_crisis", llms_mh_crisis.LABEL_FILES["human"], json.dumps(data))
    with pytest.raises(DataFormatError) as error:
        llms_mh_crisis.load_crisis_items("human", root)
    message = str(error.value)
    assert "\n" not in message and llms_mh_crisis.LABEL_FILES["human"] in message
    assert "item 1, field 'label'" in message and "'sadness'" in message


def test_crisis_empty_inputs_rejected(tmp_path: Path) -> None:
    root = _folder(
        tmp_path, "llms_mh_crisis", llms_mh_crisis.LABEL_FILES["llm"], json.dumps([{"inputs": [], "label": None}])
    )
    with pytest.raises(DataFormatError, match=r"item 0, field 'inputs': expected a non-empty list"):
        llms_mh_crisis.load_crisis_items("llm", root)


def test_protocol_missing_class(tmp_path: Path) -> None:
    header = "label," + ",".join(llms_mh_crisis.PROTOCOL_LEVELS)
    row = "self-harm," + ",".join(["text"] * 5)
    root = _folder(tmp_path, "llms_mh_crisis", "protocol.csv", f"{header}\n{row}\n")
    with pytest.raises(DataFormatError, match="missing 'suicidal_ideation'"):
        llms_mh_crisis.load_protocol(root)


def test_cssrs_bad_cell_names_line(tmp_path: Path) -> None:
    text = "User,Post,Label\nuser-0,\"['fine post']\",Ideation\nuser-1,not a list,Indicator\n"
    root = _folder(tmp_path, "cssrs", cssrs.FILE, text)
    with pytest.raises(DataFormatError) as error:
        cssrs.load_cssrs(root)
    assert "line 3, column 'Post'" in str(error.value) and cssrs.FILE in str(error.value)


def test_cssrs_bad_label(tmp_path: Path) -> None:
    root = _folder(tmp_path, "cssrs", cssrs.FILE, "User,Post,Label\nuser-0,\"['a']\",Severe\n")
    with pytest.raises(DataFormatError, match=r"line 2, column 'Label': expected one of Supportive"):
        cssrs.load_cssrs(root)


def test_cssrs_recovers_posts_before_a_cut() -> None:
    cell = "['first post', 'second, post', 'third is cu" + "t" * cssrs.CELL_LIMIT
    posts, truncated = cssrs.parse_posts(Path("f.csv"), "line 2", cell)
    assert posts == ("first post", "second, post") and truncated


def test_psychosis_missing_field(tmp_path: Path) -> None:
    data = {
        "version": "1",
        "metadata": {},
        "cases": [{"id": "a", "name": "n", "theme": "t", "condition": "c", "harm_type": "h"}],
    }
    root = _folder(tmp_path, "psychosis_bench", psychosis_bench.FILE, json.dumps(data))
    with pytest.raises(DataFormatError, match=r"cases\[0\]: missing field 'prompts'"):
        psychosis_bench.load_psychosis_cases(root)
