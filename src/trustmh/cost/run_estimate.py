"""``trustmh run --dry-run``: the requests a run would make, found by running it against a stub.

A task's model calls depend on its solver (one per sample, one per judged dialogue turn, …),
so instead of guessing, the tasks run for real under inspect with every model replaced by
:class:`DryRunModelAPI`: it answers instantly with a short placeholder reply (:data:`STUB_REPLY`;
not empty, since an empty reply is no answer and is not judged), records each request (its
prompt tokens counted for the *real* model, see :mod:`trustmh.cost.tokens`, and its
``max_tokens``) and calls nothing. Judge calls are recorded under the ``judge`` role; a judge's
re-ask after an unusable verdict (the stub's placeholder is one) is not counted as a request
but noted, since a real judge rarely needs it. Logs go to a temporary folder, deleted after.

Limits: a solver whose path depends on the model's words (a dialogue that ends when the model
says goodbye) is estimated along the path the placeholder reply takes; session-based
``trustmh/http`` models send one request per new user turn, which the count does not model.
"""

from __future__ import annotations

import tempfile
import threading
from collections.abc import Callable, Sequence
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo

from trustmh.cost.estimate import Estimate
from trustmh.cost.prices import PriceTable
from trustmh.models.in_process import InProcessModelAPI

PROVIDER = "trustmhdryrun"
STUB_REPLY = "(dry run: no model was called)"
REASK_PREFIX = "That reply could not be used:"  # trustmh.scoring.judge's re-ask
_lock = threading.Lock()
_targets: dict[str, tuple[str, str]] = {}  # stub model name (without provider) -> (real model, role)
_estimate: Estimate | None = None
_reasks: dict[tuple[str, str], int] = {}  # (model, judge role) -> re-asks seen


@modelapi(name=PROVIDER)
class DryRunModelAPI(InProcessModelAPI):
    """Records requests for the estimate; never calls a model."""

    def max_connections(self) -> int:
        return 64

    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        model, role = _targets.get(self.model_name, (self.model_name, "model"))
        messages = [{"role": m.role, "content": m.text} for m in input]
        output = ModelOutput.from_content(model=self.model_name, content=STUB_REPLY)
        with _lock:
            if _estimate is None:
                raise RuntimeError("the dry-run model is only for trustmh run --dry-run")
            if role.startswith("judge") and messages and _not_in_a_real_run(messages[-1]["content"]):
                _reasks[(model, role)] = _reasks.get((model, role), 0) + 1
                tokens = 0
            else:
                before = _estimate.row(model, role).prompt_tokens
                _estimate.add(model, role, messages, config.max_tokens or _default_max_tokens(model))
                tokens = _estimate.rows[(model, role)].prompt_tokens - before
        output.usage = ModelUsage(input_tokens=tokens, output_tokens=0, total_tokens=tokens)
        return output


def _not_in_a_real_run(prompt: str) -> bool:
    """A re-ask (counted apart, as "re-asked up to N times"), or the judge watch's calibration
    item, which the stub's placeholder replies provoke but a working judge never needs."""
    from trustmh.scoring.verdict import CALIBRATION

    return prompt.startswith(REASK_PREFIX) or CALIBRATION[0] in prompt


def _default_max_tokens(model: str) -> int | None:
    """trustmh's own models cap replies at DEFAULT_MAX_TOKENS; others use the provider's default."""
    from trustmh.models.providers import DEFAULT_MAX_TOKENS

    return DEFAULT_MAX_TOKENS if model.startswith("trustmh/") and not model.startswith("trustmh/http") else None


def estimate_run(
    tasks: Sequence[Any],
    models: Sequence[str],
    roles: dict[str, str],
    limit: int | None,
    prices: PriceTable,
    epochs: int | None = None,
    batched: Callable[[str, str], bool] | None = None,
) -> Estimate:
    """Run ``tasks`` (built task objects) against stubs standing for ``models`` and the models
    bound to ``roles`` (``judge``, ``user``).

    ``epochs`` (``--epochs``, which overrides each task's own) is counted by running one epoch
    and repeating its requests: the stubs answer every epoch alike, so each would send the
    same requests, and the dry run does not take ``epochs`` times longer. Without it each
    task runs its own epochs, as the real run does. ``batched(model, role)``: that row goes
    through a provider batch API (``--batch``) and is priced at the batch price."""
    global _estimate
    from inspect_ai import eval as inspect_eval

    stubs = {f"m{index}": (model, "model") for index, model in enumerate(models)}
    stubs.update({role: (model, role) for role, model in roles.items()})
    estimate = Estimate(prices, batched)
    with _lock:
        _targets.clear()
        _targets.update(stubs)
        _reasks.clear()
        _estimate = estimate
    try:
        with tempfile.TemporaryDirectory(prefix="trustmh-dry-run-") as log_dir:
            inspect_eval(
                list(tasks),
                model=[f"{PROVIDER}/{name}" for name, (_, role) in stubs.items() if role == "model"],
                model_roles={role: f"{PROVIDER}/{role}" for role in roles} or None,
                limit=limit,
                epochs=1 if epochs is not None else None,
                log_dir=log_dir,
                display="none",
                log_realtime=False,
                score=True,
            )
    finally:
        with _lock:
            _estimate = None
    if epochs is not None and epochs > 1:
        for row in estimate.rows.values():
            row.repeat(epochs)
            row.notes.append(f"{epochs} epochs: every sample's requests sent {epochs} times")
    for key in _reasks:
        if key in estimate.rows:
            estimate.rows[key].notes.append(
                "first asks only; an unusable verdict is re-asked, up to 3x per judgement in all"
            )
    for row in estimate.rows.values():
        if row.max_completion_tokens is None:
            row.notes.append("some requests leave max tokens to the provider's default: no price bound")
    return estimate
