"""Which sampling settings a provider's API takes, and what the bulk engine sends instead.

The engine's :class:`~trustmh.bulk.request.GenerationParams` (``max_tokens``, ``temperature``,
``top_p``, ``seed``) are OpenAI Chat Completions fields, all part of the cache key. Two APIs
refuse some of them with a 400:

* **OpenAI's reasoning models** (o-series: ``o1``, ``o3-mini``, ``o4-mini`` …; ``gpt-5`` and
  later: ``gpt-5``, ``gpt-5.1-mini`` …) take ``max_completion_tokens`` instead of
  ``max_tokens`` and no ``temperature``/``top_p``. We send them as inspect's OpenAI provider
  does for the same models (the token budget renamed, temperature left out), so ``trustmh run``
  and the bulk engine ask the same thing. Detected by the name after the last ``/`` (a proxy's
  ``openai/gpt-5`` included), so an OpenAI-compatible server's own models keep every setting.
* **Anthropic** (API version 2026-10-21, sent by the ``anthropic`` SDK 2.x): no
  ``temperature``/``top_p``/``top_k`` at all (:mod:`trustmh.bulk.anthropic_backend`).

Those models then sample at their own setting: a judge asked for temperature 0 is not
deterministic there. :func:`unsent_sampling_notice` tells the user in one line.
"""

from __future__ import annotations

import json
import re
from typing import Any

from trustmh.bulk.request import GenerationParams

_O_SERIES = re.compile(r"o\d+(?:[-.].*)?")
_GPT_MAJOR = re.compile(r"gpt-(\d+)(?:[-.].*)?")


def openai_reasoning_model(model_name: str) -> bool:
    """Whether an OpenAI model name (without ``openai/``) is an o-series or gpt-5+ model."""
    name = model_name.rsplit("/", 1)[-1].lower()
    if _O_SERIES.fullmatch(name):
        return True
    major = _GPT_MAJOR.fullmatch(name)
    return major is not None and int(major.group(1)) >= 5


def openai_params(model_name: str, params: GenerationParams) -> dict[str, Any]:
    """The body fields of ``params`` for the OpenAI model ``model_name`` (see module docstring)."""
    fields = params.as_dict()
    if openai_reasoning_model(model_name):
        fields["max_completion_tokens"] = fields.pop("max_tokens")
        fields.pop("temperature", None)
        fields.pop("top_p", None)
    return fields


def openai_params_json(model_name: str, params: GenerationParams) -> str:
    """:func:`openai_params` as a JSON object (for a batch file line); the request's own
    canonical encoding when nothing changes, so ordinary models cost nothing extra."""
    if not openai_reasoning_model(model_name):
        return params.canonical_json()
    return json.dumps(openai_params(model_name, params), sort_keys=True, separators=(",", ":"))


def unsent_sampling_notice(models: list[str]) -> str | None:
    """One line naming the models among ``models`` (``provider/name``) that get no temperature,
    or None when there are none."""
    unsent = [
        model
        for model in models
        if model.startswith("anthropic/")
        or (model.startswith("openai/") and openai_reasoning_model(model.partition("/")[2]))
    ]
    if not unsent:
        return None
    return (
        f"note: {', '.join(unsent)}: the provider's API takes no temperature or top_p for "
        "these models (Anthropic's since API version 2026-10-21; OpenAI's reasoning models), so they "
        "sample at their own setting and their answers can differ between runs (the cache keeps the "
        "first; docs/bulk.md)"
    )
