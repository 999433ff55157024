"""The long-format reader: CSV and JSONL, numbers vs labels, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from trustmh.core.errors import DataFormatError
from trustmh.judgecheck.ratings import read_ratings


def test_csv_and_jsonl_read_alike(tmp_path: Path) -> None:
    csv_file = tmp_path / "h.csv"
    csv_file.write_text("sample_id,field,rater,score,note\ns1,q,ann,4,fine\ns1,v, ann ,Refused ,\n", encoding="utf-8")
    jsonl = tmp_path / "h.jsonl"
    jsonl.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {"sample_id": "s1", "field": "q", "rater": "ann", "score": 4},
                {"sample_id": "s1", "field": "v", "rater": "ann", "score": "refused"},
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    as_tuples = [[(r.sample_id, r.field, r.rater, r.value) for r in read_ratings(p)] for p in (csv_file, jsonl)]
    assert as_tuples[0] == as_tuples[1] == [("s1", "q", "ann", 4.0), ("s1", "v", "ann", "refused")]


@pytest.mark.parametrize(
    "record, message",
    [
        ({"sample_id": "s", "field": "q", "rater": "a", "score": True}, "h.jsonl:line 1, column 'score'"),
        ({"sample_id": "s", "field": "q", "rater": "a", "score": None}, "expected a number or a label"),
        ({"sample_id": "s", "field": "q", "rater": "a"}, "h.jsonl:line 1: missing field 'score'"),
        ({"sample_id": "", "field": "q", "rater": "a", "score": 1}, "column 'sample_id': expected a non-empty"),
    ],
)
def test_bad_jsonl_rows(tmp_path: Path, record: dict, message: str) -> None:
    path = tmp_path / "h.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=message):
        read_ratings(path)


def test_weights_are_read_checked_and_written_back(tmp_path: Path) -> None:
    from trustmh.judgecheck.ratings import Rating, ratings_csv

    original = [
        Rating("s1", "harm", "=cmd", 3.0, "", None, 4.0),
        Rating("s1", "verdict", "=cmd", "refused", "", None, 4.0),
        Rating("s2", "harm", "b", 1.0, "", 2, 1.25),
    ]
    path = tmp_path / "ratings.csv"
    path.write_text(ratings_csv(original), encoding="utf-8")
    assert "'=cmd" in path.read_text(encoding="utf-8")  # a spreadsheet shows it as text
    back = read_ratings(path)
    assert [(r.sample_id, r.field, r.rater, r.value, r.turn, r.weight) for r in back] == [
        (r.sample_id, r.field, r.rater, r.value, r.turn, r.weight) for r in original
    ]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("s1,harm,a,3,0.5\n", "at least 1"),
        ("s1,harm,a,3,x\n", "sampling weight"),
        ("s1,harm,a,3,2\ns1,harm,b,3,3\n", "same weight on every row"),
        ("s1,harm,a,3,2\ns1,harm,b,3,\n", "same weight on every row"),
    ],
)
def test_bad_weights_name_the_line(tmp_path: Path, rows: str, message: str) -> None:
    path = tmp_path / "ratings.csv"
    path.write_text("sample_id,field,rater,score,weight\n" + rows, encoding="utf-8")
    with pytest.raises(DataFormatError, match=message):
        read_ratings(path)
