"""What a judge is asked and what it returns: the rubric (:class:`Rubric`, its
:class:`JudgeField` s) and the result of judging one response (:class:`JudgeResult`, and
:class:`PanelResult` for several judges).

Plain data, apart from the modules that ask judges (:mod:`trustmh.scoring.judge` for one,
:mod:`trustmh.scoring.panel` for the configured panel) and record them
(:mod:`trustmh.scoring.judge_record`), so each of those can import it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

JUDGE_ROLE = "judge"
# A verdict that passed the rubric's checks: field name -> integer or label.
Verdict = dict[str, int | str]

# Every judgement is asked greedily; recorded in each judged score's fingerprint (scoring/judge_record.py).
JUDGE_TEMPERATURE = 0.0


@dataclass(frozen=True)
class JudgeField:
    """One field of the verdict: an integer in ``[low, high]`` or one of ``choices``."""

    name: str
    description: str
    low: int = 1
    high: int = 5
    choices: tuple[str, ...] = ()
    text: bool = False  # a free-text answer (e.g. "who is related to X?")

    def validate(self, value: object) -> int | str:
        if self.text:
            if isinstance(value, str):
                return value.strip()
            raise ValueError(f'"{self.name}" must be a string')
        if self.choices:
            if isinstance(value, str) and value.strip().lower() in self.choices:
                return value.strip().lower()
            raise ValueError(f'"{self.name}" must be one of {", ".join(self.choices)}')
        if isinstance(value, bool) or not isinstance(value, (int, float, str)):
            raise ValueError(f'"{self.name}" must be an integer from {self.low} to {self.high}')
        try:
            number = float(value)
        except ValueError:
            raise ValueError(f'"{self.name}" must be an integer from {self.low} to {self.high}') from None
        if not number.is_integer() or not self.low <= number <= self.high:
            raise ValueError(f'"{self.name}" must be an integer from {self.low} to {self.high}')
        return int(number)

    def values(self) -> dict[str, object] | None:
        """What the field takes, as the log records it (``judge-check`` holds human labels to it):
        ``{"low": 0, "high": 2}`` or ``{"choices": [...]}``; ``None`` for free text."""
        if self.text:
            return None
        return {"choices": list(self.choices)} if self.choices else {"low": self.low, "high": self.high}

    def schema_line(self) -> str:
        if self.text:
            kind = "string"
        elif self.choices:
            kind = " | ".join(f'"{c}"' for c in self.choices)
        else:
            kind = f"integer {self.low}-{self.high}"
        return f'  "{self.name}": {kind}  // {self.description}'


@dataclass(frozen=True)
class Rubric:
    """What a judge rates and how: instructions plus the fields of its JSON verdict."""

    name: str
    instructions: str
    fields: tuple[JudgeField, ...]
    context_label: str = "Context"
    response_label: str = "Response under evaluation"
    extra_fields: tuple[str, ...] = field(default=("explanation",))
    # A rubric whose instructions are filled per item from the dataset (e.g. an item's own level
    # descriptions) names its fixed text here: the judge fingerprint hashes it instead, so every
    # item of a run shares one rubric hash (scoring/judge_record.py).
    template: str = ""
    # Benchmark mode of a published judge (scoring/verbatim.py): the context passed in is upstream's
    # complete prompt, sent as is and read by upstream's reply format; None: trustmh's own judge.
    verbatim: VerbatimProtocol | None = None

    @property
    def field_names(self) -> list[str]:
        return [f.name for f in self.fields]

    def schema_text(self) -> str:
        # Built once per rubric: every judge prompt ends with it (10,000 prompts in a bulk dry run).
        cached = self.__dict__.get("_schema_text")
        if cached is None:
            lines = [f.schema_line() for f in self.fields]
            lines += [f'  "{name}": string  // optional, one or two sentences' for name in self.extra_fields]
            cached = "{\n" + ",\n".join(lines) + "\n}"
            object.__setattr__(self, "_schema_text", cached)  # frozen: set the memo past __setattr__
        return cached


def is_vote(judge_field: JudgeField) -> bool:
    """Combined by strict majority (categories, yes/no, free text) rather than by the mean."""
    return bool(judge_field.choices) or judge_field.text or judge_field.high - judge_field.low == 1


@dataclass
class JudgeResult:
    """Outcome of judging one response; ``verdict`` is ``None`` when it stayed unparsed."""

    verdict: dict[str, int | str] | None
    attempts: int
    raw_replies: list[str]
    error: str | None = None

    def fields(self, rubric: Rubric, prefix: str = "") -> dict[str, float | str | None]:
        """Score-value fields: the verdict's values, or ``None`` for each when unparsed."""
        return {
            f"{prefix}{name}": (None if self.verdict is None else self.verdict[name]) for name in rubric.field_names
        }


@dataclass
class PanelResult(JudgeResult):
    """A :class:`JudgeResult` for the whole panel: ``verdict`` is the combined one."""

    judges: list[str] = field(default_factory=list)
    per_judge: list[JudgeResult] = field(default_factory=list)
    repeats: list[list[JudgeResult]] = field(default_factory=list)
    undecided: list[str] = field(default_factory=list)

    @property
    def judge_name(self) -> str:
        return ", ".join(self.judges)


# How a published judge's reply is read: (reply, rubric, judged texts) -> verdict, or VerdictError.
ReplyReader = Callable[[str, "Rubric", Sequence[str]], Verdict]


@dataclass(frozen=True)
class VerbatimProtocol:
    """How upstream judges: its template (for the log and fingerprint), settings and reply reader."""

    template: str  # upstream's prompt template, holes written as {name}
    origin: str  # "<upstream file>:<function>:<name>"
    read_reply: ReplyReader
    parser: str  # "corrected" or "upstream"
    temperature: float | None  # None: the provider's default (upstream sets none)
    max_tokens: int | None = None  # None: the provider's default
    max_attempts: int = 1  # upstream asks once
    # Further sampling settings upstream sends (e.g. ``(("top_p", 1.0),)``), as GenerateConfig fields.
    settings: tuple[tuple[str, float], ...] = ()
    # Builds upstream's prompt from (context, response) where the caller has those two only (the
    # MentalBench judge); None: the caller passes upstream's complete prompt as the context.
    build: Callable[[str, str], str] | None = None

    def prompt(self, context: str, response: str) -> str:
        return context if self.build is None else self.build(context, response)

    def describe(self) -> dict[str, object]:
        """What the log records about the protocol (the template itself goes in task metadata)."""
        return {
            "origin": self.origin,
            "parser": self.parser,
            "temperature": self.temperature,
            "max_tokens": self.max_tokens,
            "max_attempts": self.max_attempts,
            **dict(self.settings),
        }
