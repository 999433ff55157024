"""Issue 25: NaN, infinite and negative prices are refused wherever a price comes from (a
``--prices`` file, a price option, an entry of the table), and so is a NaN ``--max-cost``: a NaN
compares false with every cap, so a run with one would never stop. The command-line forms are in
the bad-input corpus (``tests/hardening/bad_input/prices.py``)."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from trustmh.bulk.budget import Budget
from trustmh.core.errors import UserError
from trustmh.cost.prices import BUILT_IN, Price, PriceTable

NOT_AMOUNTS = [math.nan, math.inf, -math.inf, -0.5]


@pytest.mark.parametrize(
    "text,field,found",
    [
        ("openai/x: {input: .nan, output: 2}\n", "input", "nan"),
        ("openai/x: {input: 1, output: .inf}\n", "output", "inf"),
        ("openai/x: {input: 1, output: -.inf}\n", "output", "-inf"),
        ("openai/x: {input: 1.0e+400, output: 2}\n", "input", "inf"),  # overflows to inf
        ("openai/x: {input: -0.5, output: 2}\n", "input", "-0.5"),
        ('{"openai/x": {"input": 1, "output": NaN}}\n', "output", "'NaN'"),  # JSON's NaN: a string to YAML
    ],
)
def test_a_prices_file_with_a_nan_infinite_or_negative_price_is_one_line(
    tmp_path: Path, text: str, field: str, found: str
) -> None:
    path = tmp_path / "prices.yaml"
    path.write_text(text)
    with pytest.raises(UserError) as error:
        PriceTable.load(path)
    message = str(error.value)
    assert message.startswith(f"{path}:entry 'openai/x', field '{field}'"), message
    assert "expected a non-negative number (finite)" in message and message.endswith(found), message
    assert "\n" not in message


def test_a_batch_share_that_is_nan_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "prices.yaml"
    path.write_text("openai/x: {input: 1, output: 2, batch: .nan}\n")
    with pytest.raises(UserError, match="field 'batch'"):
        PriceTable.load(path)


@pytest.mark.parametrize("value", NOT_AMOUNTS)
def test_no_price_entry_can_hold_a_nan_infinite_or_negative_price(value: float) -> None:
    with pytest.raises(ValueError, match="price of input tokens"):
        Price(value, 1.0, "test")
    with pytest.raises(ValueError, match="price of output tokens"):
        Price(1.0, value, "test")
    with pytest.raises(ValueError, match="batch share"):
        Price(1.0, 1.0, "test", batch_share=value)


def test_every_built_in_price_is_finite_and_the_table_takes_only_prices() -> None:
    table = PriceTable.load()
    for name, (input_price, output_price) in BUILT_IN.items():
        assert math.isfinite(input_price) and math.isfinite(output_price) and min(input_price, output_price) >= 0
        assert table.price(name) is not None
    with pytest.raises(TypeError, match="entry 'openai/x'"):
        PriceTable({"openai/x": (1.0, 2.0)})  # type: ignore[dict-item]


@pytest.mark.parametrize("value", NOT_AMOUNTS)
def test_a_cap_that_is_nan_infinite_or_negative_is_refused(value: float) -> None:
    with pytest.raises(UserError, match="--max-cost: expected a non-negative number"):
        Budget(value, None, {"openai/x": Price(1.0, 2.0, "test")})
