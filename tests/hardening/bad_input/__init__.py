"""The bad-input corpus of ``tests/hardening/test_bad_input.py``, one module per command family.

Each case is one malformed input (or odd path, dead endpoint, held lock) with the substrings the
single stderr line must contain and the outputs that must not exist afterwards.
"""

from tests.hardening.bad_input import (
    align_report,
    bulk,
    clean_errors,
    datasets,
    http_chatbot,
    judge_check_turns,
    label_scales,
    prices,
    rating_scales,
    run,
    score,
    spend_record,
)
from tests.hardening.hardening_cli import Case

FAMILIES: list[list[Case]] = [
    datasets.CASES,
    score.CASES,
    run.CASES,
    bulk.CASES,
    align_report.CASES,
    judge_check_turns.CASES,
    http_chatbot.CASES,
    rating_scales.CASES,
    prices.CASES,
    label_scales.CASES,
    spend_record.CASES,
    clean_errors.CASES,
]
CASES: list[Case] = [case for family in FAMILIES for case in family]
# Each case is a `python -m trustmh` process (2-3 s of CPU, most of it importing inspect): the
# fast subset (-m "not slow") runs the first case of each family, the full run (and CI) all.
FAST_CASE_IDS = {family[0].id for family in FAMILIES if family}
