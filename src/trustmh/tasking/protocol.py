"""One declaration per benchmark-mode task of how it follows upstream, and where it does not.

Each task's package declares its :class:`TaskProtocol` in a ``protocol.py`` that its task
module imports, so a task that is imported has its declaration registered (``trustmh tasks
--protocol`` and ``trustmh reproduce`` import every task through :mod:`trustmh._registry`). The declaration is the single source read by ``trustmh tasks --protocol TASK``,
written into the log (task metadata ``"protocol"``), shown in the report beside the number and
used by ``trustmh reproduce`` to explain a difference from a published figure.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(frozen=True)
class Deviation:
    """One way benchmark mode differs from upstream: what, why, and its known effect."""

    what: str
    why: str
    effect: str
    # Metric names (as ``trustmh reproduce`` and the log name them) whose difference from the
    # published figure this deviation explains; empty when it explains none.
    metrics: tuple[str, ...] = ()


@dataclass(frozen=True)
class TaskProtocol:
    """How a task's benchmark mode relates to its upstream protocol."""

    task: str
    upstream: tuple[str, ...]  # UpstreamFile keys followed in benchmark mode
    verbatim: tuple[str, ...]  # what is byte-identical to upstream (each claim has a test)
    deviations: tuple[Deviation, ...]
    label: str | None = None  # e.g. "MindEval-style (trustmh protocol)"
    # Named parser variants (``-T parser=...``) and what each does; empty when the task has one.
    parsers: dict[str, str] = field(default_factory=dict)

    def as_metadata(self) -> dict[str, Any]:
        """A JSON-ready dict for the log's task metadata ``"protocol"``."""
        data = asdict(self)
        data["upstream"] = list(self.upstream)
        data["verbatim"] = list(self.verbatim)
        data["deviations"] = [{**asdict(d), "metrics": list(d.metrics)} for d in self.deviations]
        return data

    def explains(self, metric: str) -> Deviation | None:
        """The deviation declared to explain a difference in ``metric`` (``trustmh reproduce``)."""
        return next((d for d in self.deviations if metric in d.metrics), None)


_PROTOCOLS: dict[str, TaskProtocol] = {}


def declare_protocol(protocol: TaskProtocol) -> TaskProtocol:
    """Register a task's protocol (one per task; redeclaring the same task replaces it)."""
    _PROTOCOLS[protocol.task] = protocol
    return protocol


def protocol_of(task: str) -> TaskProtocol | None:
    """The declared protocol of ``task`` (its registry name, with or without ``trustmh/``)."""
    return _PROTOCOLS.get(task.removeprefix("trustmh/"))


def all_protocols() -> list[TaskProtocol]:
    return [_PROTOCOLS[name] for name in sorted(_PROTOCOLS)]
