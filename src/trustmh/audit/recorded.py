"""``transcripts/<name>``: the deployed chatbot whose recorded conversations are audited.

It names the model in the log (so the report, ``judge-check`` and ``inspect view`` show which
chatbot was audited) and is never asked anything: its answers are the recorded ones, replayed by
:func:`trustmh.audit.task.replay_recorded`. A call to it is a bug and fails loudly.
"""

from __future__ import annotations

from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo

PROVIDER = "transcripts"


@modelapi(name=PROVIDER)
class RecordedChatbotAPI(ModelAPI):
    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config or GenerateConfig())

    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        raise RuntimeError("transcripts/<name> stands for recorded answers and cannot generate (use trustmh audit)")
