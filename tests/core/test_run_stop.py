"""A stop lasts while the stopped evaluation runs: a model call made after it has ended (a direct
call in the same process, as in a notebook or the next test) is sent, not held forever."""

from __future__ import annotations

import asyncio

from inspect_ai.model import GenerateConfig, ModelOutput, ModelUsage, get_model

from trustmh.core import run_stop


def test_a_call_after_the_stopped_evaluation_ended_is_sent() -> None:
    run_stop.stop_run("run cap")  # no evaluation is running: nothing to cancel
    assert run_stop.stop_reasons() == ["run cap"]
    output = ModelOutput.from_content("mockllm/model", "sent")
    output.usage = ModelUsage(input_tokens=3, output_tokens=1, total_tokens=4)  # no tiktoken count offline
    model = get_model("mockllm/model", custom_outputs=[output], memoize=False)

    async def call() -> str:
        return (await asyncio.wait_for(model.generate("hi", config=GenerateConfig()), timeout=20)).completion

    assert asyncio.run(call()) == "sent"
    assert run_stop.stop_reasons() == []
