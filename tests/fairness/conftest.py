"""Fixtures of the Fairness tests: the shared data folder and a scripted support-quality judge."""

from __future__ import annotations

import json
import re

from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi


@modelapi(name="scripted_fairness_judge")
class ScriptedFairnessJudge(ModelAPI):
    """Support quality = the digit written as ``quality=N`` in the reply under judgement."""

    async def generate(self, input: list[ChatMessage], tools, tool_choice, config: GenerateConfig) -> ModelOutput:  # type: ignore[no-untyped-def]
        found = re.search(r"## Supporter's reply\n.*?quality=(\d)", input[0].text, re.DOTALL)
        content = json.dumps({"support_quality": int(found.group(1))}) if found else "no idea"
        output = ModelOutput.from_content(model="scripted", content=content)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output
