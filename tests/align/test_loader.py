"""Reading rating files: cell parsing, stray spaces, fences, and one-line errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from trustmh.core.errors import DataFormatError, UserError
from trustmh.data.loaders.mentalalign import (
    ATTRIBUTES,
    HUMAN_PREFIX,
    JUDGE_PREFIX,
    MISSING,
    OK,
    UNPARSED,
    cell_status,
    coverage,
    match_to,
    parse_cell,
    read_ratings,
)
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

    # Conversations or response models only one side rated: left out (MISSING), and counted.
    partial = frame.iloc[:-1].drop(columns=["judge_response_beta"]).copy()
    partial.loc[2, "ConvID"] = "999"
    partial["judge_response_mine"] = partial["judge_response_alpha"]
    partial.to_csv(tmp_path / "partial.csv", index=False)
    judged = read_ratings(tmp_path / "partial.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE)
    matched = match_to(human, judged)
    assert matched.keys == human.keys and matched.conv_ids == human.conv_ids
    beta = human.keys.index("beta")
    assert (matched.status[:, beta] == MISSING).all()
    missing_rows = [human.conv_ids.index(c) for c in ("103", "106")]  # 103 became 999, 106 was dropped
    assert (matched.status[missing_rows] == MISSING).all()
    alpha = human.keys.index("alpha")
    assert np.array_equal(matched.scores[:2, alpha], a.scores[:2, alpha], equal_nan=True)  # shared cells kept
    found = coverage(human, judged)
    assert (found.judge_only_keys, found.human_only_keys) == (("mine",), ("beta",))
    assert (found.conversations, found.human_only_conversations, found.judge_only_conversations) == (4, 2, 1)
    note = found.note("b", "human.csv")
    assert note is not None and "(mine)" in note and "2 conversations of human.csv" in note

    # Nothing in common: one line saying what align needs.
    frame.assign(ConvID=["9" + c for c in frame["ConvID"]]).to_csv(tmp_path / "other.csv", index=False)
    with pytest.raises(DataFormatError, match=r"other\.csv:row 2: ConvID '9101' is not in .*no conversation in common"):
        match_to(human, read_ratings(tmp_path / "other.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE))
    mine = frame[["ConvID"]].assign(judge_response_mine=frame["judge_response_alpha"])
    mine.to_csv(tmp_path / "mine.csv", index=False)
    with pytest.raises(DataFormatError, match="align needs human ratings of the same responses: a human_response_mine"):
        match_to(human, read_ratings(tmp_path / "mine.csv", JUDGE_PREFIX, STRICT_SCORE_RANGE))
