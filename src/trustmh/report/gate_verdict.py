"""The release gate's verdict (``trustmh gate``): the type, its JSON, and nothing that decides it.

The gate (:mod:`trustmh.gate`) fills a :class:`Verdict`; every output is drawn from that one
object — the exit code, the JSON (``trustmh gate --json``), the JUnit XML, the Markdown summary,
the GitHub annotations, and the report's "Gate" section (``trustmh report --gate verdict.json``).
The type sits in the report, below the gate, so the report can read a verdict back without
importing the code that builds it (as :mod:`trustmh.report.log_result`).

Statuses: ``pass``; ``fail``; ``insufficient`` — too little evidence to decide, its own verdict:
exit 1 unless the policy says ``on_insufficient: pass``. A run the gate cannot read (errored or
unfinished samples, a bad policy, a metric the logs lack) is no verdict at all: exit 2.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_json

FORMAT = "trustmh-gate/1"
PASS, FAIL, INSUFFICIENT = "pass", "fail", "insufficient"
STATUSES = (PASS, FAIL, INSUFFICIENT)
KINDS = ("threshold", "critical", "regression")
LABELS = {PASS: "PASS", FAIL: "FAIL", INSUFFICIENT: "INSUFFICIENT EVIDENCE"}


@dataclass(frozen=True)
class Case:
    """One check of the policy: a threshold, a critical item, or a paired regression.

    ``value``/``ci``/``n`` are what was decided on (for a regression: candidate minus baseline,
    its paired 95% CI and the number of shared items); ``bound`` the end of the CI compared with
    ``threshold`` (the lower end for ``min``, the upper for ``max``). ``excerpt``: for a critical
    item that failed, the start and end of its input and answer.
    """

    kind: str
    name: str
    status: str
    message: str
    value: float | None = None
    ci: tuple[float, float] | None = None
    n: int | None = None
    threshold: float | None = None
    bound: float | None = None
    corrected: bool = False  # the CI is the PPI++ correction by human labels of a judged metric
    task: str = ""
    sample_id: str = ""
    excerpt: str = ""

    def as_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["ci"] = None if self.ci is None else list(self.ci)
        return out


@dataclass(frozen=True)
class Verdict:
    """The gate's decision over all its cases; ``exit_code`` is the command's (0 or 1)."""

    cases: list[Case]
    model: str
    log_dir: str
    policy: str
    on_insufficient: str = FAIL
    baseline: str | None = None
    baseline_model: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def status(self) -> str:
        statuses = {case.status for case in self.cases}
        if FAIL in statuses:
            return FAIL
        return INSUFFICIENT if INSUFFICIENT in statuses else PASS

    @property
    def passed(self) -> bool:
        return self.exit_code == 0

    @property
    def exit_code(self) -> int:
        status = self.status
        return 0 if status == PASS or (status == INSUFFICIENT and self.on_insufficient == PASS) else 1

    @property
    def label(self) -> str:
        if self.status == INSUFFICIENT and self.on_insufficient == PASS:
            return f"{LABELS[INSUFFICIENT]} (passed by the policy's on_insufficient: pass)"
        return LABELS[self.status]

    def counts(self) -> dict[str, int]:
        return {status: sum(case.status == status for case in self.cases) for status in STATUSES}

    def headline(self) -> str:
        """``FAIL: 2 of 7 checks failed, 1 insufficient evidence (openai/bot)``."""
        counts = self.counts()
        parts = [f"{counts[FAIL]} of {len(self.cases)} checks failed"]
        if counts[INSUFFICIENT]:
            parts.append(f"{counts[INSUFFICIENT]} with insufficient evidence")
        return f"{self.label}: {', '.join(parts)} ({self.model})"

    def as_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "verdict": self.status,
            "exit_code": self.exit_code,
            "model": self.model,
            "log_dir": self.log_dir,
            "policy": self.policy,
            "on_insufficient": self.on_insufficient,
            "baseline": self.baseline,
            "baseline_model": self.baseline_model,
            "counts": self.counts(),
            "notes": list(self.notes),
            "cases": [case.as_dict() for case in self.cases],
        }


def _number(value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TypeError(value)
    return float(value)


def _case(entry: Any) -> Case:
    if entry["kind"] not in KINDS or entry["status"] not in STATUSES:
        raise ValueError(entry)
    ci = entry.get("ci")
    n = entry.get("n")
    return Case(
        kind=str(entry["kind"]),
        name=str(entry["name"]),
        status=str(entry["status"]),
        message=str(entry["message"]),
        value=_number(entry.get("value")),
        ci=None if ci is None else (float(ci[0]), float(ci[1])),
        n=None if n is None else int(n),
        threshold=_number(entry.get("threshold")),
        bound=_number(entry.get("bound")),
        corrected=bool(entry.get("corrected", False)),
        task=str(entry.get("task") or ""),
        sample_id=str(entry.get("sample_id") or ""),
        excerpt=str(entry.get("excerpt") or ""),
    )


def load_verdict(path: Path) -> Verdict:
    """A verdict written by ``trustmh gate --json``; another file is a one-line error naming the field."""
    payload = read_json(Path(path))
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise DataFormatError(path, None, f"expected `trustmh gate --json` output (format {FORMAT})")
    cases = payload.get("cases")
    if not isinstance(cases, list):
        raise DataFormatError(path, "cases", "expected a list of checks")
    parsed = []
    for index, entry in enumerate(cases):
        try:
            parsed.append(_case(entry))
        except (KeyError, TypeError, ValueError, IndexError):
            raise DataFormatError(
                path, f"cases[{index}]", f"expected kind ({', '.join(KINDS)}), name, status, message"
            ) from None
    on_insufficient = payload.get("on_insufficient")
    return Verdict(
        cases=parsed,
        model=str(payload.get("model") or ""),
        log_dir=str(payload.get("log_dir") or ""),
        policy=str(payload.get("policy") or ""),
        on_insufficient=PASS if on_insufficient == PASS else FAIL,
        baseline=None if payload.get("baseline") is None else str(payload["baseline"]),
        baseline_model=None if payload.get("baseline_model") is None else str(payload["baseline_model"]),
        notes=[str(note) for note in payload.get("notes") or []],
    )
