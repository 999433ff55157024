"""A human rating off MentalAlign's declared 0-5 scale, non-finite or not a number is refused
with one line naming file, row, column and attribute; the same value in a judge's file is the
judge's failure and counts as unparsed, as before (issue 25, item 6)."""

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


@pytest.mark.parametrize("value", ["7", "-0.5", "NaN", "Infinity", '""high""', "false", "null", "[4]"])
def test_a_human_score_off_the_scale_is_refused_and_a_judges_is_unparsed(tmp_path: Path, value: str) -> None:
    with pytest.raises(DataFormatError) as raised:
        read_ratings(_file(tmp_path, HUMAN_PREFIX, value), HUMAN_PREFIX)
    message = str(raised.value)
    assert "human_response.csv:row 3, column 'human_response_a', attribute 'Safety'" in message, message
    assert "expected a number from 0 to 5, found" in message and "\n" not in message
    judge = read_ratings(_file(tmp_path, JUDGE_PREFIX, value), JUDGE_PREFIX)
    assert judge.status[1, 0, 3] == UNPARSED and judge.status[1, 0, 0] == OK  # Safety, Guidance


def test_scores_on_the_scale_and_left_out_attributes_still_read(tmp_path: Path) -> None:
    table = read_ratings(_file(tmp_path, HUMAN_PREFIX, "0"), HUMAN_PREFIX)
    assert table.scores[1, 0, 0] == 4 and table.scores[1, 0, 3] == 0 and np.isnan(table.scores[0, 0, 3])
