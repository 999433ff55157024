"""What a clinician labels, read from a judged run's inspect log: per sample the conversation, the
answer and the judge's verdict on each rubric field; per field the rubric's question and scale.

The fields are the rubric fields the judge returned (``prefix + name``, as judge-check names
them), with the wording and scale of the rubric the run's fingerprint names
(:mod:`trustmh.labels.rubrics`). Free-text fields are left out (nothing to score). Only the first
epoch is labelled (judge-check compares the first epoch's verdict). A sample that no judge was
asked about (no answer) is not in the population.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trustmh.core.errors import UserError
from trustmh.data.registry import sha256_of
from trustmh.judgecheck.ratings import Value
from trustmh.judgecheck.verdicts import from_log
from trustmh.labels.rubrics import run_rubric
from trustmh.scoring.judge_record import PANEL_KEY

ROLES = ("user", "assistant")


@dataclass(frozen=True)
class LabelField:
    """One judged field as the clinician sees it: the rubric's own question and scale."""

    name: str  # as judge-check names it: the verdict field (prefix + rubric field name)
    rubric: str
    question: str
    low: int = 1
    high: int = 5
    choices: tuple[str, ...] = ()

    @property
    def options(self) -> list[str]:
        """The answers a clinician may give, as text."""
        return list(self.choices) if self.choices else [str(v) for v in range(self.low, self.high + 1)]

    def to_json(self) -> dict[str, Any]:
        kind = {"choices": list(self.choices)} if self.choices else {"low": self.low, "high": self.high}
        return {"name": self.name, "rubric": self.rubric, "question": self.question, **kind}


@dataclass
class RunItem:
    sample_id: str
    conversation: list[dict[str, str]]  # earlier turns: {"role", "text"}
    answer: str
    judge: dict[str, Value | None]  # every judged value of the sample: rubric fields and score fields


@dataclass
class JudgedRun:
    path: str
    sha256: str
    task: str | None
    judge: str
    rubrics: dict[str, str]  # rubric name -> fingerprint hash
    fields: list[LabelField]
    items: list[RunItem] = field(default_factory=list)


def _panel_prefixes(scores: dict[str, Any]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for score in scores.values():
        panel = (score.metadata or {}).get(PANEL_KEY) or {}
        for judgement in panel.get("judgements") or []:
            found.setdefault(str(judgement.get("rubric")), set()).add(str(judgement.get("prefix") or ""))
    return found


def _conversation(sample: Any) -> tuple[list[dict[str, str]], str]:
    messages = [m for m in sample.messages or [] if m.role in ROLES]
    answer = sample.output.completion if sample.output else ""
    if messages and messages[-1].role == "assistant":
        answer = messages[-1].text
        messages = messages[:-1]
    return [{"role": m.role, "text": m.text} for m in messages], answer


def read_run(path: str | Path) -> JudgedRun:
    """The judged run of one inspect log (module docstring); a run without a judge is a UserError."""
    from trustmh.scoring.results import read_log

    verdicts = from_log(path)  # checks the log is finished and judged
    if len(verdicts.fingerprints) != 1:
        raise UserError(f"{path}: its samples were judged {len(verdicts.fingerprints)} ways; label one judge's run")
    rubrics: dict[str, str] = dict(verdicts.fingerprints[0].get("rubrics") or {})
    log = read_log(str(path), header_only=False)
    samples = [s for s in log.samples or [] if s.epoch == 1]
    prefixes: dict[str, set[str]] = {}
    for sample in samples:
        for name, found in _panel_prefixes(sample.scores or {}).items():
            prefixes.setdefault(name, set()).update(found)
    fields: list[LabelField] = []
    for name, digest in sorted(rubrics.items()):
        rubric = run_rubric(name, digest, str(path))
        for prefix in sorted(prefixes.get(name, {""})):
            for judge_field in rubric.fields:
                if judge_field.text:
                    continue
                fields.append(
                    LabelField(
                        prefix + judge_field.name,
                        name,
                        judge_field.description,
                        judge_field.low,
                        judge_field.high,
                        judge_field.choices,
                    )
                )
    names = [f.name for f in fields]
    by_sample: dict[str, dict[str, Value | None]] = {}
    for (sample_id, name), value in verdicts.values.items():
        by_sample.setdefault(sample_id, {})[name] = value
    items = []
    for sample in samples:
        judged = by_sample.get(str(sample.id), {})
        if not any(n in judged for n in names):
            continue
        conversation, answer = _conversation(sample)
        items.append(RunItem(str(sample.id), conversation, answer, judged))
    if not items:
        raise UserError(f"{path}: no sample has a verdict on the rubric fields ({', '.join(names) or 'none'})")
    return JudgedRun(str(path), sha256_of(Path(path)), verdicts.task, verdicts.judge, rubrics, fields, items)
