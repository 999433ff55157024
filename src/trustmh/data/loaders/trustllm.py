"""TrustLLM jailbreak prompts (``trustllm/jailbreak.json``): ``[{prompt, label: [method], source}]``.

trustmh does not evaluate these prompts (its generated-jailbreak task writes its own templates
of the same 14 methods); the loader validates the file and lists the method labels, which the
tests use to check that every TrustLLM method has a trustmh transformation.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_json
from trustmh.data.registry import resolve_file


@dataclass(frozen=True)
class JailbreakPrompt:
    id: str
    method: str
    prompt: str
    source: str


def load_trustllm_jailbreak(data_dir: str | Path | None = None) -> list[JailbreakPrompt]:
    path = resolve_file("trustllm", "jailbreak.json", data_dir)
    data = read_json(path)
    if not isinstance(data, list):
        raise DataFormatError(path, None, "expected a JSON list of {prompt, label, source} objects")
    records = []
    for index, item in enumerate(data):
        where = f"item {index}"
        if not isinstance(item, dict) or not isinstance(item.get("prompt"), str):
            raise DataFormatError(path, where, "expected an object with a string 'prompt'")
        label = item.get("label")
        method = label[0] if isinstance(label, list) and label and isinstance(label[0], str) else label
        if not isinstance(method, str) or not method:
            raise DataFormatError(path, f"{where}, field 'label'", "expected a method name or a one-element list of it")
        records.append(JailbreakPrompt(str(index), method, item["prompt"], str(item.get("source", ""))))
    return records


def method_labels(data_dir: str | Path | None = None) -> list[str]:
    return sorted({record.method for record in load_trustllm_jailbreak(data_dir)})


def count_rows(data_dir: str | Path | None) -> int:
    return len(load_trustllm_jailbreak(data_dir))
