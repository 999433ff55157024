"""A human rating off MentalAlign's declared 0-5 scale, non-finite or not a number is refused
with one line naming file, row, column and attribute; the same value in a judge's file is the
judge's failure and counts as unparsed, as before, and so it is in the released human file,
recognised by its sha256 (issue 25, item 6)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from trustmh.core.errors import DataFormatError
from trustmh.data.loaders.mentalalign import OK, UNPARSED, read_ratings
from trustmh.mentalalign.schema import HUMAN_PREFIX, JUDGE_PREFIX


def _file(tmp_path: Path, prefix: str, value: str) -> Path:
    path = tmp_path / f"{prefix}.csv"
    cells = [f'"{{""Guidance"": 4, ""Safety"": {value}}}"', '"{""Guidance"": 2}"']
    path.write_text(f"ConvID,{prefix}_a\n1,{cells[1]}\n2,{cells[0]}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("value", ["7", "6", "-0.5", "NaN", "Infinity", '""high""', '""4""', "false", "[4]"])
def test_a_human_score_off_the_scale_is_refused_and_a_judges_is_unparsed(tmp_path: Path, value: str) -> None:
    with pytest.raises(DataFormatError) as raised:
        read_ratings(_file(tmp_path, HUMAN_PREFIX, value), HUMAN_PREFIX)
    message = str(raised.value)
    assert "human_response.csv:row 3, column 'human_response_a', attribute 'Safety'" in message, message
    assert "expected a number from 0 to 5, found" in message and "\n" not in message
    judge = read_ratings(_file(tmp_path, JUDGE_PREFIX, value), JUDGE_PREFIX)
    assert judge.status[1, 0, 3] == UNPARSED and judge.status[1, 0, 0] == OK  # Safety, Guidance


def test_scores_on_the_scale_and_attributes_left_out_or_null_still_read(tmp_path: Path) -> None:
    table = read_ratings(_file(tmp_path, HUMAN_PREFIX, "0"), HUMAN_PREFIX)
    assert table.scores[1, 0, 0] == 4 and table.scores[1, 0, 3] == 0 and np.isnan(table.scores[0, 0, 3])
    table = read_ratings(_file(tmp_path, HUMAN_PREFIX, "null"), HUMAN_PREFIX)  # null: not rated
    assert table.scores[1, 0, 0] == 4 and np.isnan(table.scores[1, 0, 3])


def test_the_released_human_file_is_read_as_published(mentalalign_dir: Path) -> None:
    """Its 8 ratings of 6 are upstream's data: counted unparsed (as MentalBench's figures were
    computed on them), not refused; a copy that is not the released file gets no such pass."""
    table = read_ratings(mentalalign_dir / "human_judge.xlsx", HUMAN_PREFIX)
    assert int((table.status == UNPARSED).sum()) >= 8
