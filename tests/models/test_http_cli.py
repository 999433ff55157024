"""Acceptance of ``trustmh/http``: ``trustmh run --model trustmh/http -M config=…`` runs a
single-turn and a multi-turn task against a session-based chatbot on loopback, and the key
(which the bot even echoes) is in no file the run writes."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai.log import read_eval_log

from tests.doubles.chatbot_double import ChatbotDouble
from tests.hardening.hardening_cli import REPO, isolated_env, run_cli
from tests.hardening.test_secrets import _occurrences
from tests.models.test_http_provider import SESSION_CONFIG
from trustmh.pillars.reliability.solvers import REPLIES

KEY = "bot-cli-key-93e07b41c2d8"


@pytest.mark.slow
def test_run_single_and_multi_turn_tasks_against_a_session_bot(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log_dir = tmp_path / "logs"
    with ChatbotDouble(api_key=KEY, echo_key=True, fail_first=1) as bot:
        config = tmp_path / "bot.yaml"
        config.write_text(SESSION_CONFIG.format(base=bot.base_url))
        result = run_cli(
            ["run", "crisis_classification", "reliability_esconv_support", "--model", "trustmh/http/bot"]
            + ["-M", f"config={config}", "--limit", "2", "--log-dir", str(log_dir), "--no-report"],
            REPO,
            isolated_env(home, TRUSTMH_HTTP_BOT_KEY=KEY),
        )
        sessions = bot.sessions
    assert result.returncode == 0, result.stderr[-3000:]
    logs = {
        read_eval_log(str(path)).eval.task.split("/")[-1]: read_eval_log(str(path)) for path in log_dir.glob("*.eval")
    }
    assert set(logs) == {"crisis_classification", "reliability_esconv_support"}
    for log in logs.values():
        assert log.status == "success" and len(log.samples) == 2
        assert all(not sample.error for sample in log.samples)
    # every session first got a 503 (fail_first=1) and the retry went on in the same session
    assert all(turns for turns in sessions.values())
    multi = [turns for turns in sessions.values() if len(turns) > 1]
    assert multi, f"no session got more than one user turn: {sessions}"
    # the multi-turn task's replies are the bot's, scrubbed of the key it echoed
    for sample in logs["reliability_esconv_support"].samples:
        replies = sample.store[REPLIES]
        assert len(replies) > 1 and all(reply["reply"].startswith("I hear you.") for reply in replies)
    written = _occurrences(tmp_path, [KEY])
    assert written == [], written
    assert KEY not in result.stdout + result.stderr
    assert "[REDACTED]" in "".join(
        s.output.completion for log in logs.values() for s in log.samples if s.output and s.output.completion
    )


def test_a_reply_path_that_matches_no_reply_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """Issue 30: a wrong `reply` path printed hundreds of lines and tracebacks before the clear
    one; now the first reply that does not fit stops the run with one line naming the file."""
    home = tmp_path / "home"
    home.mkdir()
    with ChatbotDouble(api_key=KEY) as bot:
        config = tmp_path / "bot.yaml"
        config.write_text(SESSION_CONFIG.format(base=bot.base_url).replace("data.reply.text", "data.answer"))
        result = run_cli(
            ["run", "crisis_classification", "--model", "trustmh/http/bot", "-M", f"config={config}"]
            + ["--limit", "4", "--log-dir", str(tmp_path / "logs"), "--no-report"],
            REPO,
            isolated_env(home, TRUSTMH_HTTP_BOT_KEY=KEY),
        )
    assert result.returncode == 2, result.stderr[-3000:]
    output = result.stdout + result.stderr
    assert "Traceback" not in output
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1, result.stderr[-3000:]
    assert errors[0].startswith("error:") and str(config.name) in errors[0] and "field 'reply'" in errors[0]
    assert "'data.answer'" in errors[0]
