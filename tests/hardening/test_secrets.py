"""No file a run writes (logs, caches, buffers, reports, error output) contains the API key,
and no trustmh error echoes one."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

from tests.hardening.double import Faults, running_double
from tests.hardening.hardening_cli import REPO, TEST_KEY, isolated_env, psyleak_run, run_cli
from trustmh.core.errors import REDACTED, redact

ARG_KEY = "sk-arg-0c41d7e9b2a85f36aa17"


ZIP_ZSTD = 93  # inspect compresses .eval members with zstd, which zipfile cannot read


def zip_members(data: bytes) -> dict[str, bytes]:
    """Uncompressed members of a zip archive, zstd members included."""
    import struct

    members: dict[str, bytes] = {}
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for info in archive.infolist():
            if info.compress_type != ZIP_ZSTD:
                members[info.filename] = archive.read(info)
                continue
            import zstandard

            header = data[info.header_offset : info.header_offset + 30]
            name_length, extra_length = struct.unpack("<HH", header[26:30])
            start = info.header_offset + 30 + name_length + extra_length
            raw = data[start : start + info.compress_size]
            members[info.filename] = zstandard.ZstdDecompressor().decompressobj().decompress(raw)
            assert len(members[info.filename]) == info.file_size, info.filename
    return members


def _occurrences(root: Path, secrets: list[str]) -> list[str]:
    """Every file under ``root`` (zip members included) that contains a secret."""
    needles = [s.encode() for s in secrets]
    found: list[str] = []

    def check(name: str, data: bytes) -> None:
        if any(needle in data for needle in needles):
            found.append(name)
        if data[:4] == b"PK\x03\x04":
            try:
                members = zip_members(data)
            except zipfile.BadZipFile:
                return
            assert members, name
            for member, content in members.items():
                check(f"{name}!{member}", content)

    for path in root.rglob("*"):
        if path.is_file():
            check(str(path), path.read_bytes())
    return found


@pytest.mark.slow
def test_run_writes_no_key(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    log_dir = tmp_path / "logs"
    faults = Faults(http_5xx=0.3, fault_attempts=1)  # errors and retries get logged too
    with running_double(latency=0.0, faults=faults, seed=1) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        result = run_cli(
            psyleak_run(log_dir, "--judge", "openai/test-model", "--limit", "8", "-M", f"api_key={ARG_KEY}"),
            REPO,
            env,
        )
        # the key really was used: the server saw it
        auth = {h.get("Authorization", "") for h in double.state.headers_seen}
    assert result.returncode == 0, result.stderr[-3000:]
    assert any(ARG_KEY in value or TEST_KEY in value for value in auth)
    assert list(log_dir.glob("*.eval")), "the run wrote no log"
    # positive control: the search does see inside the (zstd) .eval members
    assert any("!samples/" in name for name in _occurrences(log_dir, ["I hear you. You said:"]))
    written = _occurrences(tmp_path, [TEST_KEY, ARG_KEY])
    assert written == []
    assert TEST_KEY not in result.stdout + result.stderr and ARG_KEY not in result.stdout + result.stderr


def test_score_writes_no_key(tmp_path: Path) -> None:
    import json

    from trustmh.pillars.privacy.dataset import psyleak_dataset

    home = tmp_path / "home"
    home.mkdir()
    responses = tmp_path / "r.jsonl"
    responses.write_text(
        "".join(json.dumps({"id": s.id, "output": "No."}) + "\n" for s in psyleak_dataset("starter", None))
    )
    result = run_cli(
        [
            "score",
            "privacy_psyleak",
            "--responses",
            str(responses),
            "--json",
            str(tmp_path / "out.json"),
            "--log-dir",
            str(tmp_path / "logs"),
        ],
        REPO,
        isolated_env(home, OPENAI_API_KEY=TEST_KEY, ANTHROPIC_API_KEY=ARG_KEY),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert _occurrences(tmp_path, [TEST_KEY, ARG_KEY]) == []


def test_failed_run_error_does_not_echo_key(tmp_path: Path) -> None:
    """An endpoint that is down: the one-line error and the log never show the key."""
    home = tmp_path / "home"
    home.mkdir()
    env = isolated_env(home, OPENAI_BASE_URL="http://127.0.0.1:9/v1", OPENAI_API_KEY=TEST_KEY)
    result = run_cli(
        psyleak_run(
            tmp_path / "logs",
            *["--limit", "1", "--max-retries", "0", "--timeout", "5"],
            "-M",
            f"api_key={ARG_KEY}",
            "--no-report",
        ),
        REPO,
        env,
        timeout=300,
    )
    assert TEST_KEY not in result.stdout + result.stderr and ARG_KEY not in result.stdout + result.stderr
    assert _occurrences(tmp_path, [TEST_KEY, ARG_KEY]) == []


@pytest.mark.parametrize(
    "text",
    [
        f"bad model arg api_key={TEST_KEY}",
        f"headers: Authorization: Bearer {TEST_KEY}",
        f"the key {TEST_KEY} was refused",
        f'{{"api_key": "{ARG_KEY}"}}',
        "OPENAI_API_KEY=abcdefghijklmnop",
    ],
)
def test_redact(text: str) -> None:
    cleaned = redact(text)
    assert TEST_KEY not in cleaned and ARG_KEY not in cleaned and "abcdefghijklmnop" not in cleaned
    assert REDACTED in cleaned


def test_redact_environment_secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_SERVICE_TOKEN", "tok-plain-value-123")
    assert redact("server said tok-plain-value-123 is invalid") == f"server said {REDACTED} is invalid"
    assert redact("nothing secret here") == "nothing secret here"


PLAIN_KEY = "plain0Secret0Value0c41d7e9"  # not shaped like a provider key: only configuration finds it


def _echoing_run(tmp_path: Path, faults: Faults) -> tuple[object, Path]:
    home = tmp_path / "home"
    home.mkdir()
    log_dir = tmp_path / "logs"
    with running_double(latency=0.0, faults=faults, seed=3) as double:
        env = isolated_env(home, OPENAI_BASE_URL=double.base_url, OPENAI_API_KEY=TEST_KEY)
        result = run_cli(
            psyleak_run(log_dir, "--limit", "4", "--max-retries", "2", "-M", f"api_key={PLAIN_KEY}", "--no-report"),
            REPO,
            env,
        )
        seen = {h.get("Authorization", "") for h in double.state.headers_seen}
    assert any(PLAIN_KEY in value for value in seen)  # the endpoint really got (and echoed) it
    return result, home


@pytest.mark.slow
def test_a_key_echoed_in_retried_errors_reaches_no_log_trace_or_console(tmp_path: Path) -> None:
    result, home = _echoing_run(tmp_path, Faults(echo_key=0.6, fault_attempts=1))
    assert result.returncode == 0, result.stderr[-3000:]
    traces = [p for p in home.rglob("*") if p.is_file() and "trace" in str(p).lower()]
    assert traces, "inspect wrote no trace file: the check below would prove nothing"
    # positive control: the echoed error was recorded somewhere, redacted
    assert _occurrences(tmp_path, ["Incorrect API key provided: [REDACTED]"])
    assert _occurrences(tmp_path, [PLAIN_KEY, TEST_KEY]) == []
    assert PLAIN_KEY not in result.stdout + result.stderr


def test_a_key_echoed_in_a_final_error_reaches_no_sample_error(tmp_path: Path) -> None:
    result, _ = _echoing_run(tmp_path, Faults(echo_key=1.0, echo_key_status=401))
    assert result.returncode != 0
    errors = _occurrences(tmp_path / "logs", ["Incorrect API key provided: [REDACTED]"])
    assert any(".eval!" in name for name in errors), errors  # the sample errors carry the message
    assert _occurrences(tmp_path, [PLAIN_KEY, TEST_KEY]) == []
    assert PLAIN_KEY not in result.stdout + result.stderr


def test_redact_keeps_words_after_token(monkeypatch: pytest.MonkeyPatch) -> None:
    assert redact("unclosed token: line 2") == "unclosed token: line 2"
    assert redact("password: correcthorsebatterystaple") == f"password: {REDACTED}"


def test_score_removes_its_temporary_log_folder(tmp_path: Path) -> None:
    import json
    import os

    from trustmh.pillars.privacy.dataset import psyleak_dataset

    home = tmp_path / "home"
    home.mkdir()
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    responses = tmp_path / "r.jsonl"
    responses.write_text(
        "".join(json.dumps({"id": s.id, "output": "No."}) + "\n" for s in psyleak_dataset("starter", None))
    )
    result = run_cli(
        ["score", "privacy_psyleak", "--responses", str(responses), "--json", str(tmp_path / "out.json")],
        REPO,
        isolated_env(home, TMPDIR=str(scratch)),
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert [p for p in scratch.iterdir() if p.name.startswith("trustmh-score-")] == []
    assert os.path.exists(tmp_path / "out.json")
