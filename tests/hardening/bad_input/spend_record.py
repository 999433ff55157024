"""`trustmh run --max-cost/--max-tokens-total` on a log folder whose record of what earlier capped
runs spent (`trustmh-spend.json`, trustmh/run/spend.py) is not one: the cap cannot count it, so
the run does not start."""

from __future__ import annotations

from tests.hardening.hardening_cli import TEST_KEY, Case

SPEND = '{"cost": "a lot", "tokens": 10}'
CASES = [
    Case(
        f"run-spend-record-{name}",
        [
            "run",
            "privacy_psyleak",
            "--model",
            "openai/m",
            "--log-dir",
            "logs",
            "--no-report",
            "--max-tokens-total",
            "99",
        ],
        {"logs/trustmh-spend.json": content},
        ["logs/trustmh-spend.json", 'expected {"cost", "tokens", "max_cost", "max_tokens_total"}'],
        [],
        env={"OPENAI_API_KEY": TEST_KEY, "OPENAI_BASE_URL": "http://127.0.0.1:9/v1"},
    )
    for name, content in [("not-json", "{not json"), ("text-cost", SPEND), ("negative", '{"tokens": -5}')]
]
