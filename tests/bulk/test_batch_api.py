"""``trustmh generate|judge --batch``: the OpenAI Batch and Anthropic Message Batches paths against
the batch double — partial failures, expiry and cancellation retried and counted, a killed run
resumed by polling, and a run killed between the provider's acceptance and our record of it
recovering that batch instead of submitting it again."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.bulk.cli import invoke, read_csv
from tests.bulk.conftest import FAKE_KEY
from tests.bulk.test_cost_cli import conversations
from tests.doubles.batch_double import BatchDouble

SRC = Path(__file__).resolve().parents[2] / "src"
PROVIDERS = ["openai", "anthropic"]


def recorded(cache: Path, status: str | None = None) -> int:
    """Batches recorded in the cache (any status, or only ``status``)."""
    if not cache.exists():
        return 0
    try:
        with sqlite3.connect(cache) as db:
            if status is None:
                return int(db.execute("SELECT COUNT(*) FROM batches").fetchone()[0])
            return int(db.execute("SELECT COUNT(*) FROM batches WHERE status = ?", (status,)).fetchone()[0])
    except sqlite3.OperationalError:  # the table is not there yet
        return 0


def provider_env(provider: str, api: BatchDouble) -> dict[str, str]:
    if provider == "anthropic":
        return {"ANTHROPIC_API_KEY": FAKE_KEY, "ANTHROPIC_BASE_URL": api.anthropic_base_url}
    return {"OPENAI_API_KEY": FAKE_KEY}


def batch_args(provider: str, source: Path, out: Path, tmp_path: Path, api: BatchDouble, size: int) -> list[str]:
    endpoint = ["--base-url", api.base_url] if provider == "openai" else []
    return ["generate", "--conversations", str(source), "--model", f"m={provider}/m", "-o", str(out), *endpoint,
            "--cache", str(tmp_path / "cache.sqlite"), "--no-progress", "--batch", str(size),
            "--batch-poll", "0.1"]  # fmt: skip


@pytest.mark.parametrize("provider", PROVIDERS)
def test_partial_failures_expiry_and_cancellation_are_resubmitted_and_counted(
    provider: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = conversations(tmp_path, 25)
    out = tmp_path / "out.csv"
    with BatchDouble(processing_delay=0.2, failure_rate=0.2, expire={1}, cancel={2}, seed=3) as api:
        for name, value in provider_env(provider, api).items():
            monkeypatch.setenv(name, value)
        code, output = invoke(*batch_args(provider, source, out, tmp_path, api, 10))
        submissions = dict(api.state.submissions)
        created = api.state.batches_created
    assert code == 0, output
    rows = read_csv(out)
    assert len(rows) == 25 and all(row["m"].startswith("I hear you.") for row in rows)
    resubmitted = sum(count - 1 for count in submissions.values())
    assert len(submissions) == 25 and resubmitted >= 10  # the expired and cancelled batches' second halves
    assert created >= 4  # 3 first batches, then the retries in later ones
    summary = json.loads((tmp_path / "out.csv.summary.json").read_text())
    assert summary["retries"] == resubmitted and summary["failed_cells"] == []
    assert summary["batches"] == {"submitted": created, "resumed": 0, "recovered": 0}
    assert summary["tokens"]["output"] > 0
    expected_reasons = {
        "openai": {"batch item failed"},  # expired/cancelled requests are error lines with a 408
        "anthropic": {"batch item failed", "batch item expired", "batch item canceled"},
    }[provider]
    assert set(summary["retry_reasons"]) <= expected_reasons and "batch item failed" in summary["retry_reasons"]


def run_cli(args: list[str], env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "trustmh.cli.bulk", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip


def kill_when(process: subprocess.Popen[bytes], ready: object, what: str) -> None:
    deadline = time.monotonic() + 120
    while not ready() and time.monotonic() < deadline and process.poll() is None:  # type: ignore[operator]
        time.sleep(0.05)
    assert process.poll() is None and ready(), f"{what}: " + process.communicate()[1].decode()[-2000:]  # type: ignore[operator]
    process.send_signal(signal.SIGKILL)
    process.communicate()  # reaps it and closes its pipes


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.slow
def test_killed_batch_run_resumes_by_polling_never_resubmitting(provider: str, tmp_path: Path) -> None:
    source = conversations(tmp_path, 25)
    out = tmp_path / "out.csv"
    cache = tmp_path / "cache.sqlite"
    with BatchDouble(processing_delay=4.0) as api:
        env = {**os.environ, "PYTHONPATH": str(SRC), **provider_env(provider, api)}
        args = batch_args(provider, source, out, tmp_path, api, 10)
        # kill once the run has recorded the provider's id of its 3 batches
        kill_when(run_cli(args, env), lambda: recorded(cache, "pending") == 3, "3 batches recorded")
        assert api.state.batches_created == 3 and not out.exists()
        second = subprocess.run([sys.executable, "-m", "trustmh.cli.bulk", *args], env=env,
                                capture_output=True, text=True, timeout=300)  # fmt: skip
        created = api.state.batches_created
        submissions = dict(api.state.submissions)
    assert second.returncode == 0, second.stderr[-2000:]
    assert created == 3  # no batch resubmitted
    assert "batches submitted 0, resumed 3" in " ".join(second.stdout.split())
    assert len(submissions) == 25 and set(submissions.values()) == {1}  # no request sent twice, none lost
    rows = read_csv(out)
    assert len(rows) == 25 and all(row["m"].startswith("I hear you.") for row in rows)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.slow
def test_killed_between_acceptance_and_record_recovers_the_batch(provider: str, tmp_path: Path) -> None:
    """The provider accepted the batches but its answers had not arrived when the run died:
    the rerun finds them at the provider (by intent) and polls them; nothing is sent twice."""
    source = conversations(tmp_path, 25)
    out = tmp_path / "out.csv"
    cache = tmp_path / "cache.sqlite"
    with BatchDouble(processing_delay=1.0, create_delay=30.0) as api:
        env = {**os.environ, "PYTHONPATH": str(SRC), **provider_env(provider, api)}
        args = batch_args(provider, source, out, tmp_path, api, 10)
        kill_when(run_cli(args, env), lambda: api.state.batches_created == 3, "3 batches accepted")
        assert recorded(cache, "submitting") == 3 and recorded(cache, "pending") == 0  # intents only
        second = subprocess.run([sys.executable, "-m", "trustmh.cli.bulk", *args], env=env,
                                capture_output=True, text=True, timeout=300)  # fmt: skip
        created = api.state.batches_created
        submissions = dict(api.state.submissions)
        lists = api.state.lists
    assert second.returncode == 0, second.stderr[-2000:]
    assert created == 3 and len(submissions) == 25 and set(submissions.values()) == {1}
    assert lists >= 1
    summary = json.loads((tmp_path / "out.csv.summary.json").read_text())
    assert summary["batches"] == {"submitted": 0, "resumed": 3, "recovered": 3}
    assert recorded(cache, "submitting") == 0
    assert len(read_csv(out)) == 25


@pytest.mark.parametrize("provider", PROVIDERS)
def test_an_intent_the_provider_never_accepted_is_submitted_again(
    provider: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run killed after recording its intent but before the provider accepted the batch."""
    from trustmh.bulk.batch_store import BatchStore
    from trustmh.bulk.generate import load_conversations, parse_model_columns, plan_generation
    from trustmh.bulk.request import GenerationParams, at_endpoint
    from trustmh.mentalalign.rubric import GENERATION_PROMPT

    source = conversations(tmp_path, 4)
    out = tmp_path / "out.csv"
    targets = parse_model_columns([f"m={provider}/m"])
    params = GenerationParams(max_tokens=512, temperature=0.7, seed=0)
    items = plan_generation(load_conversations(source), targets, params, "", GENERATION_PROMPT)
    with BatchDouble(processing_delay=0.1) as api:
        store = BatchStore(tmp_path / "cache.sqlite")
        endpoint = api.base_url.rstrip("/") if provider == "openai" else ""  # keyed as the engine keys it
        store.add_intent(f"{provider}/m", [at_endpoint(item.request, endpoint).cache_key() for item in items])
        store.close()
        for name, value in provider_env(provider, api).items():
            monkeypatch.setenv(name, value)
        code, output = invoke(*batch_args(provider, source, out, tmp_path, api, 10))
        submissions = dict(api.state.submissions)
    assert code == 0, output
    assert len(submissions) == 4 and set(submissions.values()) == {1}
    assert recorded(tmp_path / "cache.sqlite", "submitting") == 0
    summary = json.loads((tmp_path / "out.csv.summary.json").read_text())
    assert summary["batches"] == {"submitted": 1, "resumed": 0, "recovered": 0}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_judge_through_batches(provider: str, tmp_path: Path, tiny_csv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "judge.csv"
    with BatchDouble(processing_delay=0.1) as api:
        for name, value in provider_env(provider, api).items():
            monkeypatch.setenv(name, value)
        endpoint = ["--base-url", api.base_url] if provider == "openai" else []
        code, output = invoke(
            "judge", "--responses", str(tiny_csv), "--judge", f"{provider}/j", "-o", str(out), *endpoint,
            "--cache", str(tmp_path / "cache.sqlite"), "--no-progress", "--batch", "100", "--batch-poll", "0.1",
        )  # fmt: skip
        submitted = sum(api.state.submissions.values())
    assert code == 0, output
    summary = json.loads((tmp_path / "judge.csv.summary.json").read_text())
    assert summary["verdicts"].get("judged", 0) == submitted > 0
    assert summary["batches"]["submitted"] == 1


def test_anthropic_models_without_batch_call_the_messages_api(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = conversations(tmp_path, 3)
    out = tmp_path / "out.csv"
    with BatchDouble() as api:
        for name, value in provider_env("anthropic", api).items():
            monkeypatch.setenv(name, value)
        code, output = invoke("generate", "--conversations", str(source), "--model", "c=anthropic/claude-x",
                              "--system", "Be kind.", "-o", str(out), "--cache", str(tmp_path / "cache.sqlite"),
                              "--no-progress")  # fmt: skip
        created = api.state.batches_created
    assert code == 0, output
    rows = read_csv(out)
    assert len(rows) == 3 and all(row["c"].startswith("I hear you.") for row in rows) and created == 0
    # The double answers 400 to temperature/top_p as API version 2026-10-21 does; the user is told.
    assert "anthropic/claude-x: the provider's API takes no temperature" in " ".join(output.split())


def test_the_double_rejects_sampling_parameters_as_api_version_2026_10_21_does() -> None:
    import httpx

    with BatchDouble() as api:
        base = provider_env("anthropic", api)["ANTHROPIC_BASE_URL"].rstrip("/")
        body = {"model": "claude-x", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}
        assert httpx.post(f"{base}/v1/messages", json=body).status_code == 200
        for name, value in (("temperature", 0.0), ("top_p", 1.0), ("top_k", 5)):
            direct = httpx.post(f"{base}/v1/messages", json=body | {name: value})
            batch = httpx.post(f"{base}/v1/messages/batches",
                               json={"requests": [{"custom_id": "a", "params": body | {name: value}}]})  # fmt: skip
            assert (direct.status_code, batch.status_code) == (400, 400), name
            assert name in direct.json()["error"]["message"] and name in batch.json()["error"]["message"]
        assert api.state.batches_created == 0


def test_no_notice_without_anthropic_models() -> None:
    from trustmh.bulk.sampling import unsent_sampling_notice

    assert unsent_sampling_notice(["openai/gpt-x", "trustmh/smollm2"]) is None
    assert "anthropic/c" in (unsent_sampling_notice(["openai/gpt-x", "anthropic/c"]) or "")


def test_anthropic_request_shape() -> None:
    from trustmh.bulk.anthropic_backend import completion_from_message, message_params
    from trustmh.bulk.request import ChatRequest, GenerationParams
    from trustmh.bulk.retry import PermanentError

    request = ChatRequest(
        "anthropic/claude-x",
        ({"role": "system", "content": "S"}, {"role": "user", "content": "U"}),
        GenerationParams(max_tokens=7, temperature=0.0, seed=5),
    )
    params = message_params(request)
    # No temperature/top_p: API version 2026-10-21 (anthropic SDK 2.x) answers 400 to either.
    assert params == {"model": "claude-x", "max_tokens": 7, "system": "S",
                      "messages": [{"role": "user", "content": "U"}]}  # fmt: skip
    reply = {"content": [{"type": "text", "text": "hi"}], "stop_reason": "max_tokens",
             "usage": {"input_tokens": 3, "output_tokens": 1}}  # fmt: skip
    completion = completion_from_message(reply)
    assert (completion.text, completion.finish_reason, completion.input_tokens) == ("hi", "length", 3)
    with pytest.raises(PermanentError):
        completion_from_message({"content": [], "stop_reason": "refusal"})


def test_missing_anthropic_key_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    source = conversations(tmp_path, 2)
    code, output = invoke("generate", "--conversations", str(source), "--model", "anthropic/c",
                          "-o", str(tmp_path / "o.csv"), "--no-progress", "--cache", str(tmp_path / "c.sqlite"))  # fmt: skip
    assert code == 2 and "ANTHROPIC_API_KEY" in output and "Traceback" not in output


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_create_that_failed_after_acceptance_is_found_not_resubmitted(
    provider: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The provider accepted the batch but the create call failed (HTTP 500): the retry asks the
    provider (by intent) before sending anything, finds the batch and polls it."""
    source = conversations(tmp_path, 6)
    out = tmp_path / "out.csv"
    with BatchDouble(processing_delay=0.2, create_failures=1) as api:
        for name, value in provider_env(provider, api).items():
            monkeypatch.setenv(name, value)
        code, output = invoke(*batch_args(provider, source, out, tmp_path, api, 10))
        submissions = dict(api.state.submissions)
        created = api.state.batches_created
    assert code == 0, output
    assert created == 1 and len(submissions) == 6 and set(submissions.values()) == {1}
    summary = json.loads((tmp_path / "out.csv.summary.json").read_text())
    assert summary["batches"] == {"submitted": 0, "resumed": 1, "recovered": 1}
    assert summary["retries"] == 6 and len(read_csv(out)) == 6


LINE_SEPARATOR = "\u2028"  # JSON may hold it unescaped; str.splitlines splits on it


def test_a_prompt_with_a_unicode_line_separator_goes_through_the_batch_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "conv.csv"
    source.write_text(f"context,response\nfirst line{LINE_SEPARATOR}second line — é,a reply\nplain worry,a reply\n",
                      encoding="utf-8")  # fmt: skip
    out = tmp_path / "out.csv"
    with BatchDouble(processing_delay=0.1) as api:
        for name, value in provider_env("openai", api).items():
            monkeypatch.setenv(name, value)
        # the bare context as the prompt, so the double's echo shows what it read
        code, output = invoke(
            *batch_args("openai", source, out, tmp_path, api, 10), "--prompt-template", "{user_concern}"
        )
        uploads = list(api.state.files.values())
        submissions = dict(api.state.submissions)
    assert code == 0, output
    assert any(LINE_SEPARATOR.encode() in upload for upload in uploads)  # sent unescaped, one record all the same
    assert len(submissions) == 2 and set(submissions.values()) == {1}
    rows = read_csv(out)
    assert [row["m"] for row in rows] == [
        "I hear you. You said: first line second line — é",  # the double echoes the prompt's words
        "I hear you. You said: plain worry",
    ]


def test_jsonl_records_split_on_newlines_only() -> None:
    from trustmh.bulk.batch_backend import jsonl_records

    records = [{"custom_id": "a", "text": f"x{LINE_SEPARATOR}y\u2029z\x85w"}, {"custom_id": "b", "text": "plain"}]
    content = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records).encode()
    assert jsonl_records(content) == records
    assert jsonl_records(content + b"\n\n") == records  # blank lines are skipped
