"""Conversation tasks in the report: per-turn trajectories and transcripts coloured by verdict.

For every conversation task (``conversation`` in the task's metadata) the report shows, per
judged score, the mean by turn with a 95% CI, one line per model; clicking a point opens the
transcripts behind it (``#conv-<task>--<model>``), each turn coloured by its verdicts. Verdicts
come from the score metadata the conversation scorers write (``turns``; ``checkpoints`` for
MindEval). Transcripts are left out of a redacted report; the trajectories stay.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from markupsafe import Markup

from trustmh.stats import mean_estimate

if TYPE_CHECKING:  # plotly is imported when figures are drawn, not when logs are collected
    import plotly.graph_objects as go

# Direction of each per-turn field: +1 higher is better, -1 higher is worse (for colouring).
DIRECTION = {
    "dcs": -1,
    "hes": -1,
    "sis": 1,
    "names_risk": 1,
    "high_harm": -1,
    "objective_reached": -1,
    "overall": 1,
}
STRING_VERDICTS = {"refused": 1, "partially complied": 0, "complied": -1}
SKIPPED_KEYS = {"turn", "unparsed", "attempts", "checkpoint"}
MAX_TRANSCRIPTS = 50


@dataclass
class ConversationData:
    """Per-turn verdict values of one (task, model) and, unless redacted, its transcripts."""

    values: dict[str, dict[int, list[float]]] = field(default_factory=dict)
    transcripts: list[str] = field(default_factory=list)


def is_conversation_log(metadata: dict[str, Any] | None) -> bool:
    return bool((metadata or {}).get("conversation"))


def _rows(sample: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for score in (sample.scores or {}).values():
        metadata = score.metadata or {}
        rows += [r for r in metadata.get("turns", []) if isinstance(r, dict)]
        rows += [r for r in metadata.get("checkpoints", []) if isinstance(r, dict)]
    return rows


def _numeric(key: str, value: Any) -> float | None:
    if key in SKIPPED_KEYS or key.endswith(("_attempts", "_error")):
        return None
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (int, float)):
        return float(value)
    return None


def add_sample(data: ConversationData, sample: Any, redact: bool) -> None:
    """Fold one conversation sample into ``data``."""
    rows = _rows(sample)
    for row in rows:
        turn = row.get("turn")
        if not isinstance(turn, int):
            continue
        for key, value in row.items():
            number = _numeric(key, value)
            if number is not None:
                data.values.setdefault(key, {}).setdefault(turn, []).append(number)
    if not redact and len(data.transcripts) < MAX_TRANSCRIPTS:
        data.transcripts.append(_transcript(sample, {r["turn"]: r for r in rows if isinstance(r.get("turn"), int)}))


def _tone(row: dict[str, Any] | None) -> str:
    """bad / mixed / good / none for a turn's verdicts."""
    if not row:
        return "none"
    signs = []
    for key, value in row.items():
        if key in DIRECTION and isinstance(value, (int, float)) and not isinstance(value, bool):
            signs.append(DIRECTION[key] * (1 if value > 0 else -1) if key != "overall" else (1 if value >= 4 else -1))
        elif isinstance(value, str) and value in STRING_VERDICTS:
            signs.append(STRING_VERDICTS[value])
    if row.get("unparsed"):
        return "mixed"
    if not signs:
        return "none"
    return "bad" if min(signs) < 0 else ("mixed" if min(signs) == 0 else "good")


_COLOURS = {"bad": "#f8d7d3", "mixed": "#fbecc5", "good": "#d9efd6", "none": "transparent"}


def _transcript(sample: Any, rows: dict[int, dict[str, Any]]) -> str:
    record = (sample.store or {}).get("trustmh_conversation") or {}
    parts = [f"<details class='conversation'><summary><code>{html.escape(str(sample.id))}</code>"]
    parts.append(f" · {len(record.get('turns', []))} turns · {html.escape(str(record.get('ended_by')))}</summary>")
    for turn in record.get("turns", []):
        number = turn.get("number")
        row = rows.get(number)
        verdicts = ", ".join(
            f"{html.escape(str(k))}={html.escape(str(v))}"
            for k, v in (row or {}).items()
            if k not in SKIPPED_KEYS and not str(k).endswith(("_attempts", "_error"))
        )
        parts.append(
            f"<div class='turn'><p><strong>{number} · user</strong> {html.escape(str(turn.get('user', '')))}</p>"
            f"<p style='background:{_COLOURS[_tone(row)]}'><strong>{number} · assistant</strong> "
            f"{html.escape(str(turn.get('assistant', '')))}"
            + (f"<br><code>{verdicts}</code>" if verdicts else "")
            + "</p></div>"
        )
    parts.append("</details>")
    return "".join(parts)


def transcripts_html(key: str, data: ConversationData | None) -> Markup:
    """The transcripts block of one (task, model): the drill-down target of its trajectory points."""
    if data is None or not data.transcripts:
        return Markup("")
    body = "".join(data.transcripts)
    return Markup(
        f"<details class='samples' id='conv-{html.escape(key)}'><summary>Conversations, turns coloured by "
        f"verdict (red: a harmful or failing verdict; amber: mixed or unparsed; green: good)</summary>{body}</details>"
    )


def trajectory_figures(results: Iterable[Any]) -> list[tuple[str, go.Figure]]:
    """One figure per (task, score): mean by turn with 95% CI, one line per model."""
    import plotly.graph_objects as go

    by_task: dict[str, list[Any]] = {}
    for result in results:
        if getattr(result, "conversation", None) is not None and result.conversation.values:
            by_task.setdefault(result.task, []).append(result)
    figures = []
    for task, task_results in sorted(by_task.items()):
        names = sorted({name for r in task_results for name in r.conversation.values})
        for name in names:
            figure = go.Figure()
            for result in task_results:
                series = result.conversation.values.get(name, {})
                turns = sorted(series)
                estimates = [mean_estimate(series[t]) for t in turns]
                figure.add_trace(
                    go.Scatter(
                        x=turns,
                        y=[e.value for e in estimates],
                        error_y={
                            "type": "data",
                            "symmetric": False,
                            "array": [e.ci_high - e.value for e in estimates],
                            "arrayminus": [e.value - e.ci_low for e in estimates],
                        },
                        mode="lines+markers",
                        name=result.model,
                        customdata=[f"conv-{result.key}"] * len(turns),
                        hovertemplate="turn %{x}: %{y:.2f}<br>n=%{text}<extra>%{fullData.name}</extra>",
                        text=[e.n for e in estimates],
                    )
                )
            figure.update_layout(
                title=f"{task}: {name} by turn (mean, 95% CI; click a point for the transcripts)",
                xaxis_title="turn",
                yaxis_title=name,
                height=340,
            )
            figures.append((f"{task}-{name}-trajectory", figure))
    return figures
