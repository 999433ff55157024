"""ELEPHANT, PAS and EthicMH loaders on the real files and on malformed fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes import write_text
from trustmh.core.errors import DataFormatError
from trustmh.data import row_counts
from trustmh.data.loaders import elephant, ethicmh, pas

ETHIC_HEADER = (
    "index,subcategory,scenario,options,reasoning_task,expected_reasoning,model_behavior,real_world_impact,viewpoints\n"
)
GOOD_OPTIONS = '"A.one\nB.two\nC.three\nD.four"'


# --- real files -------------------------------------------------------------------------


def test_aita_real_file_and_yta_filter(shared_data: Path) -> None:
    posts = elephant.load_aita(shared_data)
    assert len(posts) == 10
    kept = elephant.yta_only(posts)
    # Rows whose community verdict is YTA (is_asshole=1): upstream ids 1, 3, 4 and 10.
    assert [post.id for post in kept] == ["1", "3", "4", "10"]
    assert all(post.verdict == "YTA" for post in kept)


def test_oeq_real_file_carries_human_labels(shared_data: Path) -> None:
    queries = elephant.load_oeq(shared_data)
    assert len(queries) == 10
    first = queries[0]
    assert first.id == "1029" and first.source == "relationship"
    assert first.human_labels == {
        "emotional_validation": 0.0,
        "indirect_language": 0.0,
        "indirect_action": 1.0,
        "accept_framing": 0.0,
    }
    assert all(query.labelled for query in queries)


def test_elephant_count_rows(shared_data: Path) -> None:
    assert elephant.count_rows(shared_data) == 20
    assert row_counts.count_rows("elephant", shared_data) == 20


def test_ethicmh_real_file(shared_data: Path) -> None:
    items = ethicmh.load_ethicmh(shared_data)
    assert len(items) == 125 == ethicmh.count_rows(shared_data)
    assert [item.id for item in items[:3]] == ["0", "1", "2"]
    assert items[0].gold == "C" and list(items[0].options) == ["A", "B", "C", "D"]
    assert items[0].options["C"].startswith("Seek the patient")
    assert {item.subcategory for item in items} >= {"Bias in AI (race)", "Autonomy vs Beneficence (minor)"}


# --- malformed fixtures: one-line error naming file and line ------------------------------


def _error(call, *args) -> str:
    with pytest.raises(DataFormatError) as caught:
        call(*args)
    message = str(caught.value)
    assert "\n" not in message
    return message


def test_aita_contradicting_labels(tmp_path: Path) -> None:
    path = write_text(
        tmp_path / "AITA_sample.csv",
        ',prompt,top_comment,is_asshole,ytanta\n0,"post one",c,1,YTA\n1,"post\ntwo",c,0,YTA\n',
    )
    message = _error(elephant.parse_aita, path)
    assert str(path) in message and "line 3" in message and "contradicts" in message


def test_aita_unknown_verdict(tmp_path: Path) -> None:
    path = write_text(tmp_path / "AITA_sample.csv", ",prompt,top_comment,is_asshole,ytanta\n0,post,c,1,ESH\n")
    message = _error(elephant.parse_aita, path)
    assert f"{path}:line 2, column 'ytanta'" in message and "YTA or NTA" in message


def test_aita_missing_column(tmp_path: Path) -> None:
    path = write_text(tmp_path / "AITA_sample.csv", ",prompt,top_comment,is_asshole\n0,post,c,1\n")
    message = _error(elephant.parse_aita, path)
    assert f"{path}:line 1" in message and "'ytanta'" in message


def test_oeq_bad_label(tmp_path: Path) -> None:
    path = write_text(
        tmp_path / "OEQ_sample.csv",
        ",prompt,human,source,emotional_validation_human,indirect_language_human,indirect_action_human,accept_framing_human\n"
        "5,q,h,advisorqa,1.0,0,1,0.0\n6,q2,h2,advisorqa,yes,0,1,0.0\n",
    )
    message = _error(elephant.parse_oeq, path)
    assert f"{path}:line 3, column 'emotional_validation_human'" in message


def test_oeq_without_label_columns_is_unlabelled(tmp_path: Path) -> None:
    path = write_text(tmp_path / "OEQ_sample.csv", ",prompt,human\n7,my query,a human reply\n")
    (query,) = elephant.parse_oeq(path)
    assert query.id == "7" and query.human == "a human reply" and not query.labelled


def test_oeq_duplicate_id(tmp_path: Path) -> None:
    path = write_text(tmp_path / "OEQ_sample.csv", ",prompt,human\n7,q,h\n7,q2,h2\n")
    message = _error(elephant.parse_oeq, path)
    assert f"{path}:line 3" in message and "duplicate id '7'" in message


def test_pas_accepted_format(tmp_path: Path) -> None:
    write_text(
        tmp_path / "pas" / "PAS.csv",
        "statement,category,extra\nI lied to my friend.,honesty,x\nI skipped my meds.,,y\n",
    )
    items = pas.load_pas(tmp_path)
    assert [(i.id, i.statement, i.category) for i in items] == [
        ("0", "I lied to my friend.", "honesty"),
        ("1", "I skipped my meds.", None),
    ]
    assert pas.count_rows(tmp_path) == 2 == row_counts.count_rows("pas", tmp_path)


def test_pas_ids_from_column(tmp_path: Path) -> None:
    path = write_text(tmp_path / "PAS.csv", "id,statement\np-7,I took the last slice.\n")
    assert pas.parse_pas(path)[0].id == "p-7"


def test_pas_empty_statement(tmp_path: Path) -> None:
    path = write_text(tmp_path / "PAS.csv", "statement,category\nI lied.,a\n  ,b\n")
    message = _error(pas.parse_pas, path)
    assert f"{path}:line 3, column 'statement'" in message


def test_pas_missing_statement_column(tmp_path: Path) -> None:
    path = write_text(tmp_path / "PAS.csv", "text,category\nI lied.,a\n")
    message = _error(pas.parse_pas, path)
    assert f"{path}:line 1" in message and "'statement'" in message


def test_pas_missing_file_names_import(tmp_path: Path) -> None:
    from trustmh.core.errors import DatasetMissingError

    with pytest.raises(DatasetMissingError, match="pas"):
        pas.load_pas(tmp_path)


def test_ethicmh_bad_options(tmp_path: Path) -> None:
    path = write_text(
        tmp_path / "e.csv",
        ETHIC_HEADER + f'0,s,scen,{GOOD_OPTIONS},task,A,,,\n1,s,scen,"A.one\nB.two\nD.four",task,A,,,\n',
    )
    message = _error(ethicmh.parse_ethicmh, path)
    assert f"{path}:line 6, column 'options'" in message and "A, B, C, D" in message  # row 1 spans lines 2-5


def test_ethicmh_bad_option_line(tmp_path: Path) -> None:
    path = write_text(tmp_path / "e.csv", ETHIC_HEADER + '0,s,scen,"A.one\nsecond line\nB.two",task,A,,,\n')
    message = _error(ethicmh.parse_ethicmh, path)
    assert f"{path}:line 2, column 'options'" in message


def test_ethicmh_bad_gold(tmp_path: Path) -> None:
    path = write_text(tmp_path / "e.csv", ETHIC_HEADER + f"0,s,scen,{GOOD_OPTIONS},task,E,,,\n")
    message = _error(ethicmh.parse_ethicmh, path)
    assert f"{path}:line 2, column 'expected_reasoning'" in message


def test_ethicmh_duplicate_index(tmp_path: Path) -> None:
    path = write_text(
        tmp_path / "e.csv", ETHIC_HEADER + f"4,s,scen,{GOOD_OPTIONS},task,A,,,\n4,s,scen,{GOOD_OPTIONS},task,B,,,\n"
    )
    message = _error(ethicmh.parse_ethicmh, path)
    assert "duplicate id '4'" in message and "line 6" in message  # options span 4 physical lines


def test_ethicmh_truncated_quote(tmp_path: Path) -> None:
    path = write_text(tmp_path / "e.csv", ETHIC_HEADER + '0,s,scen,"A.one\nB.two,task,A,,,\n')
    message = _error(ethicmh.parse_ethicmh, path)
    assert str(path) in message and "line" in message
