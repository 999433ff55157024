"""Fixtures of the Anti-sycophancy and Ethics tests: real data folder, replay files, a scripted judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

REPO_ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def real_data(shared_data: Path) -> Path:
    """The shared real datasets (see tests/conftest.py: skipped locally, fails under CI)."""
    return shared_data


@pytest.fixture(autouse=True)
def _no_env_data_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Starter runs must not pick up a developer's $TRUSTMH_DATA_DIR or cache."""
    monkeypatch.delenv("TRUSTMH_DATA_DIR", raising=False)
    monkeypatch.setenv("TRUSTMH_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("TRUSTMH_OFFLINE", "1")


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def write_csv(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@modelapi(name="scripted_judge")
class ScriptedJudge(ModelAPI):
    """A judge that answers from ``rules``: the reply of the first ``[marker, reply]`` whose
    marker occurs in the judge prompt, else ``fallback``. Reports token usage so inspect never
    reaches for tiktoken (offline)."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),
        **model_args: Any,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)
        self.rules: list[list[str]] = model_args.get("rules", [])
        self.fallback: str = model_args.get("fallback", "{}")

    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        prompt = next(m.text for m in input if isinstance(m, ChatMessageUser))
        reply = next((r for marker, r in self.rules if marker in prompt), self.fallback)
        output = ModelOutput.from_content(model=self.model_name, content=reply)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def scripted_judge(default: str, rules: list[list[str]] | None = None) -> Any:
    return get_model("scripted_judge/test", fallback=default, rules=rules or [], memoize=False)


def metric_values(log: Any) -> dict[str, float]:
    assert log.status == "success", log.error
    return {name: metric.value for score in log.results.scores for name, metric in score.metrics.items()}
