"""The CI outputs of one :class:`Verdict`: JUnit XML, a Markdown summary, GitHub annotations, JSON.

All drawn from the verdict object, never recomputed, so no output can say FAIL while the exit
code is 0. Judged text is hostile: XML gets only characters XML 1.0 allows (then junitparser
escapes it), Markdown cells are escaped (pipes, HTML, links), annotations are escaped as GitHub's
workflow commands require, and transcript excerpts go only into the JUnit failure text (the
summary and annotations are read by anyone with access to the repository: ids only).
"""

from __future__ import annotations

import html
import io
import re
from pathlib import Path

from junitparser import Error, Failure, JUnitXml, Skipped, TestCase, TestSuite

from trustmh.core.files import json_text, write_text
from trustmh.core.paths import check_output_file
from trustmh.report.gate_verdict import FAIL, INSUFFICIENT, PASS, Case, Verdict
from trustmh.report.headline import fmt

SUITE = "trustmh gate"
# Characters XML 1.0 cannot carry at all (C0 controls but tab and line breaks, surrogates, U+FFFE/F).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
ICONS = {PASS: "✅", FAIL: "❌", INSUFFICIENT: "⚠️"}


def xml_text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _junit_case(case: Case, on_insufficient: str) -> TestCase:
    test = TestCase(xml_text(case.name), classname=f"trustmh.gate.{case.kind}")
    if case.status == FAIL:
        result = Failure(xml_text(case.message), "fail")
        result.text = xml_text(case.message + (f"\n\n{case.excerpt}" if case.excerpt else ""))
        test.result = [result]
    elif case.status == INSUFFICIENT:
        # Skipped would read as green in most CI systems: only when the policy passes it.
        kind = Skipped if on_insufficient == PASS else Error
        test.result = [kind(xml_text(case.message), "insufficient evidence")]
    return test


def junit_xml(verdict: Verdict) -> str:
    """One test case per check (per critical item), in one suite, as JUnit XML text."""
    suite = TestSuite(SUITE)
    suite.add_property("verdict", verdict.status)
    suite.add_property("exit_code", str(verdict.exit_code))
    suite.add_property("model", xml_text(verdict.model))
    suite.add_testcases([_junit_case(case, verdict.on_insufficient) for case in verdict.cases])
    document = JUnitXml(SUITE)
    document.add_testsuite(suite)
    document.update_statistics()
    buffer = io.BytesIO()
    document.write(buffer)
    return buffer.getvalue().decode("utf-8")


def _cell(text: str) -> str:
    """Markdown table cell text: no HTML, no links or images, no table breaks."""
    flat = " ".join(html.escape(text, quote=False).split())
    return re.sub(r"([\\|\[\]!`*_])", r"\\\1", flat)


def _ci(case: Case) -> str:
    return "—" if case.ci is None else f"[{fmt(case.ci[0])}, {fmt(case.ci[1])}]"


def markdown_summary(verdict: Verdict) -> str:
    """For ``$GITHUB_STEP_SUMMARY``: the verdict first, then one table row per check."""
    lines = [f"## {ICONS[verdict.status]} trustmh gate: {_cell(verdict.headline())}", ""]
    where = f"Logs {_cell(verdict.log_dir)}, policy {_cell(verdict.policy)}"
    if verdict.baseline:
        where += f", baseline {_cell(verdict.baseline)} ({_cell(verdict.baseline_model or '')})"
    lines += [where + ".", ""]
    lines += [f"> ⚠ {_cell(note)}\n" for note in verdict.notes]
    lines += ["| | check | value | 95% CI | n | detail |", "|---|---|---|---|---|---|"]
    order = {FAIL: 0, INSUFFICIENT: 1, PASS: 2}
    for case in sorted(verdict.cases, key=lambda c: order[c.status]):
        value = fmt(case.value) + (" (PPI++)" if case.corrected else "")
        n = "—" if case.n is None else str(case.n)
        row = [ICONS[case.status], _cell(case.name), value, _ci(case), n, _cell(case.message)]
        lines.append("| " + " | ".join(row) + " |")
    lines += ["", "Decided on the cautious end of each 95% CI, never the mean (docs/gate.md)."]
    return "\n".join(lines) + "\n"


def _command_data(text: str) -> str:
    """A workflow command's data: no control characters (an escape sequence in the log), and
    ``%``, CR and LF escaped so a message cannot start a command line of its own."""
    return xml_text(text).replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _command_property(text: str) -> str:
    return _command_data(text).replace(":", "%3A").replace(",", "%2C")


def github_annotations(verdict: Verdict) -> list[str]:
    """``::error`` lines for every failed or undecided check (a warning when the policy passes it)."""
    lines = []
    for case in verdict.cases:
        if case.status == PASS:
            continue
        level = "warning" if case.status == INSUFFICIENT and verdict.on_insufficient == PASS else "error"
        title = _command_property(f"trustmh gate: {case.name}")
        lines.append(f"::{level} title={title}::{_command_data(case.message)}")
    return lines


def write_outputs(
    verdict: Verdict, junit: str | None = None, summary: str | None = None, json_out: str | None = None
) -> None:
    """Write the requested files (``-``: stdout for the JSON); each appears whole or not at all,
    and none is written when one of the destinations cannot be (a folder, a FIFO)."""
    for destination, option in ((junit, "--junit"), (summary, "--summary"), (json_out, "--json")):
        if destination is not None and destination != "-":
            check_output_file(Path(destination), option)
    if junit is not None:
        write_text(junit_xml(verdict), junit)
    if summary is not None:
        write_text(markdown_summary(verdict), summary)
    if json_out is not None:
        write_text(json_text(verdict.as_dict()), json_out)
