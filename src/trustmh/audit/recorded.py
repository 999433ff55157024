"""``transcripts/<name>``: the deployed chatbot whose recorded conversations are audited.

It names the model in the log (so the report, ``judge-check`` and ``inspect view`` show which
chatbot was audited) and is never asked anything: its answers are the recorded ones, replayed by
:func:`trustmh.audit.task.replay_recorded`. A call to it is a bug and fails loudly.
"""

from __future__ import annotations

from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo

from trustmh.models.in_process import InProcessModelAPI

PROVIDER = "transcripts"


@modelapi(name=PROVIDER)
class RecordedChatbotAPI(InProcessModelAPI):
    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        raise RuntimeError("transcripts/<name> stands for recorded answers and cannot generate (use trustmh audit)")
