"""What ``trustmh report`` shows of a detector pass's Parquet output (``trustmh audit EXPORT/``).

Read in Arrow, a batch of rows at a time (memory does not grow with the number of conversations):

* the totals and each check's rate with its Wilson 95% CI (:func:`.pass_summary.summarise_pass`);
* per language, how many conversations and which checks read it: a language no check reads is
  shown as **not covered**, never as "no risk";
* the :data:`WORST_SHOWN` conversations of highest severity, by id only, each id de-identified
  (:func:`trustmh.deid.masked`: an export's ids can hold e-mails or phone numbers), with the first
  characters of the row's ``content_hash`` to find it again in the Parquet output;
* the rates (and population estimates) as rows of the report's tidy results table;
* when the sampled judge pass ran (``--sample-judge``), its population estimates with their
  design-based 95% CIs (``audit-population-rates.json``) and the sample's strata.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from trustmh.audit.detect_pass import CONVERSATIONS_DIR, MANIFEST
from trustmh.audit.language import UNDETERMINED
from trustmh.audit.pass_summary import pass_batches, summarise_pass
from trustmh.audit.sample import JUDGED_LOGS, STRATA_FILE
from trustmh.audit.sampled_judge import POPULATION_RATES_FILE, corrected_line
from trustmh.audit.schema import CHECK_LANGUAGES, CHECKS
from trustmh.core.errors import UserError
from trustmh.deid import masked

WORST_SHOWN = 20
KEY_CHARS = 16


def detector_passes(targets: list[Path]) -> list[Path]:
    """The detector pass output folders at or under ``targets`` (a folder holding ``detect-pass.json``)."""
    found: list[Path] = []
    for target in targets:
        if target.is_dir():
            found += [m.parent for m in target.rglob(MANIFEST) if (m.parent / CONVERSATIONS_DIR).is_dir()]
    return sorted(set(found))


def judged_folders(passes: list[Path]) -> list[Path]:
    """Where each pass's judged sample logs are: their rates are over a stratified sample, not the export."""
    return [folder / JUDGED_LOGS for folder in passes]


def _worst(folder: Path, shown: int) -> tuple[list[dict[str, Any]], int]:
    """The ``shown`` rows of highest severity above 0 (ties by id), kept ``shown`` at a time, and
    how many rows have a severity above 0."""
    columns = ["conversation_id", "content_hash", "severity", *(f"{check}_turns" for check in CHECKS)]
    order = [("severity", "descending"), ("conversation_id", "ascending")]
    top: pa.Table | None = None
    count = 0
    for batch in pass_batches(folder, columns):
        flagged = pa.Table.from_batches([batch]).filter(pc.greater(batch.column("severity"), 0))
        count += flagged.num_rows
        merged = flagged if top is None else pa.concat_tables([top, flagged])
        top = merged.sort_by(order).slice(0, shown)
    return ([] if top is None else top.to_pylist()), count


