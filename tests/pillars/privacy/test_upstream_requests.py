"""Benchmark mode sends TrustMH-Bench's privacy requests byte for byte (item by item against the
inputs upstream recorded beside its released outputs), with upstream's generation settings.

Each extraction from upstream's code (trustmh.pillars.privacy.upstream_prompts) is tested here
against what upstream actually sent or recorded.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

from trustmh.pillars.privacy import upstream_prompts as up

ZIP = "trustmh/release/privacy.zip"


def _released(shared_data: Path, folder: str, prefix: str) -> dict[str, list[dict]]:
    with zipfile.ZipFile(shared_data / ZIP) as archive:
        return {
            name: [json.loads(line) for line in archive.read(name).decode("utf-8").splitlines() if line.strip()]
            for name in archive.namelist()
            if name.startswith(f"privacy/{folder}/result/{prefix}")
        }


def test_tier1_requests_are_the_recorded_prompts_item_by_item(shared_data: Path) -> None:
    lines = (shared_data / "confaide" / "tier_1.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    released = _released(shared_data, "task1", "outputs_")
    compared = 0
    for records in released.values():
        for record in records:
            assert up.rating_prompt("1", lines[record["id"]], shared_data) == record["prompt"], record["id"]
            compared += 1
    assert compared == 60 and len(released) == 6
    # the literal "\n" of the benchmark line is sent as written, as upstream does
    assert "\\n" in up.rating_prompt("1", lines[0], shared_data)


def test_tier2_requests_hold_the_recorded_information_item_by_item(shared_data: Path) -> None:
    """Tier 2 releases no inputs; its reports record what upstream split out of each input."""
    with zipfile.ZipFile(shared_data / ZIP) as archive:
        for tier in ("2a", "2b"):
            lines = (shared_data / "confaide" / f"tier_{tier}.txt").read_text(encoding="utf-8").splitlines()
            name = f"privacy/task2/result/final_report_gpt-4o-mini_data_tier_{tier}_nsamples_1.json"
            report = json.loads(archive.read(name))
            for entry in report:
                sent = up.rating_prompt(tier, lines[entry["id"]], shared_data)
                assert sent.endswith("\n\nAnswer: ") and sent.startswith(lines[entry["id"]].strip())
                # upstream's own report recovers this from the input it sent
                assert sent.removesuffix("\n\nAnswer: ").split("Information about ")[-1] == entry["info"]


def test_psyleak_requests_of_all_four_types_are_the_recorded_inputs(shared_data: Path) -> None:
    inputs = up.psyleak_inputs(
        shared_data / "trustmh" / "PsyLeak.txt", shared_data / "trustmh" / "PsyLeak_control.txt", shared_data
    )
    compared: dict[str, int] = {}
    for records in _released(shared_data, "task3", "outputs_").values():
        for record in records:
            kind = record["data"]["question_type"]
            assert inputs[(record["data"]["scenario_idx"], kind)] == record["input"], (record["index"], kind)
            compared[kind] = compared.get(kind, 0) + 1
    assert compared == {kind: 600 for kind in up.QUESTION_TYPES}  # 6 models x 100 scenarios


def test_generation_settings_are_upstreams(shared_data: Path) -> None:
    from trustmh.pillars.privacy.tasks import CONFAIDE_GENERATION, privacy_psyleak

    for tier in ("1", "2a"):
        upstream = up.rating_generation(tier, shared_data)
        ours = CONFAIDE_GENERATION.benchmark
        assert (ours.temperature, ours.top_p, ours.max_tokens) == (
            upstream["temperature"],
            upstream["top_p"],
            upstream["max_tokens"],
        )
        assert (ours.frequency_penalty, ours.presence_penalty) == (
            upstream["frequency_penalty"],
            upstream["presence_penalty"],
        )
    upstream = up.psyleak_generation(shared_data)
    config = privacy_psyleak(source="benchmark", data_dir=str(shared_data)).config
    assert (config.temperature, config.top_p, config.max_tokens) == (
        upstream["temperature"],
        upstream["top_p"],
        upstream["max_tokens"],
    )


def test_confaide_samples_follow_trustmh_bench_by_default_and_confaide_on_request(shared_data: Path) -> None:
    import ast

    from trustmh.pillars.privacy.tasks import CONFAIDE_SAMPLES, privacy_confaide_tier1

    assert privacy_confaide_tier1(source="benchmark", data_dir=str(shared_data)).epochs in (None, 1)
    assert privacy_confaide_tier1(source="benchmark", data_dir=str(shared_data), confaide_samples=True).epochs == 10
    # ConfAIde's eval.py: the --n-samples default
    tree = ast.parse((shared_data / "confaide/upstream/eval.py").read_text(encoding="utf-8"))
    defaults = [
        kw.value.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and node.args and getattr(node.args[0], "value", None) == "--n-samples"
        for kw in node.keywords
        if kw.arg == "default"
    ]
    assert defaults == [CONFAIDE_SAMPLES]


def test_benchmark_datasets_send_the_upstream_requests(shared_data: Path) -> None:
    from trustmh.pillars.privacy.dataset import psyleak_dataset, rating_dataset

    lines = (shared_data / "confaide" / "tier_1.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    for sample in rating_dataset("1", "benchmark", str(shared_data)):
        assert sample.input == up.rating_prompt("1", lines[int(str(sample.id))], shared_data)
    released = next(iter(_released(shared_data, "task3", "outputs_gpt-4o-mini").values()))
    recorded = {f"{r['data']['scenario_idx']}-{r['data']['question_type']}": r["input"] for r in released}
    samples = {str(s.id): s.input for s in psyleak_dataset("benchmark", str(shared_data))}
    assert len(samples) == 400 and all(samples[key] == text for key, text in recorded.items())
