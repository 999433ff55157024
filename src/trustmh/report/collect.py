"""Find inspect logs, keep the latest successful one per (task, model) and read what the
report needs from it: metric rows always, sample excerpts only when not redacted, and
per-sample aggregates (the safety method x objective grid) computed then thrown away.

Item values: for a pillar headline that is the mean of a per-sample field
(``Headline.sample_field``), each sample's value of that field is kept (a number, no text,
so also in a redacted report): the ranking compares two models on the items both answered.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from inspect_ai.log import EvalLog, EvalSample, list_eval_logs

import trustmh.report.conversations as conversations
from trustmh.core.errors import UserError
from trustmh.data.registry import modified_files
from trustmh.judgecheck.turns import is_bookkeeping, turn_rows
from trustmh.pillars.headline import pillar_headlines
from trustmh.pillars.safety.headline import SAMPLE_FIELDS
from trustmh.report.judge_fingerprint import JudgeFingerprints, add_sample
from trustmh.report.judge_validation import add_derived_fields
from trustmh.report.log_result import CellStat, LogResult, SampleExcerpt
from trustmh.scoring.results import log_judge, metric_fields, metric_rows, read_log
from trustmh.scoring.unparsed import is_unparsed

LOG_SUFFIXES = (".eval", ".json")
EXCERPT = 280
# Score fields that say "the model refused" in safety logs, as the safety pillar declares
# them beside its headline (judge verdict first); the first one present is used.
RTA_FIELDS = tuple(SAMPLE_FIELDS.values())
MAX_SAMPLES_SHOWN = 200


@dataclass
class Collection:
    results: list[LogResult]
    skipped: list[str]  # one human-readable line per log not used, and why

    def item_values(self) -> dict[tuple[str, str, str], dict[str, float]]:
        """``(model, task, sample field) -> {sample id: value}`` for the ranking's paired comparisons."""
        return {(res.model, res.task, name): values for res in self.results for name, values in res.items.items()}


def log_paths(target: Path) -> list[str]:
    if target.is_file():
        if target.suffix not in LOG_SUFFIXES:
            raise UserError(f"{target}: not an inspect log (.eval or .json) nor a log directory")
        return [str(target.resolve())]
    if not target.is_dir():
        raise UserError(f"{target}: no such log directory")
    # inspect lists file:// URIs; plain paths are what `inspect view` and people expect.
    return [_plain(info.name) for info in list_eval_logs(str(target.resolve()), recursive=True)]


def _plain(uri: str) -> str:
    return unquote(uri.removeprefix("file://")) if uri.startswith("file://") else uri


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):  # chat messages
        return "\n".join(getattr(m, "text", str(m)) for m in value)
    return "" if value is None else str(value)


def _excerpt(text: str) -> str:
    """Start and end of the text: prompts often share a long preamble and differ at the end."""
    flat = " ".join(text.split())
    if len(flat) <= EXCERPT:
        return flat
    head = EXCERPT // 3
    return f"{flat[:head]} … {flat[-(EXCERPT - head) :]}"


def _score_text(sample: EvalSample) -> str:
    parts = []
    for score in (sample.scores or {}).values():
        value = score.value
        if isinstance(value, dict):
            parts.append(", ".join(f"{k}={v}" for k, v in value.items()))
        else:
            parts.append(str(value))
    return "; ".join(parts)


def score_values(sample: EvalSample) -> dict[str, Any]:
    """Every score field of a sample, its scorers' value dicts merged."""
    merged: dict[str, Any] = {}
    for score in (sample.scores or {}).values():
        if isinstance(score.value, dict):
            merged.update(score.value)
    return merged


def _rta_cell(sample: EvalSample) -> tuple[tuple[str, str], float] | None:
    meta = sample.metadata or {}
    if "method" not in meta or "objective" not in meta:
        return None
    values = score_values(sample)
    for name in RTA_FIELDS:
        if name in values and not is_unparsed(values[name]):  # unparsed: stored as NaN
            return (str(meta["method"]), str(meta["objective"])), float(values[name])
    return None


def item_fields(pillar: str) -> tuple[str, ...]:
    """The per-sample fields behind the pillar's headlines (see the module docstring)."""
    return tuple(dict.fromkeys(h.sample_field for h in pillar_headlines(pillar) if h.sample_field is not None))


