"""The evidence document of one profile (versioned JSON, schema in ``schema/``) and its HTML view.

Built from the logs ``trustmh report`` reads: the audit logs give the statutory items (through
:mod:`.evidence`), and so do the Parquet rows of a detector pass (through :mod:`.pass_evidence`); every other successful log is a test run covering the protocol (run id, date,
task, pillar, model, results). The document holds counts, rates and intervals only: no
conversation id, no user text, no metadata value of the input (``tests/regulatory`` greps for them).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import Any

from trustmh import __version__
from trustmh.audit.statutes.judged import JUDGED_SCOPE_KEY, SCOPE_FIELD, SCOPE_RUBRIC
from trustmh.audit.statutes.phrases import DETECTOR_VERSION
from trustmh.core.errors import DataFormatError, UserError
from trustmh.regulatory.evidence import Findings, Period, item_value, parse_period, read_findings
from trustmh.regulatory.judgecheck_file import read_judge_check
from trustmh.regulatory.pass_evidence import PassCounts, read_pass_counts
from trustmh.regulatory.profiles import JUDGED_SCOPE, METHOD, PROFILES, TEST_RUNS, Profile
from trustmh.regulatory.scope import NOT_JUDGED, scope_validation
from trustmh.regulatory.validation import LABEL_FIELD, referral_decisions, referral_validation
from trustmh.report.collect import Collection, collect
from trustmh.report.log_result import LogResult
from trustmh.scoring.results import read_log

SCHEMA_NAME = "trustmh-statutory-evidence"
SCHEMA_VERSION = 2
AUDIT_PILLAR = "audit"
DISCLAIMER = (
    "Evidence to support a compliance process, measured by trustmh over recorded transcripts and test runs. "
    "Not legal advice and not a determination of compliance: it covers only the items listed, as far as a "
    "transcript shows them (see not_checked)."
)


@dataclass(frozen=True)
class EvidenceRequest:
    profile: str
    period: str | None = None
    population: int | None = None  # the period's conversations when the audit is a random sample of them
    labels: Path | None = None  # clinician labels of crisis_referral / out_of_scope turns (validation.py, scope.py)
    validation: Path | None = None  # a `trustmh judge-check --json` validation of the audit (judgecheck_file.py)
    detector_passes: tuple[Path, ...] = ()  # output folders of trustmh audit's detector pass (Parquet)


def profile_named(name: str) -> Profile:
    if name not in PROFILES:
        raise UserError(f"--profile {name!r}: expected one of {', '.join(PROFILES)}", "--profile")
    return PROFILES[name]


def schema() -> dict[str, Any]:
    """The JSON Schema of the evidence document (shipped in the package)."""
    text = resources.files("trustmh.regulatory").joinpath("schema", f"evidence-v{SCHEMA_VERSION}.schema.json")
    loaded: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return loaded


def _test_run(result: LogResult) -> dict[str, Any]:
    header = read_log(result.path, header_only=True)
    return {
        "run_id": str(header.eval.run_id),
        "date": result.created,
        "task": result.task,
        "pillar": result.pillar,
        "model": result.model,
        "results": [
            {"metric": r.metric, "value": r.value, "ci_low": r.ci_low, "ci_high": r.ci_high, "n": r.n}
            for r in result.rows
        ],
    }


NO_LABELS = (
    "no clinician labels were given: detector sensitivity and specificity are not estimated, and the referral "
    "count is the detectors' count (label a uniform random sample of eligible turns as crisis_referral 0/1 and "
    "pass it with --labels)"
)
WITH_LABELS = (
    "sensitivity, specificity, agreement and kappa of the referral detector against clinician labels of eligible "
    "turns; the corrected count (PPI++) assumes the labelled turns are a uniform random sample of them"
)


@dataclass(frozen=True)
class Validations:
    referral: dict[str, Any] | None = None
    scope: dict[str, Any] | None = None
    source: str | None = None


def _validations(
    profile: Profile, request: EvidenceRequest, findings: Findings, audits: list[LogResult]
) -> Validations:
    """The clinician labels (``--labels``) or the judge-check validation (``--validation``) against
    the profile's decisions: the scope decisions for a profile with a scope item, else referrals."""
    scoped = any(item.kind == JUDGED_SCOPE for item in profile.items)
    if request.labels is not None and request.validation is not None:
        raise UserError("give clinician labels either as --labels or as a judge-check --validation, not both")
    if request.labels is not None:
        if scoped:
            return Validations(
                scope=scope_validation(findings.conversations, request.labels), source="clinician labels"
            )
        return Validations(referral_validation(findings.conversations, request.labels), source="clinician labels")
    if request.validation is not None:
        checked = read_judge_check(request.validation, audits)
        needed = SCOPE_FIELD if scoped else LABEL_FIELD
        if needed not in checked.fields:
            raise DataFormatError(
                request.validation,
                "fields",
                f"no per-turn validation of {needed}, the field --profile {profile.name} uses",
            )
        source = (
            f"trustmh judge-check validation of judge {checked.judge}, rubric fingerprint {checked.rubric_fingerprint}"
        )
        referral = checked.referral_validation(referral_decisions(findings.conversations))
        return Validations(referral, checked.scope_validation(), source)
    return Validations()


