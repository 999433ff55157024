"""How a trustmh score says "unparsed", so that no epoch reducer can turn it into a wrong answer.

A scorer marks a field it could not read with :data:`UNPARSED` (a NaN). Every reducer of
inspect 0.3.285 (``mean``, ``median``, ``mode``, ``max``, ``at_least``, ``pass_at``,
``pass_k``) and trustmh's own :func:`~trustmh.scoring.reducers.trustmh_mean` drop NaN values
per field before reducing, so a field stays NaN exactly when it was unparsed in every epoch,
and is otherwise reduced over the epochs where it was parsed. ``None`` would not survive:
inspect converts it to ``0.0`` (a wrong answer) before averaging.

Scorers declared with :func:`trustmh_scorer` may keep writing ``None``: the decorator
rewrites it to :data:`UNPARSED` before inspect stores the score. Metrics read both through
:func:`is_unparsed`, so hand-built scores in tests and logs written before this contract read
the same.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from inspect_ai.scorer import Metric, Score, Scorer, Target, scorer
from inspect_ai.solver import TaskState

UNPARSED = float("nan")
"""A field's value when the output could not be parsed (never right or wrong)."""

F = TypeVar("F", bound=Callable[..., Scorer])


def is_unparsed(value: object) -> bool:
    """``None`` or NaN: the field applies to the sample but its output could not be read."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def mark_unparsed(score: Score) -> Score:
    """``score`` with every ``None`` field of a dict value replaced by :data:`UNPARSED`."""
    value = score.value
    if isinstance(value, Mapping) and any(v is None for v in value.values()):
        return score.model_copy(update={"value": {k: UNPARSED if v is None else v for k, v in value.items()}})
    return score


def trustmh_scorer(*, metrics: Sequence[Metric | Any], name: str | None = None) -> Callable[[F], F]:
    """inspect's ``@scorer`` for trustmh scorers: the stored value marks unparsed as NaN.

    Use it instead of ``@scorer`` so the unparsed convention holds under any epoch reducer.
    It also records what the judges did while the sample was scored (the judge fingerprint
    and panel verdicts in the score's metadata, :mod:`trustmh.scoring.judge_record`) and adds
    the judge probe metrics (:mod:`trustmh.scoring.judge_probes`) and the share of samples with a
    suspected planted rating (:mod:`trustmh.scoring.plant_share`), which report nothing for a
    scorer that judged nothing.
    """
    from trustmh.scoring.judge_probes import judge_probes
    from trustmh.scoring.judge_record import close_log, open_log
    from trustmh.scoring.plant_share import suspected_plant_share

    def decorate(factory: F) -> F:
        @functools.wraps(factory)
        def build(*args: Any, **kwargs: Any) -> Scorer:
            inner = factory(*args, **kwargs)

            async def score(state: TaskState, target: Target) -> Score | None:
                judgements, token = open_log(str(state.model))
                try:
                    result = await inner(state, target)
                finally:
                    close_log(token)
                if result is None:
                    return None
                recorded = judgements.metadata()
                if recorded:
                    result = result.model_copy(update={"metadata": {**(result.metadata or {}), **recorded}})
                return mark_unparsed(result)

            return score

        return scorer(metrics=[*metrics, judge_probes(), suspected_plant_share()], name=name)(build)  # type: ignore[return-value]

    return decorate
