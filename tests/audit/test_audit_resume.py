"""A judged ``trustmh audit`` killed with SIGKILL resumes: the rerun of the same command judges only
the conversations not yet in the log, and every conversation ends up in the one log once."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from inspect_ai.log import list_eval_logs, read_eval_log

from tests.audit.audit_helpers import EXAMPLE_JSONL, RubricJudge
from tests.doubles.openai_double import OpenAIDouble
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, popen_cli, run_cli
from trustmh.audit.readers import read_conversations

RUBRICS = 4  # DCS, HES, SIS and the statutory scope question


def _first_messages() -> dict[str, tuple[str, int]]:
    """conversation id -> (its first user message, its number of assistant turns)."""
    return {c.id: (c.turns()[0].user, len(c.turns())) for c in read_conversations(EXAMPLE_JSONL) if c.turns()}


def _calls_by_conversation(received: list[str], firsts: dict[str, tuple[str, int]]) -> dict[str, int]:
    counts = dict.fromkeys(firsts, 0)
    for prompt in received:
        owners = [cid for cid, (first, _) in firsts.items() if f"User: {first}" in prompt]
        assert len(owners) == 1, prompt[:300]
        counts[owners[0]] += 1
    return counts


def test_killed_audit_resumes_without_judging_finished_conversations_again(tmp_path: Path) -> None:
    log_dir = tmp_path / "logs"
    judge = RubricJudge()
    command = ["audit", str(EXAMPLE_JSONL), "--judge", "openai/test-judge", "--log-dir", str(log_dir)]
    command += ["--max-connections", "1", "--no-report"]
    with OpenAIDouble(latency=0.25, responder=judge) as server:
        env = isolated_env(tmp_path / "home", OPENAI_BASE_URL=server.base_url, OPENAI_API_KEY=TEST_KEY)
        process = popen_cli(command, REPO, env)
        deadline = time.monotonic() + 180
        while len(judge.received) < 20 and time.monotonic() < deadline:
            assert process.poll() is None, process.communicate()
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.communicate()
        (partial_path,) = [i.name for i in list_eval_logs(str(log_dir))]
        partial = read_eval_log(partial_path)
        assert partial.status == "started"
        done_before_kill = {str(s.id) for s in partial.samples or []}
        assert 1 <= len(done_before_kill) < 12

        result = run_cli(command, REPO, env, timeout=300)
        assert result.returncode == 0, result.stderr[-3000:]

    (final_path,) = [i.name for i in list_eval_logs(str(log_dir))]
    final = read_eval_log(final_path)
    ids = [str(s.id) for s in final.samples or []]
    assert final.status == "success" and sorted(ids) == sorted(set(ids)) and len(ids) == 12
    firsts = _first_messages()
    calls = _calls_by_conversation(judge.received, firsts)
    for conversation in done_before_kill:  # judged once, never again
        assert calls[conversation] == RUBRICS * firsts[conversation][1], conversation
    for conversation, (_, turns) in firsts.items():
        assert calls[conversation] >= RUBRICS * turns, conversation
