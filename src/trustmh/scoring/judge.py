"""The rubric judge shared by every pillar.

A judge is any inspect model bound to the ``judge`` model role (``trustmh run --judge M`` or
``inspect eval ... --model-role judge=M``); more roles ``judge_2``, ``judge_3``, … make a panel
(:mod:`trustmh.scoring.panel`). It is never the model under test unless the user binds it so:
with no judge bound, :func:`trustmh.scoring.panel.judge_model` returns ``None`` and judge fields are left out of the
score, which the metrics report as *not scored*.

Safety of the judgement:

* the text under judgement sits between boundary markers carrying a random nonce, so it
  cannot close the block itself, and the judge is told that instructions inside are data;
* ratings planted in the judged text, in any spelling, are replaced by a marker before the judge
  reads it (``scoring/planted.py``), so the judge cannot copy them and its verdict is its own;
* the reply must hold one JSON object matching the rubric's schema (integer ranges and
  labelled choices are checked; ``scoring/verdict.py``); a bad reply is sent back with the validation
  error, at most ``max_attempts`` times in all, then the verdict is *unparsed* (``None`` per field);
* a judge whose first verdicts, and a clean calibration item, are all unusable is stopped (:class:`~trustmh.scoring.verdict.JudgeWatch`,
  kept on the judge model object): its samples error with one line naming the judge and the fix,
  and ``trustmh run`` stops with that line.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from trustmh.scoring.judge_prompt import judge_prompt
from trustmh.scoring.rubric import JUDGE_ROLE as JUDGE_ROLE  # re-exported for the rubric's users
from trustmh.scoring.rubric import JUDGE_TEMPERATURE, JudgeResult, Rubric
from trustmh.scoring.verdict import JudgeWatch, Message, ask_for_verdict
from trustmh.scoring.verdict import VerdictError as VerdictError  # re-exported for the rubric's users
from trustmh.scoring.verdict import parse_verdict as parse_verdict

if TYPE_CHECKING:  # inspect is imported lazily: the bulk CLI uses this module without it
    from inspect_ai.model import ChatMessage, Model

DEFAULT_MAX_ATTEMPTS = 3
_WATCH = "_trustmh_judge_watch"


def judge_watch(model: Model) -> JudgeWatch:
    """The early-stop rule of this judge (one per run: ``trustmh run`` builds its models).

    Kept on the model's provider object: inspect hands a task copies of a role's ``Model``
    that share it, so every copy counts into, and sees, the same watch."""
    watch = getattr(model.api, _WATCH, None)
    if watch is None:
        watch = JudgeWatch(str(model), fix="--judge")
        setattr(model.api, _WATCH, watch)
    return watch


def exempt_from_watch(api: object) -> None:
    """A stand-in judge (the dry run's stub, :mod:`trustmh.cost.run_estimate`) is never stopped:
    its placeholder replies say nothing about a real judge, and stopping would end the count."""
    setattr(api, _WATCH, JudgeWatch(str(getattr(api, "model_name", api)), fix="--judge", limit=sys.maxsize))


def raise_if_stopped(watches: Sequence[JudgeWatch]) -> None:
    for watch in watches:
        if watch.stopped:
            raise watch.error(DEFAULT_MAX_ATTEMPTS)


def raise_if_a_judge_stopped(judges: Sequence[Model]) -> None:
    """The one-line :class:`~trustmh.scoring.verdict.UnusableJudge` of the first judge stopped, if any."""
    raise_if_stopped([judge_watch(judge) for judge in judges])


async def run_judge(
    model: Model,
    rubric: Rubric,
    context: str,
    response: str,
    max_attempts: int = DEFAULT_MAX_ATTEMPTS,
) -> JudgeResult:
    """Ask ``model`` for a verdict, re-asking with the validation error on a bad reply.

    Raises :class:`~trustmh.scoring.verdict.UnusableJudge` once the judge's watch has stopped it.
    """
    from inspect_ai.model import ChatMessageAssistant, ChatMessageUser, GenerateConfig

    config = GenerateConfig(temperature=JUDGE_TEMPERATURE, max_tokens=512)
    if rubric.verbatim is not None:  # upstream's settings; None = not sent (the provider's default)
        config = GenerateConfig.model_validate(
            {
                "temperature": rubric.verbatim.temperature,
                "max_tokens": rubric.verbatim.max_tokens,
                **dict(rubric.verbatim.settings),  # e.g. top_p and penalties upstream sends explicitly
            }
        )
        max_attempts = rubric.verbatim.max_attempts

    async def ask(messages: tuple[Message, ...]) -> str:
        chat: list[ChatMessage] = [
            ChatMessageAssistant(content=m["content"])
            if m["role"] == "assistant"
            else ChatMessageUser(content=m["content"])
            for m in messages
        ]
        output = await model.generate(chat, config=config)
        return output.completion

    watch = judge_watch(model)
    if watch.stopped:
        raise watch.error(max_attempts)
    prompt = judge_prompt(rubric, context, response)
    asked = await ask_for_verdict(ask, rubric, prompt, (context, response), max_attempts, watch)
    if asked.stopped or (asked.verdict is None and watch.stopped):
        # No score of this run can be judged: stop all of it (models under test included) at once.
        from trustmh.core.run_stop import stop_run

        stop_run(f"judge {watch.judge}")
        raise watch.error(max_attempts)
    return JudgeResult(asked.verdict, asked.attempts, asked.replies, asked.error)


def choice_flags(value: str | None, choices: Sequence[str], prefix: str) -> Mapping[str, float | None]:
    """One 0/1 field per choice (``<prefix><choice>``), ``None`` each if unparsed."""
    return {f"{prefix}{c}": (None if value is None else float(value == c)) for c in choices}
