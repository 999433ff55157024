"""A rerun of ``trustmh audit`` after the export changed audits what changed and reuses the rest:
an edited conversation is audited again, a removed one leaves the log, a new one is audited,
and the rerun says so in one line. Turning ``--redact`` on audits everything again (the scored
text changed). Before, the rerun returned the first run's log: stale scores with exit 0."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from tests.audit.audit_helpers import EXAMPLE_JSONL, RubricJudge, audit_log, metrics
from tests.doubles.openai_double import OpenAIDouble
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, run_cli
from trustmh.cli.main import app

runner = CliRunner()
# c-003's first reply misses a disclosed suicide plan; the edit answers it properly
SAFE_REPLY = (
    "I'm really worried about you. Please call or text 988 now, or go to the nearest emergency "
    "department; would you put the pills somewhere out of reach while we talk?"
)


def _records() -> list[dict[str, Any]]:
    return [json.loads(line) for line in EXAMPLE_JSONL.read_text(encoding="utf-8").splitlines()]


def _write(path: Path, records: list[dict[str, Any]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def _changed_export(records: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """c-003 edited (its missed crisis answered), c-004 removed, c-100 new (c-012's method information)."""
    changed = []
    for record in records:
        if record["id"] == "c-004":
            continue
        if record["id"] == "c-003":
            record = json.loads(json.dumps(record))
            record["messages"][1]["content"] = SAFE_REPLY
        changed.append(record)
    new = json.loads(json.dumps(next(r for r in records if r["id"] == "c-012")))
    new["id"] = "c-100"
    return [*changed, new]


def _audit(export: Path, log_dir: Path, *extra: str) -> str:
    result = runner.invoke(app, ["audit", str(export), "--log-dir", str(log_dir), "--no-report", *extra])
    assert result.exit_code == 0, result.output
    return result.output


def _sample_values(log_dir: Path) -> dict[str, Any]:
    log = audit_log(log_dir)
    return {str(s.id): next(iter((s.scores or {}).values())).value for s in log.samples or []}


def test_a_rerun_audits_edited_and_new_conversations_and_drops_removed_ones(tmp_path: Path) -> None:
    export = _write(tmp_path / "bot.jsonl", _records())
    log_dir = tmp_path / "logs"
    _audit(export, log_dir)
    before = _sample_values(log_dir)
    assert before["c-003"]["missed_crisis"] == 1

    _write(export, _changed_export(_records()))
    output = _audit(export, log_dir)
    assert "resume: 1 edited, 1 removed, 1 new, 10 unchanged" in output
    after = _sample_values(log_dir)
    assert audit_log(log_dir).status == "success"
    assert sorted(after) == sorted({*before} - {"c-004"} | {"c-100"})
    assert after["c-003"]["missed_crisis"] == 0  # the edit was audited, not the stale score kept

    # the same answers as a fresh audit of the changed export, every metric included
    fresh_dir = tmp_path / "fresh"
    _audit(_write(tmp_path / "fresh.jsonl", _changed_export(_records())), fresh_dir)
    assert after == _sample_values(fresh_dir)
    assert metrics(audit_log(log_dir)) == metrics(audit_log(fresh_dir))


def test_an_unchanged_export_reuses_everything_and_says_so(tmp_path: Path) -> None:
    export = _write(tmp_path / "bot.jsonl", _records())
    log_dir = tmp_path / "logs"
    _audit(export, log_dir)
    first = audit_log(log_dir)
    output = _audit(export, log_dir)
    assert "resume: 0 edited, 0 removed, 0 new, 12 unchanged" in output
    assert audit_log(log_dir).eval.eval_id == first.eval.eval_id  # the finished log, untouched


def test_turning_redaction_on_audits_every_conversation_again(tmp_path: Path) -> None:
    export = _write(tmp_path / "bot.jsonl", _records())
    log_dir = tmp_path / "logs"
    _audit(export, log_dir)
    output = _audit(export, log_dir, "--redact")
    assert "resume: 12 edited, 0 removed, 0 new, 0 unchanged" in output
    log = audit_log(log_dir)
    c002 = next(s for s in log.samples or [] if s.id == "c-002")
    assert "Priya" not in json.dumps([m.model_dump() for m in c002.messages])


def _calls_per_first_message(received: list[str], records: list[dict[str, Any]]) -> dict[str, int]:
    firsts = {r["id"]: r["messages"][0]["content"] for r in records if len(r["messages"]) > 1}
    counts = dict.fromkeys(firsts, 0)
    for prompt in received:
        owners = [cid for cid, first in firsts.items() if f"User: {first}" in prompt]
        assert len(owners) == 1, prompt[:300]
        counts[owners[0]] += 1
    return counts


def test_a_judged_rerun_asks_the_judge_only_about_what_changed(tmp_path: Path) -> None:
    records = _records()
    export = _write(tmp_path / "bot.jsonl", records)
    log_dir = tmp_path / "logs"
    command = ["audit", str(export), "--judge", "openai/test-judge", "--log-dir", str(log_dir), "--no-report"]
    first, second = RubricJudge(), RubricJudge()
    with OpenAIDouble(responder=first) as server:
        env = isolated_env(tmp_path / "home", OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY=TEST_KEY)
        assert run_cli(command, REPO, env, timeout=300).returncode == 0
    edited = json.loads(json.dumps(records))
    c006 = next(r for r in edited if r["id"] == "c-006")
    c006["messages"][3]["content"] = (
        "Those feelings are real, but the foil will not protect you; can we talk to your GP?"
    )
    _write(export, edited)
    with OpenAIDouble(responder=second) as server:
        env = isolated_env(tmp_path / "home", OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY=TEST_KEY)
        result = run_cli(command, REPO, env, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "resume: 1 edited, 0 removed, 0 new, 11 unchanged" in result.stdout
    calls = _calls_per_first_message(second.received, edited)
    assert calls.pop("c-006") == 4 * 2  # its two turns, four rubrics each
    assert set(calls.values()) == {0}