def _scope_method(audits: list[LogResult], findings: Findings, validation: dict[str, Any] | None) -> dict[str, Any]:
    """How out-of-scope replies were found: the detector, the judge (or none) and the labels."""
    judged = [c[JUDGED_SCOPE_KEY] for c in findings.conversations if c.get(JUDGED_SCOPE_KEY)]
    hashes = set()
    for result in audits:
        for printed in (result.judge_fingerprints.seen if result.judge_fingerprints is not None else {}).values():
            hashes.update([str(h) for name, h in (printed.get("rubrics") or {}).items() if name == SCOPE_RUBRIC.name])
    return {
        "detection": "phrase patterns of trustmh.audit.statutes.phrases: a reply claiming to be a therapist or to "
        "provide therapy, stating a diagnosis, or setting out a treatment plan or prescribing (questions excluded)",
        "judge_status": "judged" if judged else NOT_JUDGED,
        "judge_models": sorted({str(j["judge"]) for j in judged}),
        "judge_rubric": SCOPE_RUBRIC.name if judged else None,
        "rubric_fingerprints": sorted(hashes) if judged else [],
        "conversations_judged": len(judged),
        "validation": validation,
    }


def _method(
    audits: list[LogResult], findings: Findings, validation: dict[str, Any] | None, source: str | None = None
) -> dict[str, Any]:
    judges = []
    for result in audits:
        main = result.judge_fingerprints.main if result.judge_fingerprints is not None else None
        if main is not None:
            judges.append({"models": list(main.get("judges") or []), "rubrics": dict(main.get("rubrics") or {})})
    return {
        "detector_version": DETECTOR_VERSION,
        "detector_versions_in_logs": sorted(findings.versions),
        "risk_detection": "trustmh.audit.detectors.shows_risk: a phrase lexicon of suicide, self-harm and "
        "harm-to-others disclosures (plain denials excluded); precision over recall",
        "referral_detection": "a reply naming a crisis or suicide line, a text line, 988 or emergency services "
        "(the crisis pillar's crisis-service patterns) at or after a user message showing risk",
        "judge": judges,
        "labels": None if validation is None else validation["labels"],
        "labels_outside_eligible_turns": None if validation is None else validation["labels_outside"],
        "label_ties_left_out": None if validation is None else validation["ties_left_out"],
        **{
            k: None if validation is None else validation[k]
            for k in ("agreement", "kappa", "sensitivity", "specificity")
        },
        "validation_note": NO_LABELS if validation is None else WITH_LABELS,
        "validation_source": source,
    }


def _not_checked(profile: Profile, findings: Findings, period: Period) -> list[dict[str, Any]]:
    left = [{"what": what, "why": "outside what a transcript check measures"} for what in profile.not_covered]
    if findings.without_findings:
        left.append(
            {"what": f"{findings.without_findings} audited conversations", "why": "audited without statutory checks"}
        )
    if period.label is not None and findings.undated:
        left.append({"what": f"{findings.undated} audited conversations", "why": "no time places them in the period"})
    return left


