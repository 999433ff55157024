"""``--dry-run``, ``--max-tokens-total`` and ``--max-cost`` of ``trustmh generate`` / ``judge``."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest

from tests.bulk.cli import common, invoke, read_csv
from tests.doubles.openai_double import OpenAIDouble


def conversations(tmp_path: Path, rows: int) -> Path:
    path = tmp_path / "conv.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["context", "response"])
        for index in range(rows):
            writer.writerow([f"synthetic worry number {index} about sleep and work", f"a reply {index}"])
    return path


def test_generate_dry_run_counts_requests_and_sends_nothing(tmp_path: Path, fake_key: str) -> None:
    source = conversations(tmp_path, 12)
    out = tmp_path / "out.csv"
    with OpenAIDouble() as server:
        code, output = invoke(
            "generate", "--conversations", str(source), "--model", "openai/gpt-4o", "--model", "trustmh/smollm2",
            "-o", str(out), "--max-tokens", "100", "--dry-run", *common(server.base_url, tmp_path),
        )  # fmt: skip
        assert server.request_counts == {}
    assert code == 0, output
    assert not out.exists()
    assert "openai/gpt-4o │ generate → gpt-4o │ 12 │ 0 │" in output
    assert "1,200" in output  # 12 requests x 100 max completion tokens
    assert "estimate: characters/4" in output and "tokenizer (GGUF vocabulary)" in output
    assert "built-in list price" in output and "local" in output


def test_judge_dry_run_sees_the_cache_and_empty_responses(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out = tmp_path / "judge.csv"
    with OpenAIDouble() as server:
        args = ["judge", "--responses", str(tiny_csv), "--judge", "openai/gpt-4o", "-o", str(out)]
        args += ["--key", "original", *common(server.base_url, tmp_path)]
        code, before = invoke(*args, "--dry-run")
        assert code == 0, before
        code, output = invoke(*args)  # the real run fills the cache
        assert code == 0, output
        sent = sum(server.request_counts.values())
        code, after = invoke(*args, "--dry-run")
    assert code == 0, after
    assert f"openai/gpt-4o │ judge │ {sent} │ 0 │" in before
    assert f"openai/gpt-4o │ judge │ {sent} │ {sent} │ 0 │" in after  # all cached now: nothing to pay
    assert "re-asked, up to 3x" in after


def test_judge_dry_run_with_batch_prices_at_the_batch_price(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    out = tmp_path / "judge.csv"
    args = ["judge", "--responses", str(tiny_csv), "--judge", "openai/gpt-4o", "-o", str(out), "--dry-run"]
    args += ["--key", "original", "--no-progress", "--cache", str(tmp_path / "cache.sqlite")]
    costs = []
    for extra in ([], ["--batch", "100"]):
        code, output = invoke(*args, *extra)
        assert code == 0, output
        costs.append(float(re.search(r"total estimated cost ≤ ([0-9.]+) USD", output).group(1)))
    assert costs[1] == pytest.approx(costs[0] / 2, abs=0.011)  # printed to the cent
    assert "--batch: priced at the batch price" in output and "x 0.5 (batch)" in output


def test_max_tokens_total_stops_before_the_cap_and_the_rerun_resumes(tmp_path: Path, fake_key: str) -> None:
    source = conversations(tmp_path, 30)
    out = tmp_path / "out.csv"
    args = ["generate", "--conversations", str(source), "--model", "openai/gpt-4o", "-o", str(out)]
    args += ["--max-tokens", "50", "--max-connections", "4"]
    with OpenAIDouble() as server:
        code, output = invoke(*args, "--max-tokens-total", "2000", *common(server.base_url, tmp_path))
        first = dict(server.request_counts)
        assert code == 3, output
        assert "stopped before the cap: --max-tokens-total 2,000" in output and "Rerun the same command" in output
        assert not out.exists()  # nothing half-written
        assert 0 < len(first) < 30
        spent = int(re.search(r"([\d,]+) tokens spent", output).group(1).replace(",", ""))
        assert 0 < spent <= 2000  # what was spent (reported usage) stayed under the cap
        code, output = invoke(*args, "--max-tokens-total", "1000000", *common(server.base_url, tmp_path))
        counts = server.request_counts
    assert code == 0, output
    assert len(read_csv(out)) == 30
    assert len(counts) == 30 and set(counts.values()) == {1}  # every request sent once: the rerun resumed


def test_max_cost_needs_a_price_and_stops_before_it(tmp_path: Path, fake_key: str) -> None:
    source = conversations(tmp_path, 20)
    out = tmp_path / "out.csv"
    with OpenAIDouble() as server:
        base = ["generate", "--conversations", str(source), "-o", str(out), *common(server.base_url, tmp_path)]
        code, output = invoke(*base, "--model", "openai/local-finetune", "--max-cost", "1")
        assert code == 2 and "--max-cost: no price known for openai/local-finetune" in output
        prices = tmp_path / "prices.json"
        prices.write_text('{"openai/local-finetune": {"input": 1000, "output": 1000}}')
        code, output = invoke(
            *base, "--model", "openai/local-finetune", "--max-cost", "1", "--prices", str(prices), "--max-tokens", "64"
        )
        assert server.request_counts  # some calls fit under 1 USD at 1000 USD per 1M tokens
    assert code == 3 and "--max-cost 1 USD" in output, output