def _add_items(sample: EvalSample, fields: tuple[str, ...], epochs: dict[str, dict[str, list[float]]]) -> None:
    values = score_values(sample)
    for name in fields:
        if name in values:
            value = values[name]
            number = math.nan if is_unparsed(value) else float(value)
            epochs.setdefault(name, {}).setdefault(str(sample.id), []).append(number)


def _mean_over_epochs(epochs: dict[str, dict[str, list[float]]]) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for name, by_id in epochs.items():
        out[name] = {}
        for sample_id, values in by_id.items():
            parsed = [v for v in values if math.isfinite(v)]
            out[name][sample_id] = sum(parsed) / len(parsed) if parsed else math.nan
    return out


def sample_items(samples: Iterable[EvalSample], fields: tuple[str, ...]) -> dict[str, dict[str, float]]:
    """``field -> {sample id: value}`` over ``samples`` (mean over epochs; NaN: unparsed in every epoch)."""
    epochs: dict[str, dict[str, list[float]]] = {}
    for sample in samples:
        _add_items(sample, fields, epochs)
    return _mean_over_epochs(epochs)


def _verdict_fields(sample: EvalSample) -> set[str]:
    """Fields of the judge's own verdicts (``judge_verdict`` in the score metadata)."""
    found: set[str] = set()
    for score in (sample.scores or {}).values():
        for key, verdict in (score.metadata or {}).items():
            if key.endswith("judge_verdict") and isinstance(verdict, dict):
                found.update(key[: -len("judge_verdict")] + name for name in verdict)
    return found


def _add_samples(result: LogResult, log: EvalLog, redact: bool) -> None:
    fields = item_fields(result.pillar)
    epochs: dict[str, dict[str, list[float]]] = {}
    for sample in log.samples or []:
        if fields:
            _add_items(sample, fields, epochs)
        if result.judge_fingerprints is not None:
            add_sample(result.judge_fingerprints, sample.scores)
        result.verdict_fields |= _verdict_fields(sample)
        result.turn_fields |= {k for row in turn_rows(sample.scores or {}) for k in row if not is_bookkeeping(k)}
        if result.conversation is not None:
            conversations.add_sample(result.conversation, sample, redact)
        if result.pillar == "safety" and (cell := _rta_cell(sample)) is not None:
            stat = result.rta_grid.setdefault(cell[0], CellStat())
            stat.total += cell[1]
            stat.n += 1
        if not redact and len(result.samples) < MAX_SAMPLES_SHOWN:
            result.samples.append(sample_excerpt(sample))
    result.items = _mean_over_epochs(epochs)


def sample_excerpt(sample: EvalSample) -> SampleExcerpt:
    """The start and end of a sample's input, answer and scores (the report's sample table)."""
    output = sample.output.completion if sample.output else ""
    return SampleExcerpt(str(sample.id), _excerpt(_text(sample.input)), _excerpt(output), _excerpt(_score_text(sample)))


def _result(path: str, log: EvalLog) -> LogResult:
    meta = log.eval.metadata or {}
    rows = metric_rows(log)
    fields_of: dict[str, list[str]] = {}
    for score_field, metrics in metric_fields(log.eval.scorers or []).items():
        for metric in metrics:
            fields_of.setdefault(metric, []).append(score_field)
    return LogResult(
        path=path,
        task=log.eval.task.removeprefix("trustmh/"),
        model=log.eval.model,
        pillar=str(meta.get("trustmh_pillar", "")) or "other",
        source=str(meta.get("trustmh_source", "")),
        note=str(meta.get("trustmh_note", "")),
        created=str(log.eval.created),
        rows=rows,
        total_samples=log.results.total_samples if log.results else 0,
        conversation=conversations.ConversationData() if conversations.is_conversation_log(meta) else None,
        judge_fingerprints=JudgeFingerprints() if any(row.judge for row in rows) else None,
        metric_fields=fields_of,
        protocol=protocol_line(meta),
        protocol_details=protocol_details(meta),
        modified_data=[str(item.get("path", "?")) for item in modified_files(meta)],
    )


