"""``trustmh run --dry-run``: the requests a run would make, found by running it against a stub.

A task's model calls depend on its solver (one per sample, one per judged dialogue turn, …),
so instead of guessing, the tasks run for real under inspect with every model replaced by
:class:`DryRunModelAPI`: it answers instantly, records each request (its prompt tokens counted
for the *real* model, see :mod:`trustmh.cost.tokens`, its ``max_tokens`` and the task it came
from) and calls nothing. Every role is stubbed: the models under test, the judges of a panel
(``judge``, ``judge_2``, …) and the simulated user (``user``; without ``--user-model`` the model
under test plays the user and its turns are counted in its own row). Logs go to a temporary
folder, deleted after.

The stub answers a model or a user with a short placeholder (:data:`STUB_REPLY`; not empty,
since an empty reply is no answer and is not judged) and a judge as a working judge would: with
one valid verdict for the rubric whose schema ends the prompt (:func:`stub_verdict`), so the
judged path is the real run's path with a judge that works — no re-ask, and the judge's early
stop (:class:`~trustmh.scoring.verdict.JudgeWatch`, "gives nothing usable") is never provoked.
The stub judge is also exempt from that rule (:func:`~trustmh.scoring.judge.exempt_from_watch`):
a judge prompt in another format (a published judge's own, in benchmark mode) gets the
placeholder, which is unusable, and the stub must not stop the dry run for it.

What cannot be known in advance is given as a bound and said so: a real judge may give an
unusable verdict, which is re-asked (up to ``max_attempts`` asks per judgement in all), and a
judge whose first verdicts are all unusable is asked one clean calibration item; each judge row
(and each task) carries ``at most N requests`` counting both (:attr:`EstimateRow.max_requests`).

Limits: a solver whose path depends on the model's words (a dialogue that ends when the model
says goodbye) is estimated along the path the placeholder reply takes; session-based
``trustmh/http`` models send one request per new user turn, which the count does not model.
"""

from __future__ import annotations

import json
import re
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
_unformatted: dict[tuple[str, str], int] = {}  # (model, judge role) -> prompts without a trustmh schema
DEFAULT_JUDGE_ATTEMPTS = 3  # trustmh.scoring.judge.DEFAULT_MAX_ATTEMPTS (checked by a test)
VERBATIM_JUDGE_ATTEMPTS = 1  # a published judge is asked once (scoring/verbatim.py)


OUTSIDE_A_SAMPLE = "(outside a sample)"
# The schema that ends every trustmh judge prompt (scoring/judge_prompt.py, JudgeField.schema_line).
_SCHEMA_START = "Reply with exactly one JSON object and nothing else, with these keys:"
_SCHEMA_LINE = re.compile(r'^  "(?P<name>[^"]+)": (?P<kind>.+?)  // ', re.M)
_INTEGER_RANGE = re.compile(r"integer (?P<low>-?\d+)-(?P<high>-?\d+)$")
_CHOICE = re.compile(r'"([^"]*)"')


def stub_verdict(prompt: str) -> str | None:
    """A valid verdict for the trustmh judge prompt ``prompt`` (its schema's lowest integer, first
    choice, a short text), as a working judge would reply; ``None`` for a prompt in another format."""
    at = prompt.rfind(_SCHEMA_START)
    if at == -1:
        return None
    verdict: dict[str, object] = {}
    for line in _SCHEMA_LINE.finditer(prompt[at:]):
        kind = line["kind"].strip()
        if (bounds := _INTEGER_RANGE.match(kind)) is not None:
            verdict[line["name"]] = int(bounds["low"])
        elif kind.startswith('"'):
            verdict[line["name"]] = _CHOICE.findall(kind)[0]
        else:
            verdict[line["name"]] = "dry run"
    return json.dumps(verdict) if verdict else None


@modelapi(name=PROVIDER)
class DryRunModelAPI(InProcessModelAPI):
    """Records requests for the estimate; never calls a model."""

    def __init__(self, model_name: str, *args: Any, **kwargs: Any) -> None:
        super().__init__(model_name, *args, **kwargs)
        from trustmh.scoring.judge import exempt_from_watch

        exempt_from_watch(self)  # a stub's reply says nothing about a real judge (module docstring)

    def max_connections(self) -> int:
        return 64

    async def generate(
        self, input: list[ChatMessage], tools: list[ToolInfo], tool_choice: ToolChoice, config: GenerateConfig
    ) -> ModelOutput:
        model, role = _targets.get(self.model_name, (self.model_name, "model"))
        messages = [{"role": m.role, "content": m.text} for m in input]
        judge = role.startswith("judge")
        verdict = stub_verdict(messages[-1]["content"]) if judge and messages else None
        output = ModelOutput.from_content(model=self.model_name, content=verdict or STUB_REPLY)
        task = _active_task()
        with _lock:
            if _estimate is None:
                raise RuntimeError("the dry-run model is only for trustmh run --dry-run")
            if judge and messages and _not_in_a_real_run(messages[-1]["content"]):
                _reasks[(model, role)] = _reasks.get((model, role), 0) + 1
                tokens = 0
            else:
                if judge and verdict is None:
                    _unformatted[(model, role)] = _unformatted.get((model, role), 0) + 1
                before = _estimate.row(model, role).prompt_tokens
                # a judgement may be asked again after an unusable verdict: up to max_attempts in all
                attempts = (DEFAULT_JUDGE_ATTEMPTS if verdict is not None else VERBATIM_JUDGE_ATTEMPTS) if judge else 1
                _estimate.add(
                    model, role, messages, config.max_tokens or _default_max_tokens(model), task=task, at_most=attempts
                )
                tokens = _estimate.rows[(model, role)].prompt_tokens - before
        output.usage = ModelUsage(input_tokens=tokens, output_tokens=0, total_tokens=tokens)
        return output


def _active_task() -> str:
    from trustmh.core.inspect_compat import sample_active

    active = sample_active()
    return OUTSIDE_A_SAMPLE if active is None else str(active.task).removeprefix("trustmh/")


def _not_in_a_real_run(prompt: str) -> bool:
    """A re-ask or the judge watch's calibration item: asked of a judge in a real run only after
    unusable verdicts, which a working judge does not give (they are in the bound instead)."""
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
        _unformatted.clear()
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
    for (model, role), row in estimate.rows.items():
        if role.startswith("judge"):
            # the calibration item: asked at most once per judge and task, max_attempts asks
            row.allow_calibration(DEFAULT_JUDGE_ATTEMPTS)
            row.notes.append(
                f"{row.requests:,} requests with a judge that gives usable verdicts; at most "
                f"{row.max_requests:,} if verdicts are unusable (each judgement re-asked, up to "
                f"{DEFAULT_JUDGE_ATTEMPTS} asks in all, and a calibration item per task)"
            )
            if _unformatted.get((model, role)):
                row.notes.append(
                    f"{_unformatted[(model, role)]:,} prompts in a published judge's own format, asked once each "
                    "(the stub's placeholder answered them)"
                )
            if _reasks.get((model, role)):
                row.notes.append(f"{_reasks[(model, role)]:,} re-asks after the stub's unusable replies, not counted")
    for row in estimate.rows.values():
        if row.max_completion_tokens is None:
            row.notes.append("some requests leave max tokens to the provider's default: no price bound")
    return estimate
