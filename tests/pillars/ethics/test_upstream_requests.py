"""Benchmark mode sends TrustMH-Bench's EthicMH request (its build_reasoning_prompt, read from the
pinned Ethics.zip) item by item as upstream recorded it beside its released outputs."""

from __future__ import annotations

import csv
import io
import json
import zipfile
from pathlib import Path

from trustmh.data.loaders.ethicmh import load_ethicmh
from trustmh.pillars.ethics.prompts import ETHICS_PROMPTS, ETHICS_ZIP, upstream_dilemma_prompt


def _recorded(shared_data: Path) -> list[dict]:
    with zipfile.ZipFile(shared_data / ETHICS_ZIP) as archive:
        name = next(n for n in archive.namelist() if n.startswith("Ethics/outputs/gpt-4o-mini") and n.endswith(".json"))
        return json.loads(archive.read(name))["results"]


def _upstream_cells(shared_data: Path) -> dict[str, tuple[str, str, str]]:
    """The cells as upstream's loader read them: its CSV is not UTF-8, so pandas fell back to gb18030."""
    with zipfile.ZipFile(shared_data / ETHICS_ZIP) as archive:
        text = archive.read("Ethics/data/EthicMH.csv").decode("gb18030")
    rows = csv.DictReader(io.StringIO(text, newline=""))
    return {row["index"]: (row["scenario"], row["options"], row["reasoning_task"]) for row in rows}


def test_requests_are_upstreams_item_by_item(shared_data: Path) -> None:
    items = {item.id: item for item in load_ethicmh(shared_data)}
    upstream_cells = _upstream_cells(shared_data)
    identical = differing = 0
    for record in _recorded(shared_data):
        key = str(record["sample_id"])
        ours = upstream_dilemma_prompt(items[key].cells, shared_data)
        # the template and its filling are upstream's: with upstream's cells it is the recorded request
        assert upstream_dilemma_prompt(upstream_cells[key], shared_data) == record["prompt"], key
        if ours == record["prompt"]:
            identical += 1
        else:
            # the declared deviation: only the text of items whose cells hold non-ASCII characters
            # (curly quotes, dashes) differs, where upstream's gb18030 fallback sent mojibake
            assert any(not cell.isascii() for cell in items[key].cells), key
            assert ours.isascii() is False and len(ours.splitlines()) == len(record["prompt"].splitlines())
            differing += 1
    assert identical + differing == 125
    assert identical >= 57  # every item whose text is plain ASCII


def test_ascii_items_are_byte_identical(shared_data: Path) -> None:
    items = {item.id: item for item in load_ethicmh(shared_data)}
    for record in _recorded(shared_data):
        item = items[str(record["sample_id"])]
        if all(cell.isascii() for cell in item.cells):
            assert upstream_dilemma_prompt(item.cells, shared_data) == record["prompt"]


def test_benchmark_dataset_sends_the_upstream_request(shared_data: Path) -> None:
    from trustmh.pillars.ethics.dataset import ethicmh_dataset

    items = {item.id: item for item in load_ethicmh(shared_data)}
    for sample in ethicmh_dataset("benchmark", str(shared_data)):
        assert sample.input == upstream_dilemma_prompt(items[str(sample.id)].cells, shared_data)


def test_generation_temperature_is_upstreams(shared_data: Path) -> None:
    from trustmh.data.upstream_code import literal_value
    from trustmh.pillars.ethics.tasks import ethics_ethicmh

    with zipfile.ZipFile(shared_data / ETHICS_ZIP) as archive:
        settings = archive.read("Ethics/src/settings.py").decode("utf-8")
        assert ETHICS_PROMPTS in archive.namelist()
    config = ethics_ethicmh(source="benchmark", data_dir=str(shared_data)).config
    assert config.temperature == literal_value(settings, None, "DEFAULT_TEMPERATURE")
