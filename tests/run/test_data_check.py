"""``trustmh run --data-dir``: files are checked against the catalogue's sha256; a mismatch is one
line naming the file and both hashes (exit 2), and ``--allow-modified`` runs on, with the log
metadata and the report marking the results MODIFIED (issue 25, item 6)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from inspect_ai.log import list_eval_logs, read_eval_log
from typer.testing import CliRunner

import trustmh.data.registry as registry
from tests.fakes import write_jsonl
from trustmh.cli.main import app
from trustmh.core.errors import UserError
from trustmh.data.registry import MODIFIED_KEY, checked_user_data, get_dataset, resolve_file, sha256_of

runner = CliRunner()


def _data_dir(shared_data: Path, root: Path) -> tuple[Path, Path]:
    """A data folder with ConfAIde tier 1 (one gold label flipped) and the pinned request code."""
    data = root / "d"
    for relative in ("confaide/tier_1.txt", "confaide/tier_1_labels.txt", "trustmh/release/privacy.zip"):
        (data / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(shared_data / relative, data / relative)
    labels = data / "confaide" / "tier_1_labels.txt"
    lines = labels.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = "4\n" if lines[0].strip() != "4" else "1\n"
    labels.write_text("".join(lines), encoding="utf-8")
    return data, labels


def _run(root: Path, data: Path, *extra: str) -> object:
    from trustmh.pillars.privacy.tasks import privacy_confaide_tier1

    ids = [sample.id for sample in privacy_confaide_tier1(source="benchmark", data_dir=str(data)).dataset]
    responses = write_jsonl(root / "r.jsonl", [{"id": i, "output": "3) somewhat"} for i in ids])
    args = ["run", "privacy_confaide_tier1", "--data-dir", str(data), "--source", "benchmark", "--limit", "2"]
    args += ["-m", "trustmh/replay/x", "-M", f"responses={responses}", "--log-dir", str(root / "logs"), *extra]
    return runner.invoke(app, args)


def test_a_modified_data_dir_file_is_refused_naming_file_and_both_hashes(shared_data: Path, tmp_path: Path) -> None:
    data, labels = _data_dir(shared_data, tmp_path)
    result = _run(tmp_path, data, "--no-report")
    assert result.exit_code == 2, result.output
    message = " ".join(result.output.split())
    expected = get_dataset("confaide").file("tier_1_labels.txt").sha256
    assert f"{labels}: sha256 {sha256_of(labels)} differs from the catalogue's {expected}" in message, message
    assert "--allow-modified" in message and "Traceback" not in result.output
    assert not (tmp_path / "logs").exists()


def test_allow_modified_runs_and_marks_log_and_report(shared_data: Path, tmp_path: Path) -> None:
    data, labels = _data_dir(shared_data, tmp_path)
    result = _run(tmp_path, data, "--allow-modified")
    assert result.exit_code == 0, result.output
    assert f"MODIFIED DATA (--allow-modified): {labels}" in " ".join(result.output.split())
    [info] = list_eval_logs(str(tmp_path / "logs"))
    marked = read_eval_log(info, header_only=True).eval.metadata[MODIFIED_KEY]
    assert [(m["path"], m["actual"]) for m in marked] == [(str(labels), sha256_of(labels))]
    page = (tmp_path / "logs" / "report.html").read_text(encoding="utf-8")
    assert "MODIFIED DATA" in page and str(labels) in page and 'class="badge modified"' in page


def test_released_files_pass_and_each_is_hashed_once(
    shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data, _ = _data_dir(shared_data, tmp_path)
    hashed: list[Path] = []
    monkeypatch.setattr(registry, "sha256_of", lambda path: hashed.append(path) or sha256_of(path))
    with checked_user_data() as modified:
        for _ in range(3):
            resolve_file("confaide", "tier_1.txt", data)
    assert modified == [] and hashed == [data / "confaide" / "tier_1.txt"]
    with pytest.raises(UserError, match="tier_1_labels.txt: sha256"), checked_user_data():
        resolve_file("confaide", "tier_1_labels.txt", data)
    assert resolve_file("confaide", "tier_1_labels.txt", data)  # outside a run: format checks only (Python API)
