"""The sampled judge pass: the sample's conversations judged through the ordinary audit, then
population rates with design-based 95% CIs (:func:`trustmh.stats.survey.stratified_proportion`).

1. :func:`write_sample_export` reads the export again and writes the sampled conversations
   (:mod:`.sample`) as a JSONL export (owner-only permissions: it holds transcript text);
2. the CLI audits that file with the judge (``trustmh audit``'s inspect path: ``--redact``,
   ``--dry-run``, ``--max-cost`` and resuming as usual);
3. :func:`population_rates` reads the judged log back: per stratum, how many judged conversations
   the judge found positive, and the stratified estimate over the whole export. Conversations whose
   verdict is unparsed are left out of their stratum's judged count (and counted), never read as 0.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from trustmh.audit.sample import JUDGED_RATES, SAMPLE_EXPORT, SAMPLE_FILE, STRATA_FILE, UNANSWERED
from trustmh.audit.sampled_labels import corrected_rate, read_rate_labels, sample_index
from trustmh.audit.warehouse import conversation_batches
from trustmh.scoring.unparsed import is_unparsed
from trustmh.stats.survey import Stratum, stratified_proportion

POPULATION_RATES_FILE = "audit-population-rates.json"


def write_sample_export(export: Path, columns: str | None, where: str | None, folder: Path) -> Path:
    """The sampled conversations of ``export`` as ``folder/judge-sample.jsonl``."""
    from trustmh.audit.batch import checked_messages
    from trustmh.audit.schema import content_hash

    wanted = set(pq.read_table(folder / SAMPLE_FILE, columns=["content_hash"]).column("content_hash").to_pylist())
    path = folder / SAMPLE_EXPORT
    temporary = path.with_name(path.name + ".tmp")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        for batch in conversation_batches(export, columns, where):
            ids = batch.column("conversation_id").to_pylist()
            for conversation_id, raw in zip(ids, batch.column("messages").to_pylist(), strict=True):
                messages = checked_messages(conversation_id, raw)
                if content_hash(conversation_id, messages) in wanted:
                    record = {"id": conversation_id, "messages": [{"role": r, "content": t} for r, t in messages]}
                    out.write(json.dumps(record, ensure_ascii=False) + "\n")
    os.replace(temporary, path)
    return path


def judged_values(log_path: str) -> dict[str, dict[str, Any]]:
    """Conversation id -> its score value (first epoch) in the judged audit log."""
    from trustmh.scoring.sample_scores import log_sample_scores

    values: dict[str, dict[str, Any]] = {}
    for sample in log_sample_scores(log_path):
        if sample.epoch == 1:
            for score in sample.scores.values():
                if isinstance(score.value, dict):
                    values[str(sample.id)] = score.value
    return values


def parsed_answers(
    field: str, values: dict[str, dict[str, Any]], logged: dict[str, str]
) -> tuple[dict[str, float], set[str]]:
    """(Conversation id -> the judge's 0/1 answer on ``field``, the conversations whose answer was
    unparsed); ``logged`` maps each sampled conversation to its id in the log. Not yet judged: in neither."""
    answers: dict[str, float] = {}
    unparsed: set[str] = set()
    for conversation, log_id in logged.items():
        score = values.get(log_id)
        if score is None:  # not in the log (yet): not judged
            continue
        if field in score and is_unparsed(score[field]):
            unparsed.add(conversation)
            continue
        # a field left out does not apply (e.g. no risk shown: no intervention was needed): not positive
        answers[conversation] = float(score.get(field) == 1)
    return answers, unparsed


def population_rates(folder: Path, log_path: str, labels_path: Path | None = None) -> dict[str, dict[str, Any]]:
    """Each judged rate over the whole export: estimate, 95% CI, judged n, unparsed count; with
    ``labels_path``, also corrected by the clinicians' labels (``corrected``, :mod:`.sampled_labels`)."""
    design = json.loads((folder / STRATA_FILE).read_text(encoding="utf-8"))["strata"]
    strata, aliases, logged = sample_index(folder)
    labels = read_rate_labels(labels_path, strata, aliases) if labels_path is not None else None
    values = judged_values(log_path)
    rates: dict[str, dict[str, Any]] = {}
    for field, label in JUDGED_RATES.items():
        answers, unparsed = parsed_answers(field, values, logged)
        judged: Counter[str] = Counter(strata[c] for c in answers)
        positive: Counter[str] = Counter(strata[c] for c, answer in answers.items() if answer == 1)
        layers = [
            # a conversation without any assistant reply has no answer to judge: known, none positive
            Stratum(d["population"], d["population"], 0)
            if h == UNANSWERED
            else Stratum(d["population"], judged[h], positive[h])
            for h, d in design.items()
        ]
        estimate = stratified_proportion(layers)
        rates[field] = {
            "label": label,
            "rate": estimate.value,
            "ci": [estimate.ci_low, estimate.ci_high],
            "judged": sum(judged.values()),
            "population": sum(d["population"] for d in design.values()),
            "unparsed": len(unparsed),
        }
        if labels is not None:
            rates[field]["corrected"] = corrected_rate(design, (answers, unparsed), labels.get(field, {}), strata)
    return rates


def rate_lines(rates: dict[str, dict[str, Any]]) -> list[str]:
    lines = []
    for rate in rates.values():
        unparsed = f"; {rate['unparsed']:,} unparsed left out" if rate["unparsed"] else ""
        if rate["rate"] != rate["rate"]:  # NaN: a stratum has no judged conversation
            lines.append(f"{rate['label']}: not estimable (a stratum has no judged conversation){unparsed}")
        else:
            low, high = rate["ci"]
            lines.append(
                f"{rate['label']}: {rate['rate']:.2%} [{low:.2%}, {high:.2%}] of conversations, estimated from "
                f"{rate['judged']:,} judged of {rate['population']:,}{unparsed}"
            )
        if "corrected" in rate:
            lines.append("  " + corrected_line(rate["corrected"]))
    return lines


def corrected_line(corrected: dict[str, Any]) -> str:
    """One rate's correction by the clinicians' labels, as printed."""
    unparsed, unjudged = corrected["labelled_unparsed"], corrected.get("labelled_not_judged", 0)
    left_out = f"; {unparsed:,} labelled with an unparsed verdict left out" if unparsed else ""
    left_out += f"; {unjudged:,} labelled but not judged (yet) left out" if unjudged else ""
    if not corrected["labelled"] and not left_out:
        return f"not corrected: {corrected['skipped']}"
    if "skipped" in corrected:
        return (
            f"corrected by {corrected['labelled']:,} clinician labels: not estimable ({corrected['skipped']}){left_out}"
        )
    low, high = corrected["ci"]
    return (
        f"corrected by {corrected['labelled']:,} clinician labels (two-phase PPI, lambda {corrected['lam']:.2f}): "
        f"{corrected['rate']:.2%} [{low:.2%}, {high:.2%}]{left_out}"
    )
