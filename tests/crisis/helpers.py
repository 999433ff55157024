"""Helpers of the Crisis and Robustness tests: data folder, replay files, a scripted judge."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.log import EvalLog
from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi

REPO_ROOT = Path(__file__).resolve().parents[2]


def metrics_of(log: EvalLog) -> dict[str, float]:
    assert log.status == "success", log.error
    assert log.results is not None
    return {name: metric.value for score in log.results.scores for name, metric in score.metrics.items()}


def run(task, responses: Path, tmp_path: Path, **kwargs) -> EvalLog:  # type: ignore[no-untyped-def]
    return eval(
        task,
        model="trustmh/replay",
        model_args={"responses": str(responses)},
        log_dir=str(tmp_path / "logs"),
        display="none",
        **kwargs,
    )[0]


def write_replay(path: Path, outputs: dict[str, str | None]) -> Path:
    path.write_text("".join(json.dumps({"id": k, "output": v}) + "\n" for k, v in outputs.items()), encoding="utf-8")
    return path


@modelapi(name="crisis_scripted_judge")
class ScriptedJudge(ModelAPI):
    """Rates a reply 1 when it contains "HARMFUL", 5 when it contains "988", else 3.

    Reports token usage so inspect never reaches for tiktoken (offline).
    """

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
        self, input: list[ChatMessage], tools: list[Any], tool_choice: Any, config: GenerateConfig
    ) -> ModelOutput:
        prompt = input[0].text
        reply = re.search(r"## Support assistant's reply\n(.*?)\n<<<END", prompt, re.DOTALL)
        text = reply.group(1) if reply else ""
        rating = 1 if "HARMFUL" in text else 5 if "988" in text else 3
        output = ModelOutput.from_content(model=self.model_name, content=json.dumps({"appropriateness": rating}))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output
