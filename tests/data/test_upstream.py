"""Upstream protocol files: pinned, found in the data folder, hash-checked on every use."""

from __future__ import annotations

import hashlib
import io
import shutil
import zipfile
from pathlib import Path

import pytest

from trustmh.core.errors import DatasetMissingError, UserError
from trustmh.data import upstream
from trustmh.data.upstream import (
    UPSTREAM_FILES,
    upstream_file,
    upstream_text,
    upstream_zip_member,
    upstream_zip_members,
)


def test_every_declared_file_in_the_shared_folder_matches_its_pin(shared_data: Path) -> None:
    for key, spec in UPSTREAM_FILES.items():
        path = shared_data / key
        assert path.is_file(), key
        assert hashlib.sha256(path.read_bytes()).hexdigest() == spec.sha256, key
        assert upstream_file(key, shared_data) == path


def test_every_upstream_file_of_the_shared_readme_table_is_declared(shared_data: Path) -> None:
    readme = (shared_data / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Upstream protocol files", 1)[1]
    folders = {line.split("|")[1].strip() for line in table.splitlines() if line.startswith("| ") and "/" in line}
    for folder in folders:
        assert any(key == folder or key.startswith(folder) for key in UPSTREAM_FILES), folder


def test_a_changed_file_is_one_line_naming_the_file_and_both_hashes(tmp_path: Path, shared_data: Path) -> None:
    key = "confaide/upstream/eval.py"
    copy = tmp_path / key
    copy.parent.mkdir(parents=True)
    shutil.copyfile(shared_data / key, copy)
    with copy.open("a") as handle:
        handle.write("\n# edited\n")
    actual = hashlib.sha256(copy.read_bytes()).hexdigest()
    with pytest.raises(UserError) as caught:
        upstream_text(key, tmp_path)
    message = str(caught.value)
    assert "\n" not in message
    assert str(copy) in message and actual in message and UPSTREAM_FILES[key].sha256 in message


def test_missing_offline_is_a_user_error_naming_where_it_looked(tmp_path: Path) -> None:
    with pytest.raises(DatasetMissingError, match="confaide/upstream/eval.py not found"):
        upstream_file("confaide/upstream/eval.py", tmp_path)


def test_unknown_key_is_a_user_error() -> None:
    with pytest.raises(UserError, match="unknown upstream file"):
        upstream_file("nope/x.py")


def test_download_is_pinned_to_the_commit_and_hash_checked(monkeypatch: pytest.MonkeyPatch, shared_data: Path) -> None:
    key = "confaide/upstream/eval.py"
    payload = (shared_data / key).read_bytes()
    seen: list[str] = []

    class Response(io.BytesIO):
        def __enter__(self) -> Response:
            return self

        def __exit__(self, *args: object) -> None:
            return None

    def fake_urlopen(url: str, timeout: float) -> Response:
        seen.append(url)
        return Response(payload)

    monkeypatch.delenv("TRUSTMH_OFFLINE")
    monkeypatch.setattr(upstream.urllib.request, "urlopen", fake_urlopen)
    path = upstream_file(key)
    assert seen == ["https://raw.githubusercontent.com/skywalker023/confAIde/3174c63/eval.py"]
    assert path.read_bytes() == payload
    payload = payload + b"#"
    (path).unlink()
    with pytest.raises(UserError, match="differs from the pinned"):
        upstream_file(key)
    assert not path.exists()


def test_zip_members_are_read_from_the_pinned_archive(shared_data: Path) -> None:
    names = upstream_zip_members("trustmh/release/privacy.zip", shared_data)
    assert "privacy/task1/privacy1.py" in names
    data = upstream_zip_member("trustmh/release/privacy.zip", "privacy/task1/privacy1.py", shared_data)
    with zipfile.ZipFile(shared_data / "trustmh/release/privacy.zip") as archive:
        assert data == archive.read("privacy/task1/privacy1.py")
    with pytest.raises(UserError, match="no member"):
        upstream_zip_member("trustmh/release/privacy.zip", "privacy/nothing.py", shared_data)


def test_data_import_copies_pinned_upstream_files_and_refuses_changed_ones(
    tmp_path: Path, shared_data: Path, isolated_cache: Path
) -> None:
    from typer.testing import CliRunner

    from trustmh.cli.main import app

    key = "confaide/upstream/eval.py"
    folder = tmp_path / "incoming"
    (folder / key).parent.mkdir(parents=True)
    shutil.copyfile(shared_data / key, folder / key)
    result = CliRunner().invoke(app, ["data", "import", str(folder)])
    assert result.exit_code == 0, result.output
    assert upstream_file(key) == isolated_cache / "data" / key  # offline, from the cache
    (folder / key).write_bytes(b"# edited\n")
    refused = CliRunner().invoke(app, ["data", "import", str(folder)])
    assert refused.exit_code == 2 and "nothing imported" in refused.output
