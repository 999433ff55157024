"""Prices and cost caps (issue 25): NaN, infinite and negative values, in every option and file
that takes one, are one line naming the option or the file and field."""

from __future__ import annotations

from tests.hardening.bad_input.bulk import CONVERSATIONS, RESPONSES, _generate, _judge, gen, judge
from tests.hardening.bad_input.common import KEY
from tests.hardening.hardening_cli import Case

EXPECTED = "expected a non-negative number (finite)"
PRICED_RUN = ["run", "privacy_psyleak", "--model", "openai/m", "--log-dir", "logs", "--no-report"]
TRANSCRIPT = {
    "t.jsonl": '{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}]}\n'
}


def option(case_id: str, args: list[str], flag: str, found: str, files: dict[str, str] | None = None) -> Case:
    """A price or cap option given a value that is no amount of money."""
    return Case(case_id, args, files or {}, [f"'{flag}'", EXPECTED, found], ["logs"], KEY)


def prices_file(case_id: str, text: str, field: str, *extra: str) -> Case:
    """``--prices p.yaml`` holding a price that is no amount of money."""
    args = [*PRICED_RUN, "--prices", "p.yaml", *extra]
    return Case(
        case_id, args, {"p.yaml": text}, ["p.yaml:entry 'openai/m'", f"field '{field}'", EXPECTED], ["logs"], KEY
    )


CASES = [
    # click's range check already refuses nan (with its own words); inf passed it
    Case("run-max-cost-nan", [*PRICED_RUN, "--max-cost", "nan"], {}, ["'--max-cost'"], ["logs"], KEY),
    option("run-max-cost-inf", [*PRICED_RUN, "--max-cost", "inf"], "--max-cost", "inf"),
    prices_file("run-prices-nan", "openai/m: {input: .nan, output: 1}\n", "input", "--max-cost", "1"),
    prices_file("run-prices-overflow", "openai/m: {input: 1, output: 1.0e+400}\n", "output", "--max-cost", "1"),
    prices_file("run-prices-negative", "openai/m: {input: 1, output: -2}\n", "output", "--max-cost", "1"),
    prices_file("run-dry-run-prices-inf", "openai/m: {input: .inf, output: 1}\n", "input", "--dry-run"),
    gen(
        "gen-price-in-inf", CONVERSATIONS, ["'--price-in'", EXPECTED, "inf"], _generate("out.csv", "--price-in", "inf")
    ),
    gen(
        "gen-max-cost-inf", CONVERSATIONS, ["'--max-cost'", EXPECTED, "inf"], _generate("out.csv", "--max-cost", "inf")
    ),
    judge(
        "judge-price-out-inf", RESPONSES, ["'--price-out'", EXPECTED, "inf"], _judge("out.csv", "--price-out", "inf")
    ),
    option(
        "audit-max-cost-inf",
        ["audit", "t.jsonl", "--judge", "openai/j", "--log-dir", "logs", "--max-cost", "inf"],
        "--max-cost",
        "inf",
        TRANSCRIPT,
    ),
]