def _languages(summary: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for code, count in summary["languages"].items():
        read = [check for check in ("risk", *CHECKS) if code in CHECK_LANGUAGES[check]]
        if read:
            coverage = "read by " + ", ".join(read)
        elif code == UNDETERMINED:
            coverage = "NOT COVERED (too little text to tell the language)"
        else:
            coverage = "NOT COVERED (no check reads it: no flag here is not 'no risk')"
        rows.append({"language": code, "conversations": count, "coverage": coverage, "covered": bool(read)})
    return rows


def _percent(value: float | None) -> str:
    return "—" if value is None or not math.isfinite(value) else f"{value:.2%}"


def _rate_rows(summary: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for check, rate in summary["rates"].items():
        low, high = rate["ci"] or (None, None)
        rows.append(
            {
                "check": check,
                "value": _percent(rate["rate"]) if rate["n"] else "no conversation it applies to",
                "ci": f"[{_percent(low)}, {_percent(high)}]" if rate["n"] else "",
                "flagged": rate["flagged"],
                "n": rate["n"],
                "languages": "/".join(rate["languages"]),
            }
        )
    return rows


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise UserError(f"{path}: unreadable ({type(error).__name__}); rerun the command that wrote it") from None


def population_view(folder: Path) -> dict[str, Any] | None:
    """The sampled judge pass's population estimates, or ``None`` when it has not run here."""
    path = folder / POPULATION_RATES_FILE
    if not path.exists():
        return None
    rates, strata = _read_json(path), _read_json(folder / STRATA_FILE) if (folder / STRATA_FILE).exists() else {}
    rows = []
    try:
        for field, rate in rates.items():
            estimable = isinstance(rate["rate"], int | float) and math.isfinite(rate["rate"])
            low, high = rate["ci"] if estimable else (None, None)
            rows.append(
                {
                    "field": str(field),
                    "label": str(rate["label"]),
                    "value": _percent(rate["rate"])
                    if estimable
                    else "not estimable (a stratum has no judged conversation)",
                    "ci": f"[{_percent(low)}, {_percent(high)}]" if estimable else "",
                    "judged": int(rate["judged"]),
                    "population": int(rate["population"]),
                    "unparsed": int(rate["unparsed"]),
                    "corrected": corrected_line(rate["corrected"]) if "corrected" in rate else "",
                }
            )
        design = [
            {"stratum": str(name), "sampled": int(d["sampled"]), "population": int(d["population"])}
            for name, d in sorted((strata.get("strata") or {}).items())
        ]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise UserError(f"{path}: not the population rates trustmh audit --sample-judge writes") from None
    corrected = any(row["corrected"] for row in rows)
    return {"rates": rows, "seed": strata.get("seed"), "strata": design, "corrected": corrected}


def _tidy(export: str, summary: dict[str, Any], folder: Path) -> list[dict[str, Any]]:
    """The pass's rates as rows of the report's tidy results table (``--csv``/``--json``)."""
    base = {
        "model": export,
        "pillar": "audit",
        "task": "audit-detector-pass",
        "unparsed": 0,
        "source": "detector-pass",
        "judge": "",
    }
    rows = []
    for check, rate in summary["rates"].items():
        low, high = rate["ci"] or (None, None)
        rows.append(
            {**base, "metric": f"{check}_rate", "value": rate["rate"], "ci_low": low, "ci_high": high, "n": rate["n"]}
        )
    path = folder / POPULATION_RATES_FILE
    for field, rate in (_read_json(path) if path.exists() else {}).items():
        # not estimable (a stratum without a judged conversation) is empty, never NaN in a JSON export
        estimable = isinstance(rate["rate"], int | float) and math.isfinite(rate["rate"])
        low, high = rate["ci"] if estimable else (None, None)
        rows.append(
            {
                **base,
                "task": "audit-sampled-judge",
                "metric": f"{field}_rate",
                "value": rate["rate"] if estimable else None,
                "ci_low": low,
                "ci_high": high,
                "n": rate["judged"],
                "unparsed": rate["unparsed"],
            }
        )
        corrected = rate.get("corrected") or {}
        if "rate" in corrected:  # corrected by clinician labels (two-phase PPI): n is the labels
            low, high = corrected["ci"]
            rows.append(
                {
                    **base,
                    "task": "audit-sampled-judge",
                    "metric": f"{field}_rate_corrected",
                    "value": corrected["rate"],
                    "ci_low": low,
                    "ci_high": high,
                    "n": corrected["labelled"],
                    "unparsed": corrected["labelled_unparsed"],
                }
            )
    return rows


def pass_view(folder: Path, shown: int = WORST_SHOWN) -> dict[str, Any]:
    """The report section of the detector pass in ``folder`` (see the module docstring)."""
    manifest = _read_json(folder / MANIFEST)
    summary = summarise_pass(folder)
    worst, severe = _worst(folder, shown)
    export = masked(Path(str(manifest.get("export") or "?")).name)
    return {
        "folder": masked(folder.name),
        "export": export,
        "where": masked(str(manifest.get("where") or "")),
        "detector_version": str(manifest.get("detector_version", "?")),
        "totals": {k: summary[k] for k in ("conversations", "covered", "not_covered", "unanswered", "flagged")},
        "rates": _rate_rows(summary),
        "languages": _languages(summary),
        "worst": [
            {
                "id": masked(str(row["conversation_id"])),
                # what finds the row again when de-identification masked the id (a digest: no text)
                "key": str(row["content_hash"])[:KEY_CHARS],
                "severity": f"{row['severity']:g}",
                "flags": ", ".join(f"{check} ×{row[f'{check}_turns']}" for check in CHECKS if row[f"{check}_turns"]),
            }
            for row in worst
        ],
        "severe": severe,
        "population": population_view(folder),
        "tidy": _tidy(export, summary, folder),
    }