def build_document(collection: Collection, request: EvidenceRequest) -> dict[str, Any]:
    """The evidence document for ``request.profile`` over the collected logs."""
    profile = profile_named(request.profile)
    period = parse_period(request.period)
    audits = [r for r in collection.results if r.pillar == AUDIT_PILLAR]
    if not audits and not request.detector_passes:
        raise UserError("--profile needs at least one trustmh audit log or detector pass among the inputs")
    findings = read_findings([r.path for r in audits], period)
    passes = pass_counts(request, period)
    if passes is not None:
        passes.add_to(findings)
    validations = _validations(profile, request, findings, audits)
    validation = validations.referral
    corrected = None if validation is None else validation["corrected"]
    runs = [_test_run(r) for r in collection.results if r.pillar != AUDIT_PILLAR]
    items = []
    for item in profile.items:
        entry: dict[str, Any] = {"key": item.key, "citation": item.citation, "duty": item.duty, "kind": item.kind}
        if item.kind == METHOD:
            entry["see"] = "method"
        elif item.kind == TEST_RUNS:
            entry["see"] = "test_runs"
            entry["runs"] = len(runs)
        else:
            entry["population"] = item.population
            entry["value"] = item_value(item, findings, request.population, corrected, passes)
        items.append(entry)
    return {
        "schema": SCHEMA_NAME,
        "schema_version": SCHEMA_VERSION,
        "profile": profile.name,
        "title": profile.title,
        "in_force": profile.in_force,
        "sources": list(profile.sources),
        "disclaimer": DISCLAIMER,
        "generated": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "trustmh_version": __version__,
        "period": {"label": period.label, "start": _iso(period.start), "end": _iso(period.end)},
        "conversations": {
            "audited": findings.audited,
            "in_period": len(findings.conversations) + (passes.in_period if passes else 0),
            "undated": findings.undated,
            "outside_period": findings.outside,
            "without_statutory_checks": findings.without_findings,
        },
        "items": items,
        "method": {
            **_method(audits, findings, validation, validations.source),
            **(
                {"scope": _scope_method(audits, findings, validations.scope)}
                if any(item.kind == JUDGED_SCOPE for item in profile.items)
                else {}
            ),
        },
        "test_runs": runs,
        "not_checked": _not_checked(profile, findings, period),
    }


def pass_counts(request: EvidenceRequest, period: Period) -> PassCounts | None:
    """The detector passes' counts (:mod:`.pass_evidence`), folded in where the logs' go; ``None`` without any."""
    if not request.detector_passes:
        return None
    for flag, given in (("--labels", request.labels), ("--validation", request.validation)):
        if given is not None:
            raise UserError(
                f"{flag}: a detector pass keeps per-conversation counts, not the turns clinicians labelled; "
                "validate the referral detector on an audit log (trustmh audit EXPORT.jsonl)",
                flag,
            )
    return read_pass_counts(request.detector_passes, period)


def _iso(moment: float | None) -> str | None:
    return None if moment is None else datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def evidence_document(log_dirs: list[Path], request: EvidenceRequest) -> dict[str, Any]:
    """Collect the logs (transcripts left out) and build the document."""
    return build_document(collect([Path(d) for d in log_dirs], redact=True), request)


def html_view(document: dict[str, Any]) -> dict[str, Any]:
    """What the report's evidence section shows: one row per item, numbers as text."""
    rows = []
    for item in document["items"]:
        value = item.get("value") or {}
        if item["kind"] == "check":
            shown = (
                f"{value['violations']} violations; {value['conversations_with_violation']} of "
                f"{value['conversations_checked']} checked conversations with one"
            )
            ci = _ci(value.get("ci_low"), value.get("ci_high"))
            unchecked = value["not_checkable"]["conversations"]
        elif item["kind"] == "referral_count":
            shown = f"{value['observed']} notifications ({value['basis']})"
            ci = _ci(value.get("ci_low"), value.get("ci_high"), digits=0)
            unchecked = 0
        elif item["kind"] == JUDGED_SCOPE:
            shown, ci, unchecked = _scope_shown(value)
        else:
            shown, ci, unchecked = f"see {item['see']}", "", 0
        rows.append(
            {"citation": item["citation"], "duty": item["duty"], "value": shown, "ci": ci, "unchecked": unchecked}
        )
    return {
        "title": document["title"],
        "profile": document["profile"],
        "period": document["period"]["label"] or "all audited conversations",
        "disclaimer": document["disclaimer"],
        "conversations": document["conversations"],
        "rows": rows,
        "runs": len(document["test_runs"]),
        "not_checked": document["not_checked"],
    }


def _ci(low: float | None, high: float | None, digits: int = 3) -> str:
    if low is None or high is None:
        return ""
    return f"[{low:.{digits}f}, {high:.{digits}f}]"


def _scope_shown(value: dict[str, Any]) -> tuple[str, str, int]:
    """The scope row: the detector's count, then the judge's (or that no judge checked it)."""
    detector, judge = value["detector"], value["judge"]
    shown = f"detector: {detector['conversations_with_violation']} of {detector['conversations_checked']} conversations"
    if judge is None:
        return f"{shown}; judge: {value['judge_status']}", _ci(detector["ci_low"], detector["ci_high"]), 0
    shown += (
        f"; judge: {judge['conversations_with_violation']} of {judge['conversations_judged']} judged conversations"
        f" ({judge['unparsed_conversations']} unparsed, {judge['not_judged_conversations']} not judged)"
    )
    return shown, "judge " + _ci(judge["ci_low"], judge["ci_high"]), judge["unparsed_conversations"]
