"""The base of our own inspect providers, which answer in this process (no endpoint, no key)."""

from __future__ import annotations

from typing import Any

from inspect_ai.model import GenerateConfig, ModelAPI


class InProcessModelAPI(ModelAPI):
    """inspect's provider constructor, keeping the ``-M`` model arguments as :attr:`model_args`."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        **model_args: Any,
    ) -> None:
        super().__init__(model_name=model_name, base_url=base_url, api_key=api_key, config=config or GenerateConfig())
        self.model_args = model_args
