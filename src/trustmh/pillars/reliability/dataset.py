"""Samples of the Reliability pillar, from the benchmark files or the starter items.

Starter items are stored in each benchmark's own format and read by the same loaders, so
the starter suite also exercises the loaders. ``source`` is already resolved to
``"starter"`` or ``"benchmark"`` (see :func:`trustmh.tasking.declare.resolve_source`).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from inspect_ai.dataset import MemoryDataset, Sample

from trustmh.core.errors import UserError
from trustmh.data.loaders import cpsycoune, d4, emobench, esconv, psyeval, swmh
from trustmh.pillars.reliability.prompts import (
    D4_BINARY,
    D4_LEVELS,
    SWMH_DESCRIPTIONS,
    as_options,
    d4_prompt,
    emobench_item,
    emobench_prompt,
    mcq_item,
    mcq_prompt,
    swmh_prompt,
)

STARTER = "trustmh.pillars.reliability.starter"
STARTER_FILES = {
    "usmle": "usmle_mental.jsonl",
    "crisis": "crisis_qa.jsonl",
    "emobench": "emobench_eu.jsonl",
    "esconv": "esconv.json",
    "cpsycoune": "cpsycoune_Education_1.json",
    "swmh": "swmh.csv",
    "d4": "d4_raw_data.json",
}
T = TypeVar("T")


def read_starter(kind: str, parse: Callable[[Path], T]) -> T:
    """Parse a starter file with a loader's parse function (starter files are real files)."""
    with resources.as_file(resources.files(STARTER).joinpath(STARTER_FILES[kind])) as path:
        return parse(Path(path))


def _check_source(source: str) -> None:
    if source not in ("starter", "benchmark"):
        raise UserError(f"source must be resolved to 'starter' or 'benchmark' here, not {source!r}")


# --- Psy-Eval multiple choice -----------------------------------------------------------


def mcq_items(kind: str, source: str, data_dir: str | None) -> list[psyeval.McqItem]:
    _check_source(source)
    if source == "benchmark":
        return psyeval.load_psyeval(kind, data_dir)
    return read_starter(kind, lambda path: psyeval.parse_mcq_file(path, f"starter-{kind}"))


def mcq_sample(item: psyeval.McqItem) -> Sample:
    """Input: the prompt; target: the gold letter; metadata: question, options, letters, and the item
    part of the prompt as ``perturb_span`` (a robustness variant perturbs the item, not our instruction)."""
    metadata: dict[str, Any] = {"question": item.question, "options": item.options, "letters": item.letters}
    metadata.update(item.metadata)
    metadata["perturb_span"] = mcq_item(item.question, item.options)
    return Sample(id=item.id, input=mcq_prompt(item.question, item.options), target=item.answer, metadata=metadata)


def psyeval_dataset(kind: str, source: str, data_dir: str | None) -> MemoryDataset:
    name = {"usmle": "usmle_mental", "crisis": "crisis_qa"}[kind]
    return MemoryDataset([mcq_sample(item) for item in mcq_items(kind, source, data_dir)], name=name)


def usmle_dataset(source: str, data_dir: str | None) -> MemoryDataset:
    """Psy-Eval USMLE-Mental (benchmark) or the 8 starter psychiatry questions."""
    return psyeval_dataset("usmle", source, data_dir)


def crisis_qa_dataset(source: str, data_dir: str | None) -> MemoryDataset:
    """Psy-Eval Crisis Response QA (benchmark) or the 6 starter crisis questions."""
    return psyeval_dataset("crisis", source, data_dir)


# --- EmoBench EU ------------------------------------------------------------------------


def emobench_items(source: str, data_dir: str | None, language: str = "en") -> list[emobench.EuItem]:
    _check_source(source)
    items = emobench.parse_eu_from(data_dir) if source == "benchmark" else read_starter("emobench", emobench.parse_eu)
    return emobench.filter_language(items, language)


def emobench_sample(item: emobench.EuItem) -> Sample:
    emotion_options = as_options(item.emotion_choices)
    cause_options = as_options(item.cause_choices)
    return Sample(
        id=item.id,
        input=emobench_prompt(item.language, item.scenario, item.subject, emotion_options, cause_options),
        target=[item.emotion_answer, item.cause_answer],
        metadata={
            "language": item.language,
            "qid": item.qid,
            "scenario": item.scenario,
            "subject": item.subject,
            "emotion_options": emotion_options,
            "cause_options": cause_options,
            "emotion_answer": item.emotion_answer,
            "cause_answer": item.cause_answer,
            # What a robustness variant perturbs: the item, not our instruction.
            "perturb_span": emobench_item(item.language, item.scenario, item.subject, emotion_options, cause_options),
            "coarse_category": item.coarse_category,
            "finegrained_category": item.finegrained_category,
        },
    )


def emobench_dataset(source: str, data_dir: str | None, language: str = "en") -> MemoryDataset:
    """EmoBench EU items of ``language`` (``en``, ``zh`` or ``all``), one sample per item."""
    items = emobench_items(source, data_dir, language)
    if not items:
        raise UserError(f"no EmoBench EU items for language {language!r} in the {source} set")
    return MemoryDataset([emobench_sample(item) for item in items], name=f"emobench_eu_{language}")


# --- SWMH -------------------------------------------------------------------------------


def truncate_middle(text: str, max_chars: int, marker: str = " [...] ") -> str:
    """``text`` if short enough, else its start and end around ``marker`` (``max_chars`` <= 0: no limit)."""
    if max_chars <= 0 or len(text) <= max_chars:
        return text
    keep = max(0, max_chars - len(marker))
    head = keep // 2
    return text[:head] + marker + text[len(text) - (keep - head) :]


