"""Reading rating files: cell parsing, stray spaces, fences, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from trustmh.data.loaders.mentalalign import (
    ATTRIBUTES,
    HUMAN_PREFIX,
    JUDGE_PREFIX,
    MISSING,
    OK,
    UNPARSED,
    cell_status,
    match_to,
    parse_cell,
    read_ratings,
)
from trustmh.errors import DataFormatError, UserError
from trustmh.mentalalign.schema import STRICT_SCORE_RANGE

SEVEN = '{"Guidance": 1, "Informativeness": 2, "Relevance": 3, "Safety": 4, "Empathy": 5, "Helpfulness": 4, "Understanding": 3}'


def _status(text: str, low: float = 1.0) -> list[int]:
    return cell_status(np.array([parse_cell(text)]), (low, 5.0))[0].tolist()


def test_parse_cell_variants() -> None:
    assert parse_cell(SEVEN) == (1, 2, 3, 4, 5, 4, 3)
    assert parse_cell(f"```json\n{SEVEN}\n```") == parse_cell(SEVEN)
    assert parse_cell(f"  ```{SEVEN}```  ") == parse_cell(SEVEN)
    assert _status(SEVEN) == [OK] * 7
    assert _status("") == [MISSING] * 7 and _status("  ") == [MISSING] * 7
    assert cell_status(np.array([parse_cell(float("nan"))]))[0].tolist() == [MISSING] * 7
    assert _status("not json") == [UNPARSED] * 7
    assert _status("[1, 2]") == [UNPARSED] * 7
    odd = SEVEN.replace('"Guidance": 1', '"Guidance": 0').replace('"Empathy": 5', '"Empathy": true')
    assert _status(odd) == [UNPARSED, OK, OK, OK, UNPARSED, OK, OK]
    assert _status(odd, low=0.0)[0] == OK
    assert _status(SEVEN.replace('"Safety": 4, ', ""))[3] == UNPARSED
    assert _status(SEVEN.replace('"Safety": 4', '"Safety": "4"'))[3] == UNPARSED
    assert _status(SEVEN.replace('"Safety": 4', '"Safety": NaN'))[3] == UNPARSED
    assert _status(SEVEN.replace('"Safety": 4', '"Safety": 4.5'))[3] == OK


def test_read_fixture_with_spaces_fences_and_bad_cells(fixtures: Path) -> None:
    human = read_ratings(fixtures / "human.csv", HUMAN_PREFIX, STRICT_SCORE_RANGE)
    assert human.keys == ("original", "alpha", "beta", "gamma")
    assert human.conv_ids == ("101", "102", "103", "104", "105", "106")
    assert human.scores.shape == (6, 4, 7)
    assert (human.status[1, 3] == MISSING).all()  # 102 gamma: empty cell
    assert human.status[2, 2, 0] == UNPARSED  # 103 beta: Guidance 0
    assert (human.status[2, 2, 1:] == OK).all()
    judge = read_ratings(fixtures / "judge_a.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE)
    assert (judge.status[3, 1] == UNPARSED).all()  # 104 alpha: not JSON
    assert judge.status[4, 0, ATTRIBUTES.index("Safety")] == UNPARSED
    assert int((judge.status == OK).sum()) == 6 * 4 * 7 - 7 - 1
    assert np.isnan(judge.scores[judge.status != OK]).all()


def test_xlsx_equals_csv(fixtures: Path, tmp_path: Path) -> None:
    frame = pd.read_csv(fixtures / "judge_a.csv", dtype=str, keep_default_na=False)
    frame.to_excel(tmp_path / "judge_a.xlsx", index=False)
    a = read_ratings(fixtures / "judge_a.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE)
    b = read_ratings(tmp_path / "judge_a.xlsx", JUDGE_PREFIX, STRICT_SCORE_RANGE)
    assert a.conv_ids == b.conv_ids and a.keys == b.keys
    assert np.array_equal(a.status, b.status)
    assert np.allclose(a.scores, b.scores, equal_nan=True)


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("", "empty"),
        ("ConvID,human_response_a\n", "no data rows"),
        ("id,human_response_a\n1,{}\n", "missing column 'ConvID'"),
        ("ConvID,judge_response_a\n1,{}\n", "expected columns named human_response_<model>"),
        ("ConvID,human_response_a\n1,{}\n2,{}\n1,{}\n", "row 4: duplicate ConvID '1' (first at row 2)"),
        ("ConvID,human_response_a\n1,{}\n,{}\n", "row 3, column 'ConvID'"),
        ("ConvID, ConvID,human_response_a\n1,1,{}\n", "appears twice"),
    ],
)
def test_structural_errors_are_one_line(tmp_path: Path, content: str, fragment: str) -> None:
    path = _write(tmp_path / "human.csv", content)
    with pytest.raises(DataFormatError) as error:
        read_ratings(path, HUMAN_PREFIX)
    message = str(error.value)
    assert fragment in message and str(path) in message and "\n" not in message


def test_broken_xlsx(tmp_path: Path) -> None:
    with pytest.raises(DataFormatError, match="the file is empty"):
        read_ratings(_write(tmp_path / "empty.xlsx", ""), HUMAN_PREFIX)
    with pytest.raises(DataFormatError, match=r"fake\.xlsx: expected an \.xlsx workbook"):
        read_ratings(_write(tmp_path / "fake.xlsx", "ConvID,human_response_a\n1,{}\n"), HUMAN_PREFIX)


def test_missing_file_and_unsupported_type(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="file not found"):
        read_ratings(tmp_path / "nope.csv", HUMAN_PREFIX)
    with pytest.raises(UserError, match="unsupported file type"):
        read_ratings(_write(tmp_path / "x.json", "{}"), HUMAN_PREFIX)


def test_match_to_reorders_and_rejects_mismatches(fixtures: Path, tmp_path: Path) -> None:
    human = read_ratings(fixtures / "human.csv", HUMAN_PREFIX, STRICT_SCORE_RANGE)
    frame = pd.read_csv(fixtures / "judge_b.csv", dtype=str, keep_default_na=False)
    shuffled = frame.iloc[::-1]
    shuffled.to_csv(tmp_path / "rev.csv", index=False)
    a = match_to(human, read_ratings(fixtures / "judge_b.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE))
    b = match_to(human, read_ratings(tmp_path / "rev.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE))
    assert np.allclose(a.scores, b.scores, equal_nan=True)

    extra = frame.copy()
    extra.loc[2, "ConvID"] = "999"
    extra.to_csv(tmp_path / "extra.csv", index=False)
    with pytest.raises(DataFormatError, match=r"extra\.csv:row 4: ConvID '999' is not in"):
        match_to(human, read_ratings(tmp_path / "extra.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE))
    frame.iloc[:-1].to_csv(tmp_path / "short.csv", index=False)
    with pytest.raises(DataFormatError, match=r"no row for ConvID '106' \(row 7 of"):
        match_to(human, read_ratings(tmp_path / "short.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE))
    frame.drop(columns=["judge_response_beta"]).to_csv(tmp_path / "nobeta.csv", index=False)
    with pytest.raises(DataFormatError, match="missing column 'judge_response_beta'"):
        match_to(human, read_ratings(tmp_path / "nobeta.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE))
