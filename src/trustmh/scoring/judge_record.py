"""What the judges did for one scored sample, kept in the score's metadata.

Every trustmh scorer (:func:`~trustmh.scoring.unparsed.trustmh_scorer`) opens a
:class:`JudgementLog` before it runs; every panel judgement made while it scores
(:func:`trustmh.scoring.panel.judge_panel`) is written into it, and the scorer's ``Score``
leaves with two metadata keys when anything was judged:

* ``judge_fingerprint`` — what produced the verdicts, so results judged differently are never
  merged unawares: ``{"judges": [models], "rubrics": {rubric: sha256[:12] of its instructions,
  labels and schema}, "temperature", "prompt_version", "repeats", "self_family": [judges of
  the model's own family], "excluded_self": [those left out by --exclude-self]}``.
  This is *the* place trustmh records the fingerprint (score metadata, per sample, so it is
  there under plain ``inspect eval`` and a resumed run with another judge shows as mixed).
* ``judge_panel`` — per judgement, each judge's own verdict (ratings only), their repeats, the
  fields left undecided and the answer's length in words; ``fields`` gives each rubric field's
  kind (``scale`` or ``vote``), ``scales`` the values it takes (``{"low", "high"}`` or
  ``{"choices"}``: ``trustmh judge-check`` refuses human labels off them). The probe metrics
  (:mod:`trustmh.scoring.judge_probes`) read it.
"""

from __future__ import annotations

import hashlib
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from trustmh.scoring.rubric import JUDGE_TEMPERATURE, PanelResult, Rubric, is_vote

# Bump when judge_prompt()'s wording or the re-ask protocol changes: verdicts are then not comparable.
JUDGE_PROMPT_VERSION = 3  # 2: planted ratings redacted from the judged text; 3: found after normalising it
FINGERPRINT_KEY = "judge_fingerprint"
# What makes two judgements comparable (self_family / excluded_self depend on the model under test).
FINGERPRINT_FIELDS = ("judges", "rubrics", "temperature", "prompt_version")
PANEL_KEY = "judge_panel"
# 1 when some judged text of the sample held a suspected planted rating (read masked by the judge), else 0.
SUSPECTED_PLANT_KEY = "suspected_plant"

_CURRENT: ContextVar[JudgementLog | None] = ContextVar("trustmh_judgement_log", default=None)


def rubric_hash(rubric: Rubric) -> str:
    """sha256 (first 12 hex digits) of everything in a rubric that shapes the judge's prompt
    (its ``template`` instead of the instructions when they are filled per item)."""
    instructions = rubric.template or rubric.instructions
    parts = [instructions, rubric.context_label, rubric.response_label, rubric.schema_text()]
    if rubric.verbatim is not None:  # upstream's template and how its reply is read shape the verdict
        parts = [rubric.verbatim.template, rubric.verbatim.parser, rubric.schema_text()]
    text = "\x00".join(parts)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _kind(rubric: Rubric) -> dict[str, str]:
    return {f.name: ("vote" if is_vote(f) else "scale") for f in rubric.fields}


@dataclass
class JudgementLog:
    """The judgements made while one sample was scored (see the module docstring)."""

    model: str | None  # the model under test
    judges: list[str] = field(default_factory=list)
    self_family: list[str] = field(default_factory=list)
    excluded_self: list[str] = field(default_factory=list)
    rubrics: dict[str, str] = field(default_factory=dict)
    fields: dict[str, dict[str, str]] = field(default_factory=dict)
    scales: dict[str, dict[str, dict[str, object]]] = field(default_factory=dict)  # rubric -> field -> values
    judgements: list[dict[str, Any]] = field(default_factory=list)
    repeats: int = 0
    # rubric -> upstream protocol settings, for rubrics judged verbatim (scoring/verbatim.py); their
    # temperature is upstream's, not the fingerprint's "temperature" (trustmh's own judge).
    verbatim: dict[str, dict[str, object]] = field(default_factory=dict)
    suspected_plant: bool = False  # some judged text held a suspected planted rating (scoring/planted.py)

    def note_panel(self, judges: list[str], self_family: list[str]) -> None:
        self.judges = judges
        self.self_family = self_family

    def record(
        self, rubric: Rubric, prefix: str, response: str, result: PanelResult, repeats: int, suspected: bool = False
    ) -> None:
        self.repeats = repeats
        self.suspected_plant = self.suspected_plant or suspected
        self.judges = result.judges
        self.rubrics[rubric.name] = rubric_hash(rubric)
        self.fields[rubric.name] = _kind(rubric)
        self.scales[rubric.name] = {f.name: values for f in rubric.fields if (values := f.values()) is not None}
        if rubric.verbatim is not None:
            self.verbatim[rubric.name] = rubric.verbatim.describe()
        entry: dict[str, Any] = {
            "rubric": rubric.name,
            "prefix": prefix,
            "words": len(response.split()),
            "verdicts": [r.verdict for r in result.per_judge],
        }
        if repeats:
            entry["repeats"] = [[r.verdict for r in again] for again in result.repeats]
        if result.undecided:
            entry["undecided"] = result.undecided
        if suspected:
            entry[SUSPECTED_PLANT_KEY] = 1
        self.judgements.append(entry)

    def fingerprint(self, temperature: float) -> dict[str, Any]:
        printed: dict[str, Any] = {
            "judges": self.judges,
            "rubrics": dict(sorted(self.rubrics.items())),
            "temperature": temperature,
            "prompt_version": JUDGE_PROMPT_VERSION,
            "repeats": self.repeats,
            "self_family": self.self_family,
            "excluded_self": self.excluded_self,
        }
        if self.verbatim:
            printed["verbatim"] = dict(sorted(self.verbatim.items()))
        return printed

    def metadata(self) -> dict[str, Any]:
        """The score-metadata keys, or nothing when no judge was asked or left out; ``suspected_plant``
        (0/1) only when some judge was asked."""
        if not self.judgements and not self.excluded_self:
            return {}
        recorded: dict[str, Any] = {
            FINGERPRINT_KEY: self.fingerprint(JUDGE_TEMPERATURE),
            PANEL_KEY: {"fields": self.fields, "scales": self.scales, "judgements": self.judgements},
        }
        if self.judgements:
            recorded[SUSPECTED_PLANT_KEY] = int(self.suspected_plant)
        return recorded


def current_log() -> JudgementLog | None:
    """The log of the sample being scored (``None`` outside a trustmh scorer)."""
    return _CURRENT.get()


def open_log(model: str | None) -> tuple[JudgementLog, Any]:
    """Start recording for one sample; pass the token to :func:`close_log` when it is scored."""
    log = JudgementLog(model=model)
    return log, _CURRENT.set(log)


def close_log(token: Any) -> None:
    _CURRENT.reset(token)
