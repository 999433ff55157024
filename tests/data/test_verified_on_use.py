"""Data is verified on use: a cached file that is not the catalogue's is refused when loaded,
and ``data import`` refuses any file that is not the released one (issue 12, item 5)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from trustmh.cli.main import app
from trustmh.core.errors import UserError
from trustmh.data.registry import get_dataset, resolve_file


def _cache_copy(shared_data: Path, cache: Path, dataset: str, name: str) -> Path:
    target = cache / "data" / dataset / name
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(shared_data / dataset / name, target)
    return target


def test_an_edited_cached_file_is_refused_at_load_time(shared_data: Path, isolated_cache: Path) -> None:
    from trustmh.pillars.privacy.tasks import privacy_confaide_tier1

    _cache_copy(shared_data, isolated_cache, "trustmh/release", "privacy.zip")  # the pinned request code
    for name in ("tier_1.txt", "tier_1_labels.txt"):
        target = _cache_copy(shared_data, isolated_cache, "confaide", name)
    assert len(privacy_confaide_tier1(source="benchmark").dataset) > 0  # the released copy loads
    labels = target.read_text(encoding="utf-8").splitlines(keepends=True)
    labels[0] = "4\n" if labels[0].strip() != "4" else "1\n"  # one flipped gold label
    target.write_text("".join(labels), encoding="utf-8")
    expected = get_dataset("confaide").file("tier_1_labels.txt").sha256
    with pytest.raises(UserError) as error:
        privacy_confaide_tier1(source="benchmark")
    message = str(error.value)
    assert str(target) in message and expected in message and "trustmh data fetch confaide" in message


def test_a_truncated_cached_file_is_refused(shared_data: Path, isolated_cache: Path) -> None:
    target = _cache_copy(shared_data, isolated_cache, "confaide", "tier_1.txt")
    target.write_bytes(target.read_bytes()[:100])
    with pytest.raises(UserError, match="differs from the catalogue's"):
        resolve_file("confaide", "tier_1.txt")


def test_import_refuses_a_modified_file_of_a_partial_dataset(
    tmp_path: Path, shared_data: Path, isolated_cache: Path
) -> None:
    incoming = tmp_path / "incoming" / "confaide"
    incoming.mkdir(parents=True)
    text = (shared_data / "confaide" / "tier_1.txt").read_text(encoding="utf-8")
    (incoming / "tier_1.txt").write_text(text.replace("a", "b", 1), encoding="utf-8")  # labels absent: partial
    result = CliRunner().invoke(app, ["data", "import", str(tmp_path / "incoming")])
    assert result.exit_code == 2, result.output
    assert "tier_1.txt: sha256" in " ".join(result.output.split()) and "nothing imported" in result.output
    assert not (isolated_cache / "data" / "confaide").exists()
