"""Test doubles shared by every test folder: one scripted model (also the judge) and one metrics reader.

* :func:`script` installs replies for the model ``scripted/<name>``: strings answered in
  order (the last one repeats) or callables given the prompt: a :class:`Prompt`, the last
  message's text, whose ``messages`` hold every message's text (a judge's re-ask is a new last
  message after the original prompt). Every prompt is recorded in :data:`CALLS`. Outputs report token usage, so inspect never
  reaches for tiktoken (which downloads an encoding, and tests are offline).
* :func:`scripted_model` is such a ``Model`` (e.g. for the ``judge`` role) whose reply is fixed,
  depends on marker phrases anywhere in the conversation (:func:`by_marker`, so a re-ask gets
  the same reply as the first ask, like a judge re-reading it), or is any function of the prompt.
* :func:`metrics_of` reads a finished log's metrics; :func:`replay_eval` runs a task on
  recorded outputs (the ``trustmh/replay`` model) and :func:`write_replay` writes them.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from inspect_ai import Task, eval
from inspect_ai.log import EvalLog
from inspect_ai.model import (
    ChatMessage,
    GenerateConfig,
    Model,
    ModelOutput,
    ModelUsage,
    get_model,
    modelapi,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from trustmh.models.in_process import InProcessModelAPI


class Prompt(str):
    """The last message's text (what callables compare), with every message's text in ``messages``."""

    messages: tuple[str, ...]

    def __new__(cls, messages: Sequence[str]) -> Prompt:
        prompt = super().__new__(cls, messages[-1])
        prompt.messages = tuple(messages)
        return prompt


Reply = str | Callable[[str], str]
SCRIPTS: dict[str, list[Reply]] = {}
_NAMES = itertools.count()
CALLS: dict[str, list[str]] = {}


@modelapi(name="scripted")
class ScriptedModelAPI(InProcessModelAPI):
    """``scripted/<name>``: answers from ``SCRIPTS[name]`` in order; records prompts in ``CALLS``."""

    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        prompt = Prompt([message.text for message in input])
        CALLS.setdefault(self.model_name, []).append(str(prompt))
        replies = SCRIPTS[self.model_name]
        reply = replies.pop(0) if len(replies) > 1 else replies[0]
        output = ModelOutput.from_content(model=self.model_name, content=reply(prompt) if callable(reply) else reply)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output


def script(name: str, replies: Sequence[Reply]) -> str:
    """Install a script and return the model name to use (``scripted/<name>``)."""
    SCRIPTS[name] = list(replies)
    CALLS[name] = []
    return f"scripted/{name}"


def by_marker(default: str, rules: Sequence[tuple[str, str]] = ()) -> Callable[[str], str]:
    """The reply of the first ``(marker, reply)`` whose marker occurs in any message, else ``default``."""

    def reply(prompt: str) -> str:
        texts = prompt.messages if isinstance(prompt, Prompt) else (prompt,)
        return next((reply for marker, reply in rules if any(marker in text for text in texts)), default)

    return reply


def scripted_model(reply: Reply, name: str | None = None) -> Model:
    """A model (e.g. for the ``judge`` role) answering every prompt with ``reply`` (a string or a function of it)."""
    return get_model(script(name or f"model-{next(_NAMES)}", [reply]), memoize=False)


def metrics_of(log: EvalLog) -> dict[str, float]:
    """``{metric name: value}`` of a log that must have finished successfully."""
    assert log.status == "success", log.error
    assert log.results is not None
    return {name: metric.value for score in log.results.scores for name, metric in score.metrics.items()}


def replay_eval(task: Task, responses: Path, tmp_path: Path, judge: Model | None = None, **kwargs: Any) -> EvalLog:
    """Run ``task`` on the outputs recorded in ``responses`` (``{"id", "output"}`` lines), optionally judged."""
    if judge is not None:
        kwargs["model_roles"] = {"judge": judge}
    return eval(
        task,
        model="trustmh/replay",
        model_args={"responses": str(responses)},
        log_dir=str(tmp_path / "logs"),
        display="none",
        **kwargs,
    )[0]


def write_jsonl(path: Path, records: Sequence[Mapping[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records), encoding="utf-8")
    return path


def write_text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def write_replay(path: Path, outputs: Mapping[str, str | None]) -> Path:
    """Recorded outputs by sample id (``None``: the model gave no answer)."""
    return write_jsonl(path, [{"id": sample_id, "output": output} for sample_id, output in outputs.items()])