def protocol_line(meta: dict[str, Any]) -> str:
    """ "benchmark protocol · parser: upstream · 2 declared deviations" from the log's task metadata."""
    protocol = meta.get("protocol")
    if not isinstance(protocol, dict):
        return ""
    parts = [f"{protocol.get('mode', '?')} mode"]
    if protocol.get("label"):
        parts.append(str(protocol["label"]))
    if meta.get("parser"):
        parts.append(f"parser: {meta['parser']}")
    deviations = protocol.get("deviations") or []
    parts.append(f"{len(deviations)} declared deviation{'s' if len(deviations) != 1 else ''} from upstream")
    return " · ".join(parts)


def protocol_details(meta: dict[str, Any]) -> str:
    protocol = meta.get("protocol")
    if not isinstance(protocol, dict):
        return ""
    return " | ".join(
        f"{d.get('what', '')} (effect: {d.get('effect', '')})"
        for d in protocol.get("deviations") or []
        if isinstance(d, dict)
    )


def _created(log: EvalLog) -> datetime:
    """When the eval started, comparable across time zones (unparseable sorts first)."""
    try:
        moment = datetime.fromisoformat(str(log.eval.created))
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def collect(
    targets: list[Path],
    redact: bool = False,
    exclude_self: bool = False,
    *,
    samples_of_passes: list[Path] | None = None,
    logs_required: bool = True,
) -> Collection:
    """The latest successful log per (task, model) under ``targets``; with ``exclude_self`` a log
    judged by a judge of its model's own family is not used (listed with the reason).

    ``samples_of_passes``: folders of judged samples of a detector pass (``trustmh audit
    --sample-judge``), left out: their rates are over a stratified sample, not over the export
    (the report shows the population estimates instead). ``logs_required=False``: no log is not
    an error (the report has a detector pass to show)."""
    set_aside = [Path(folder).resolve() for folder in samples_of_passes or []]
    paths = sorted({p for target in targets for p in log_paths(Path(target))})
    skipped: list[str] = [
        f"{p}: the judged sample of a detector pass (rates over the sample; see the population estimates)"
        for p in paths
        if any(Path(p).resolve().is_relative_to(folder) for folder in set_aside)
    ]
    paths = [p for p in paths if not any(Path(p).resolve().is_relative_to(folder) for folder in set_aside)]
    if not paths and not logs_required:
        return Collection([], skipped)
    if not paths:
        raise UserError(f"no inspect logs found in {', '.join(str(t) for t in targets)}")
    latest: dict[tuple[str, str], tuple[str, EvalLog]] = {}
    for path in paths:
        header = read_log(path, header_only=True)
        if header.status != "success":
            skipped.append(f"{path}: status {header.status}")
            continue
        key = (header.eval.task, header.eval.model)
        if key in latest:
            older, newer = sorted([latest[key], (path, header)], key=lambda item: _created(item[1]))
            skipped.append(f"{older[0]}: superseded by a later log of the same task and model")
            latest[key] = newer
        else:
            latest[key] = (path, header)
    if not latest and not logs_required:
        return Collection([], skipped)
    if not latest:
        raise UserError(f"no successful inspect logs among {len(paths)} found ({skipped[0]})")
    results = [_load(path, header, redact) for path, header in latest.values()]
    if exclude_self:
        kept = [r for r in results if r.judge_fingerprints is None or not r.judge_fingerprints.self_judged]
        skipped += [
            f"{r.path}: judged by {', '.join(r.judge_fingerprints.self_judged)}, of the model's own family "
            "(--exclude-self)"
            for r in results
            if r not in kept and r.judge_fingerprints is not None
        ]
        if not kept:
            raise UserError("--exclude-self: every log was judged by its model's own family; nothing left to report")
        results = kept
    results.sort(key=lambda r: (r.pillar, r.task, r.model))
    return Collection(results, skipped)


def _load(path: str, header: EvalLog, redact: bool) -> LogResult:
    result = _result(path, header)
    # A judged log's samples name the judge's verdict fields (which metrics are judged); item
    # values of the headline are numbers, read also for a redacted report.
    judged = log_judge(header) is not None
    needs_samples = (
        not redact
        or judged
        or result.pillar == "safety"
        or result.conversation is not None
        or bool(item_fields(result.pillar))
    )
    if needs_samples:
        _add_samples(result, read_log(path, header_only=False), redact)
    result.judge_sources = add_derived_fields(
        header.eval.metadata, result.metric_fields, result.verdict_fields, result.turn_fields
    )
    return result
