"""``--where``: parsed into an Arrow expression by a small grammar, never run as SQL."""

from __future__ import annotations

import pyarrow as pa
import pyarrow.compute as pc
import pytest

from trustmh.audit.where import parse_where
from trustmh.core.errors import UserError

SCHEMA = pa.schema([("date", pa.string()), ("day", pa.date32()), ("seq", pa.int64()), ("channel", pa.string())])
TABLE = pa.table(
    {
        "date": ["2026-10-31", "2026-11-01", "2026-11-02"],
        "day": pa.array(["2026-10-31", "2026-11-01", "2026-11-02"]).cast(pa.date32()),
        "seq": [1, 2, 3],
        "channel": ["app", "web", "it's"],
    }
)


def rows(where: str) -> list[int]:
    return TABLE.filter(parse_where(where, SCHEMA)).column("seq").to_pylist()


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("date >= '2026-11-01'", [2, 3]),
        ("day >= '2026-11-01'", [2, 3]),  # the text is cast to the date column's type
        ("seq BETWEEN 2 AND 3 and channel != 'web'", [3]),
        ("channel IN ('app', 'web')", [1, 2]),
        ("channel NOT IN ('app')", [2, 3]),
        ("not (seq = 1 or seq = 3)", [2]),
        ("channel = 'it''s'", [3]),
        ('"seq" < 2', [1]),
        ("channel IS NOT NULL AND seq <> 2", [1, 3]),
    ],
)
def test_conditions(where: str, expected: list[int]) -> None:
    assert rows(where) == expected


@pytest.mark.parametrize(
    ("where", "message"),
    [
        ("date >= '2026-11-01'; DROP TABLE x", "at character 21: expected a column"),
        ("read_csv('/etc/passwd') = 1", "no column 'read_csv'"),
        ("nope = 1", "no column 'nope' in the export (it has date, day, seq, channel)"),
        ("date >=", "expected a value"),
        ("seq = 'abc'", "expected a value of the column's type int64"),
        ("(seq = 1", "expected ')'"),
        ("seq = 1 seq = 2", "expected AND, OR or the end"),
        ("", "expected a condition"),
    ],
)
def test_bad_conditions_are_one_line_naming_the_flag(where: str, message: str) -> None:
    with pytest.raises(UserError) as error:
        parse_where(where, SCHEMA)
    assert error.value.argument == "where"
    assert message in str(error.value)
    assert "\n" not in str(error.value)


def test_the_result_is_an_arrow_expression() -> None:
    assert isinstance(parse_where("seq = 1", SCHEMA), pc.Expression)
