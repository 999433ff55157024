"""Judge panels: every judge bound to the run rates each item, and one place combines them.

The panel is every model bound to the inspect roles ``judge``, ``judge_2``, ``judge_3``, … (in
that order; a role bound to a list of models counts each). ``trustmh run --judge A --judge B``
binds ``judge=A`` and ``judge_2=B``. Every judged scorer reaches the judges through
:func:`judge_panel` (``judge_fields``, the per-turn and whole-conversation judges all call it),
so the rule is the same everywhere:

* each judge is asked separately (same prompt, same re-asks on a bad reply);
* per rubric field the panel's value is the mean of the parsed ratings for a scale, and the
  strict majority for a yes/no (a 0/1 or other two-point field), a category or a free-text
  answer (compared case- and space-insensitively); no strict majority = *undecided*: the
  field is left without a value (never guessed) and counted by the probe metrics
  (:mod:`trustmh.scoring.judge_probes`);
* a verdict that stayed unparsed casts no vote; with no parsed verdict the item is unparsed.

With one judge nothing changes: its verdict is the panel's, as before panels existed.

Two settings come from the environment so they reach scorers under plain ``inspect eval`` too
(``trustmh run`` sets them from ``--judge-repeats`` and ``--exclude-self``):

* ``TRUSTMH_JUDGE_REPEATS=K``: each judgement is asked K more times at the judge's temperature
  (stability probe);
* ``TRUSTMH_JUDGE_EXCLUDE_SELF=1``: a judge of the same family as the model under test
  (:func:`model_family`) is left out of that model's panel; with no judge left, the judged
  fields are *not scored*.

What the panel did is recorded per scored sample by :mod:`trustmh.scoring.judge_record`.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

from trustmh.scoring.judge import run_judge
from trustmh.scoring.judge_record import current_log
from trustmh.scoring.planted import suspected_plant
from trustmh.scoring.rubric import JUDGE_ROLE, JudgeResult, PanelResult, Rubric, is_vote
from trustmh.stats.judge_probes import UNDECIDED, panel_mean, strict_majority

if TYPE_CHECKING:
    from inspect_ai.model import Model

_EXTRA_JUDGE = re.compile(r"^judge_(\d+)$")
REPEATS_ENV = "TRUSTMH_JUDGE_REPEATS"
EXCLUDE_SELF_ENV = "TRUSTMH_JUDGE_EXCLUDE_SELF"

# Leading name token -> vendor family, for the self-preference flag. A name not listed is its own
# family (its leading letters), so two unknown models of one line (e.g. "mybot-1", "mybot-2") still match.
FAMILIES = {
    "gpt": "openai",
    "chatgpt": "openai",
    "o": "openai",  # o1, o3, o4-mini
    "davinci": "openai",
    "claude": "anthropic",
    "gemini": "google",
    "gemma": "google",
    "palm": "google",
    "llama": "meta",
    "mistral": "mistral",
    "mixtral": "mistral",
    "ministral": "mistral",
    "codestral": "mistral",
    "qwen": "alibaba",
    "qwq": "alibaba",
    "deepseek": "deepseek",
    "phi": "microsoft",
    "smollm": "huggingface",
    "grok": "xai",
    "command": "cohere",
}


def model_family(name: str) -> str:
    """The vendor family of a model name: ``openai/gpt-4o-mini`` → ``openai``; ``trustmh/replay/claude-x`` → ``anthropic``."""
    last = name.strip().lower().rsplit("/", 1)[-1]
    token = re.match(r"[a-z]+", last)
    leading = token.group(0) if token else last
    return FAMILIES.get(leading, leading)


def judge_panel_models() -> list[Model]:
    """The models bound to ``judge``, ``judge_2``, … in that order (empty when no judge is bound)."""
    from inspect_ai.model import model_roles

    roles = model_roles()
    names = [JUDGE_ROLE] if JUDGE_ROLE in roles else []
    names += sorted((r for r in roles if _EXTRA_JUDGE.match(r)), key=lambda r: int(r.split("_")[1]))
    panel: list[Model] = []
    for role in names:
        bound = roles[role]
        panel += bound if isinstance(bound, list) else [bound]
    return panel


def judge_repeats() -> int:
    """``TRUSTMH_JUDGE_REPEATS`` (0 when unset); a malformed value is an error, not silently 0."""
    raw = os.environ.get(REPEATS_ENV, "").strip()
    if not raw:
        return 0
    if not raw.isdigit():
        raise ValueError(f"{REPEATS_ENV}={raw!r}: expected a whole number of repeats (0 = none)")
    return int(raw)


def exclude_self() -> bool:
    return os.environ.get(EXCLUDE_SELF_ENV, "").strip().lower() in ("1", "true", "yes")


def _text_key(value: object) -> object:
    return " ".join(value.split()).casefold() if isinstance(value, str) else value


def combine_verdicts(
    rubric: Rubric, verdicts: list[dict[str, int | str] | None]
) -> tuple[dict[str, int | float | str | None] | None, list[str]]:
    """The panel's verdict from each judge's (``None`` = unparsed), and the fields left undecided."""
    if len(verdicts) == 1:
        return verdicts[0], []  # type: ignore[return-value]  # one judge: its verdict, unchanged
    parsed = [v for v in verdicts if v is not None]
    if not parsed:
        return None, []
    combined: dict[str, int | float | str | None] = {}
    undecided: list[str] = []
    for judge_field in rubric.fields:
        # A field a verdict leaves out (upstream's field-by-field reading, scoring/verbatim.py) casts no vote.
        values = [v[judge_field.name] for v in parsed if v.get(judge_field.name) is not None]
        if not values:
            combined[judge_field.name] = None
            continue
        if not is_vote(judge_field):
            combined[judge_field.name] = panel_mean([float(v) for v in values])
            continue
        winner = strict_majority([_text_key(v) for v in values])
        if winner is UNDECIDED:
            combined[judge_field.name] = None
            undecided.append(judge_field.name)
        else:  # the first spelling of the winning answer
            combined[judge_field.name] = next(v for v in values if _text_key(v) == winner)
    return combined, undecided


async def _ask_panel(models: list[Model], rubric: Rubric, context: str, response: str, repeats: int) -> tuple:
    async def repeated(model: Model) -> list[JudgeResult]:
        return list(await asyncio.gather(*(run_judge(model, rubric, context, response) for _ in range(repeats))))

    firsts = await asyncio.gather(*(run_judge(m, rubric, context, response) for m in models))
    again = await asyncio.gather(*(repeated(m) for m in models)) if repeats else [[] for _ in models]
    return list(firsts), list(again)


async def judge_panel(rubric: Rubric, context: str, response: str, prefix: str = "") -> PanelResult | None:
    """Ask every judge of the panel about one response; ``None`` when no judge is bound (or
    every one was left out as the model's own family under ``--exclude-self``)."""
    models = judge_panel_models()
    if not models:
        return None
    log = current_log()
    names = [str(m) for m in models]
    if log is not None:
        log.note_panel(names, [n for n in names if log.model and model_family(n) == model_family(log.model)])
        if exclude_self():
            models = [m for m in models if str(m) not in log.self_family]
            log.excluded_self = [n for n in names if n in log.self_family]
            if not models:
                return None
    repeats = judge_repeats()
    firsts, again = await _ask_panel(models, rubric, context, response, repeats)
    verdict, undecided = combine_verdicts(rubric, [r.verdict for r in firsts])
    failed = next((r for r in firsts if r.verdict is None), None)
    result = PanelResult(
        verdict=verdict,  # type: ignore[arg-type]  # a panel's scale may be a mean (float)
        attempts=max(r.attempts for r in firsts),
        raw_replies=firsts[0].raw_replies,
        error=None if verdict is not None else (failed.error if failed else None),
        judges=[str(m) for m in models],
        per_judge=firsts,
        repeats=again,
        undecided=undecided,
    )
    if log is not None:
        # A published judge's prompt is upstream's, sent unmasked (benchmark mode): nothing was masked to flag.
        suspected = rubric.verbatim is None and suspected_plant((context, response), rubric)
        log.record(rubric, prefix, response, result, repeats, suspected)
    return result


def judge_roles(judges: list[str] | None) -> dict[str, str]:
    """``--judge A --judge B`` as inspect roles: ``{"judge": A, "judge_2": B}``; a judge given twice is an error."""
    judges = list(judges or [])
    seen = [j for i, j in enumerate(judges) if j in judges[:i]]
    if seen:
        from trustmh.core.errors import UserError

        raise UserError(f"--judge {seen[0]} given twice: a panel needs different judges")
    return {(JUDGE_ROLE if i == 0 else f"{JUDGE_ROLE}_{i + 1}"): judge for i, judge in enumerate(judges)}


@contextlib.contextmanager
def panel_settings(repeats: int = 0, exclude_own_family: bool = False) -> Iterator[None]:
    """Set the panel's environment settings (see the module docstring) for the duration of a run."""
    wanted = {REPEATS_ENV: str(repeats) if repeats else None, EXCLUDE_SELF_ENV: "1" if exclude_own_family else None}
    before = {name: os.environ.get(name) for name in wanted}
    try:
        for name, value in wanted.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def judge_model() -> Model | None:
    """The first judge of the panel, or ``None`` when no judge is configured (a "is any judge bound?" test)."""
    panel = judge_panel_models()
    return panel[0] if panel else None


async def judge_fields(
    rubric: Rubric, context: str, response: str | None, prefix: str = ""
) -> tuple[dict[str, float | str | None], dict[str, object]]:
    """Judge one response with the configured judge (or panel), for use inside any trustmh scorer.

    Returns ``(value_fields, metadata)``. With no judge bound both are empty, so judge
    metrics stay *not scored*. Each judged call adds ``judge_unparsed`` (0/1: no judge of the
    panel gave a usable verdict) to the value fields. A ``None`` response (the model gave no
    answer) is not judged: its fields are unparsed (``None``), and it is not a judge failure.
    With a panel, a scale field is the judges' mean and a field without a strict majority is
    ``None`` (undecided; see :mod:`trustmh.scoring.panel`). The metadata keeps the parsed verdict
    (``judge_verdict``, ``None`` when unparsed; a panel's combined one) as the judge gave it,
    before a scorer derives its fields from it: ``trustmh judge-check`` compares it with human ratings.
    """
    if judge_model() is None:
        return {}, {}
    if response is None:
        return {f"{prefix}{name}": None for name in rubric.field_names}, {}
    result = await judge_panel(rubric, context, response, prefix)
    if result is None:  # every judge left out as the model's own family (--exclude-self)
        return {}, {}
    values = result.fields(rubric, prefix)
    values[f"{prefix}judge_unparsed"] = 0.0 if result.verdict is not None else 1.0
    metadata: dict[str, object] = {
        f"{prefix}judge_verdict": result.verdict,
        f"{prefix}judge_attempts": result.attempts,
        f"{prefix}judge_error": result.error,
        f"{prefix}judge_reply": result.raw_replies[-1] if result.raw_replies else None,
        f"{prefix}judge_model": result.judge_name,
    }
    if len(result.per_judge) > 1:
        metadata[f"{prefix}judge_replies"] = [r.raw_replies[-1] if r.raw_replies else None for r in result.per_judge]
    return values, metadata
