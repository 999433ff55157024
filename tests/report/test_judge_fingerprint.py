"""The report shows each judged task's judge fingerprint and says when results judged differently meet."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

from inspect_ai.scorer import Score

from tests.fakes import script, write_jsonl
from trustmh.data.starter import load_starter
from trustmh.report import build_report
from trustmh.report.collect import collect
from trustmh.report.judge_fingerprint import JudgeFingerprints, add_sample, fingerprint_label, fingerprint_notes
from trustmh.run.config import RunConfig
from trustmh.run.runner import run_tasks

FP = {"judges": ["openai/gpt-4o"], "rubrics": {"crisis": "abcdef123456"}, "temperature": 0.0, "prompt_version": 1}


def found(*fingerprints: dict) -> JudgeFingerprints:
    result = JudgeFingerprints()
    for fingerprint in fingerprints:
        add_sample(result, {"s": Score(value=1, metadata={"judge_fingerprint": fingerprint})})
    return result


def test_label_is_compact_and_flags_mixed_and_self_judged():
    assert fingerprint_label(found(FP, FP)) == "judge gpt-4o · rubric abcdef"
    other = {**FP, "judges": ["anthropic/claude-x", "openai/gpt-4o"]}
    assert fingerprint_label(found(other)) == "judges claude-x + gpt-4o · rubric abcdef"
    assert fingerprint_label(found(FP, other)).endswith("(+1 other fingerprint)")
    assert fingerprint_label(found({**FP, "self_family": ["openai/gpt-4o"]})).endswith("· self-judged")
    assert fingerprint_label(found({**FP, "self_family": ["a/x"], "excluded_self": ["a/x"]})) == (
        "judge gpt-4o · rubric abcdef"
    )
    assert fingerprint_label(None) == "" == fingerprint_label(JudgeFingerprints())


def test_notes_name_differing_fingerprints_of_one_task():
    results = [
        SimpleNamespace(task="t", model="m1", judge_fingerprints=found(FP)),
        SimpleNamespace(task="t", model="m2", judge_fingerprints=found({**FP, "rubrics": {"crisis": "999999999999"}})),
        SimpleNamespace(task="u", model="m1", judge_fingerprints=found(FP, {**FP, "prompt_version": 2})),
        SimpleNamespace(task="v", model="m1", judge_fingerprints=None),
    ]
    notes = fingerprint_notes(results)
    assert any(n.startswith("t: models were judged with different judge fingerprints") for n in notes)
    assert any(n.startswith("u on m1: its samples were judged with 2 different") for n in notes)
    assert len(notes) == 2
    same = [SimpleNamespace(task="t", model=m, judge_fingerprints=found(FP)) for m in ("m1", "m2")]
    assert fingerprint_notes(same) == []


def _judge(score: int):
    return lambda prompt: json.dumps({"appropriateness": score})


def judged_logs(tmp_path: Path, runs: tuple[tuple[str, str], ...]) -> Path:
    """crisis_escalation (5 starter items) run once per ``(model, judge)`` into one log folder."""
    records = load_starter("trustmh.pillars.crisis.starter", "escalation.jsonl")
    responses = tmp_path / "responses"
    responses.mkdir()
    write_jsonl(responses / "crisis_escalation.jsonl", [{"id": r["id"], "output": "call 988"} for r in records])
    log_dir = tmp_path / "logs"
    for model, judge in runs:
        config = RunConfig(
            tasks=("crisis_escalation",),
            models=(model,),
            model_args={"responses": str(responses)},
            judges=(script(judge, [_judge(4)]),),
            limit=5,
            log_dir=log_dir,
            source="starter",
            display=None,
            write_report=False,
        )
        run_tasks(config)
    return log_dir


TWO_JUDGES = (("trustmh/replay/a", "fp-judge-one"), ("trustmh/replay/b", "fp-judge-two"))


def test_report_shows_fingerprints_and_a_note_when_judges_differ(tmp_path: Path):
    log_dir = judged_logs(tmp_path, TWO_JUDGES)
    collection = collect([log_dir], redact=True)  # fingerprints are read even from a redacted report
    assert {fingerprint_label(r.judge_fingerprints).split(" ·")[0] for r in collection.results} == {
        "judge fp-judge-one",
        "judge fp-judge-two",
    }
    html = build_report([log_dir], tmp_path / "report.html", redact=True).read_text(encoding="utf-8")
    assert "judged by" in html and "judge fp-judge-one · rubric" in html
    assert "crisis_escalation: models were judged with different judge fingerprints" in html


def test_report_exclude_self_leaves_self_judged_logs_out(tmp_path: Path):
    log_dir = judged_logs(tmp_path, (("trustmh/replay/gpt-a", "gpt-judge"), ("trustmh/replay/claude-b", "gpt-judge")))
    kept = collect([log_dir], exclude_self=True)
    assert [r.model for r in kept.results] == ["trustmh/replay/claude-b"]
    assert any("of the model's own family (--exclude-self)" in line for line in kept.skipped)
    assert len(collect([log_dir]).results) == 2  # without the option the self-judged log is used, and flagged
    assert "self-judged" in fingerprint_label(
        next(r for r in collect([log_dir]).results if r.model.endswith("gpt-a")).judge_fingerprints
    )
