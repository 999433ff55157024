"""The report shows each task's declared protocol beside its numbers."""

from __future__ import annotations

from pathlib import Path

from trustmh.report.collect import protocol_details, protocol_line
from trustmh.tasking.protocol import protocol_of


def test_line_names_mode_parser_and_deviation_count() -> None:
    declared = protocol_of("privacy_psyleak")
    assert declared is not None
    meta = {"parser": "upstream", "protocol": {**declared.as_metadata(), "mode": "benchmark"}}
    line = protocol_line(meta)
    assert line == f"benchmark mode · parser: upstream · {len(declared.deviations)} declared deviations from upstream"
    assert all(d.what in protocol_details(meta) for d in declared.deviations)


def test_no_declaration_no_line() -> None:
    assert protocol_line({}) == "" and protocol_details({"protocol": "junk"}) == ""


def test_rendered_beside_the_task_numbers(tmp_path: Path) -> None:
    from inspect_ai import eval

    from tests.fakes import write_jsonl
    from trustmh.pillars.privacy.tasks import privacy_confaide_tier1
    from trustmh.report import build_report

    task = privacy_confaide_tier1(source="starter", parser="upstream")
    responses = write_jsonl(tmp_path / "r.jsonl", [{"id": s.id, "output": "3) somewhat"} for s in task.dataset])
    (log,) = eval(
        task, model="trustmh/replay/x", model_args={"responses": str(responses)}, log_dir=str(tmp_path), display="none"
    )
    assert log.status == "success", log.error
    page = build_report([tmp_path], tmp_path / "r.html").read_text(encoding="utf-8")
    declared = protocol_of("privacy_confaide_tier1")
    assert declared is not None
    assert f"starter mode · parser: upstream · {len(declared.deviations)} declared deviations from upstream" in page
    assert "trustmh tasks --protocol privacy_confaide_tier1" in page
