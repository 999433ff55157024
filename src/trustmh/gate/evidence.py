"""What the gate decides on: one model's finished logs, read as the report reads them.

The report's reader (:func:`trustmh.report.collect.collect`) gives the metric rows with n and
CIs, the headline item values and the judge-check corrections (``--judge-validation``). Before
that, the gated model's logs are checked: the gate never decides on a partial run. The newest
log of each of its tasks must have finished (status ``success``) with every sample scored;
otherwise it is no verdict (exit 2) with the fix. Other models' logs in the folder are left alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from inspect_ai.log import EvalLog, EvalSample

from trustmh.core.errors import UserError
from trustmh.report.collect import _created, log_paths
from trustmh.report.collect import collect as collect_logs
from trustmh.report.headline import folded_strict
from trustmh.report.judge_validation import annotate, load_validations
from trustmh.report.log_result import LogResult
from trustmh.run.summary import sample_errors
from trustmh.scoring.results import MetricRow, read_log


@dataclass
class Run:
    """One model's results in a log folder (the candidate, or the baseline)."""

    log_dir: str
    model: str
    results: dict[str, LogResult]  # task -> its latest successful log
    _samples: dict[str, list[EvalSample]] = field(default_factory=dict)

    def result(self, task: str, what: str) -> LogResult:
        """The task's log; a task the logs lack is no verdict (exit 2), naming what to run."""
        if task not in self.results:
            have = ", ".join(sorted(self.results)) or "none"
            raise UserError(
                f"{what}: the logs in {self.log_dir} have no task {task} for {self.model} "
                f"(they have: {have}); run it with `trustmh run {task}`, then gate again"
            )
        return self.results[task]

    def rows(self) -> list[MetricRow]:
        """Every metric row, a judged mean replaced by its PPI++ correction where judge-check gave one."""
        return [corrected_row(row, result) for result in self.results.values() for row in result.rows]

    def samples(self, task: str, what: str) -> list[EvalSample]:
        if task not in self._samples:
            self._samples[task] = list(read_log(self.result(task, what).path).samples or [])
        return self._samples[task]


def corrected_row(row: MetricRow, result: LogResult) -> MetricRow:
    """``row`` with the corrected mean and CI where the report shows a correction as the headline."""
    correction = result.judge_corrections.get(row.metric)
    if correction is None:
        return row
    return replace(row, value=correction.value, ci_low=correction.ci[0], ci_high=correction.ci[1], strict=None)


def cautious_row(row: MetricRow) -> MetricRow:
    """The row to decide on: its strict twin (unparsed answers counted wrong) where the scorer has one."""
    return folded_strict(row) or row


def is_corrected(row: MetricRow, result: LogResult) -> bool:
    return row.metric in result.judge_corrections


Newest = dict[tuple[str, str], tuple[str, EvalLog]]


def newest_logs(log_dir: Path) -> Newest:
    """``(task, model) -> (path, header)`` of the newest log of each, whatever its status."""
    newest: Newest = {}
    for path in log_paths(log_dir):
        header = read_log(path, header_only=True)
        key = (header.eval.task, header.eval.model)
        if key not in newest or _created(header) >= _created(newest[key][1]):
            newest[key] = (path, header)
    if not newest:
        raise UserError(f"no inspect logs found in {log_dir}")
    return newest


def check_finished(newest: Newest, model: str) -> None:
    """Exit 2 (a :class:`UserError` naming the log and the fix) unless the newest log of every
    task of ``model`` finished with every sample scored."""
    for path, header in [found for (_, name), found in newest.items() if name == model]:
        task = header.eval.task.removeprefix("trustmh/")
        if header.status != "success":
            raise UserError(
                f"{path}: {task} on {model} did not finish (status {header.status}); rerun the same "
                "`trustmh run` command to resume it, then gate again (the gate never decides on a partial run)"
            )
        total, errored, first = sample_errors(header)
        results = header.results
        if errored or (results is not None and results.completed_samples < results.total_samples):
            raise UserError(
                f"{path}: {errored} of {total} samples of {task} on {model} ended in an error "
                f"({first or 'not completed'}) and were never scored; fix the cause, delete this log and rerun "
                "the same `trustmh run` command (finished tasks are kept), then gate again"
            )


def _chosen_model(models: Iterable[str], wanted: str | None, log_dir: Path, option: str, prefer: str | None) -> str:
    found = sorted(set(models))
    if wanted is None and prefer in found:
        return str(prefer)
    if wanted is not None:
        if wanted not in found:
            raise UserError(f"{log_dir}: no logs of model {wanted} (found: {', '.join(found)})", argument=option)
        return wanted
    if len(found) > 1:
        raise UserError(f"{log_dir}: logs of {len(found)} models ({', '.join(found)}); choose one", argument=option)
    return found[0]


def load_run(
    log_dir: Path,
    model: str | None = None,
    judge_validation: Iterable[Path] = (),
    option: str = "model",
    prefer: str | None = None,
) -> Run:
    """The finished logs of one model under ``log_dir``: ``model``, else ``prefer`` when it has logs
    there (the baseline of the same model), else the only one (several: a one-line error naming ``option``)."""
    log_dir = Path(log_dir)
    validations = load_validations(judge_validation)
    newest = newest_logs(log_dir)
    chosen = _chosen_model((name for _, name in newest), model, log_dir, option, prefer)
    check_finished(newest, chosen)
    collection = collect_logs([log_dir], redact=True)
    mine = [r for r in collection.results if r.model == chosen]
    annotate(mine, validations)
    return Run(str(log_dir), chosen, {r.task: r for r in mine})
