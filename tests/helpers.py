"""Small helpers for tests: scripted models that report token usage (no tiktoken)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo

# Replies keyed by model name; each call pops the next reply (a callable gets the prompt).
SCRIPTS: dict[str, list[str | Callable[[str], str]]] = {}
CALLS: dict[str, list[str]] = {}


@modelapi(name="scripted")
class ScriptedModelAPI(ModelAPI):
    """``scripted/<name>``: answers from ``SCRIPTS[name]`` in order; records prompts in ``CALLS``."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig = GenerateConfig(),
        **model_args: Any,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config)

    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        prompt = input[-1].text
        CALLS.setdefault(self.model_name, []).append(prompt)
        script = SCRIPTS[self.model_name]
        reply = script.pop(0) if len(script) > 1 else script[0]
        text = reply(prompt) if callable(reply) else reply
        output = ModelOutput.from_content(model=self.model_name, content=text)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def script(name: str, replies: Sequence[str | Callable[[str], str]]) -> str:
    """Install a script and return the model name to use (``scripted/<name>``)."""
    SCRIPTS[name] = list(replies)
    CALLS[name] = []
    return f"scripted/{name}"


def write_jsonl(path: Path, records: Sequence[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path