def swmh_options() -> dict[str, str]:
    return as_options([SWMH_DESCRIPTIONS[label] for label in swmh.LABELS])


def swmh_dataset(source: str, data_dir: str | None, split: str = "test", max_chars: int = 2000) -> MemoryDataset:
    _check_source(source)
    posts = (
        swmh.load_swmh(data_dir, split)
        if source == "benchmark"
        else read_starter("swmh", lambda p: swmh.parse_swmh(p, "starter"))
    )
    options = swmh_options()
    letter_of = {label: letter for letter, label in zip(options, swmh.LABELS, strict=True)}
    samples = [
        Sample(
            id=post.id,
            input=swmh_prompt(truncate_middle(post.text, max_chars), options),
            target=letter_of[post.label],
            metadata={
                "label": post.label,
                "labels": list(swmh.LABELS),
                "options": options,
                "letters": "".join(options),
            },
        )
        for post in posts
    ]
    return MemoryDataset(samples, name=f"swmh_{split}")


# --- D4 ---------------------------------------------------------------------------------

D4_TARGETS = ("drisk", "srisk")
D4_SPEAKERS = {"doctor": "医生", "patient": "患者"}


def d4_transcript(session: d4.D4Session, max_chars: int) -> str:
    text = "\n".join(f"{D4_SPEAKERS[turn.speaker]}：{turn.text}" for turn in session.turns)
    return truncate_middle(text, max_chars, "\n……（中间省略）……\n")


def d4_classes(target: str, binary: bool) -> tuple[str, ...]:
    if target not in D4_TARGETS:
        raise UserError(f"D4 target must be drisk (depression severity) or srisk (suicide risk), not {target!r}")
    return (D4_BINARY if binary else D4_LEVELS)[target]


def d4_dataset(
    source: str,
    data_dir: str | None,
    split: str = "test",
    target: str = "drisk",
    binary: bool = False,
    max_chars: int = 2000,
) -> MemoryDataset:
    _check_source(source)
    classes = d4_classes(target, binary)
    sessions = (
        d4.load_d4(data_dir, split)
        if source == "benchmark"
        else read_starter("d4", lambda p: d4.parse_d4(p, "starter"))
    )
    options = as_options(classes)
    letters = "".join(options)
    samples = []
    for session in sessions:
        level = getattr(session, target)
        gold = min(level, 1) if binary else level
        samples.append(
            Sample(
                id=session.id,
                input=d4_prompt(target, d4_transcript(session, max_chars), options),
                target=letters[gold],
                metadata={
                    "label": classes[gold],
                    "labels": list(classes),
                    "options": options,
                    "letters": letters,
                    "level": level,
                    "summary": session.summary,
                },
            )
        )
    return MemoryDataset(samples, name=f"d4_{split}_{target}{'_binary' if binary else ''}")


# --- support dialogues ------------------------------------------------------------------


def merge_turns(turns: list[tuple[str, str]]) -> list[dict[str, str]]:
    """Consecutive turns of one speaker joined into one message; empty turns dropped."""
    merged: list[dict[str, str]] = []
    for role, text in turns:
        if not text.strip():
            continue
        if merged and merged[-1]["role"] == role:
            merged[-1]["text"] += "\n" + text.strip()
        else:
            merged.append({"role": role, "text": text.strip()})
    return merged


ESCONV_CORPORA = ("fair", "full")


def esconv_dialogues(source: str, data_dir: str | None, corpus: str = "fair") -> list[esconv.EsconvDialogue]:
    _check_source(source)
    if corpus not in ESCONV_CORPORA:
        raise UserError(
            f"ESConv corpus must be 'fair' (TrustMH-Bench's ESConv_fair.json) or 'full' (ESConv.json), not {corpus!r}"
        )
    if source == "starter":
        return read_starter("esconv", lambda p: esconv.parse_esconv(p, "starter-esconv"))
    return esconv.load_esconv_fair(data_dir) if corpus == "fair" else esconv.load_esconv_full(data_dir)


def esconv_dataset(source: str, data_dir: str | None, corpus: str = "fair") -> MemoryDataset:
    """One sample per conversation; turns (role seeker/supporter) in the metadata."""
    samples = []
    for dialogue in esconv_dialogues(source, data_dir, corpus):
        turns = merge_turns([(turn.speaker, turn.content) for turn in dialogue.turns])
        samples.append(
            Sample(
                id=dialogue.id,
                input=dialogue.situation or turns[0]["text"],
                metadata={
                    "situation": dialogue.situation,
                    "turns": turns,
                    "emotion_type": dialogue.emotion_type,
                    "problem_type": dialogue.problem_type,
                    "language": "en",
                },
            )
        )
    return MemoryDataset(samples, name=f"esconv_{corpus}" if source == "benchmark" else "esconv_starter")


def cpsycoune_dataset(source: str, data_dir: str | None) -> MemoryDataset:
    """One sample per CPsyCounE dialogue; turns (role client/counselor) in the metadata."""
    _check_source(source)
    if source == "benchmark":
        dialogues = cpsycoune.load_cpsycoune(data_dir)
    else:
        dialogues = [read_starter("cpsycoune", lambda p: cpsycoune.parse_dialogue(p, "starter-Education_1"))]
    samples = []
    for dialogue in dialogues:
        turns = merge_turns([(turn.role, turn.text) for turn in dialogue.turns])
        samples.append(
            Sample(
                id=dialogue.id,
                input=turns[0]["text"],
                metadata={"turns": turns, "topic": dialogue.topic, "language": "zh"},
            )
        )
    return MemoryDataset(samples, name="cpsycoune" if source == "benchmark" else "cpsycoune_starter")
