import hashlib
import shutil

import pytest

from trustmh.core.errors import DatasetMissingError, UserError
from trustmh.data import registry
from trustmh.data.registry import download, resolve_file
from trustmh.data.spec import DataFile, DatasetSpec


def test_resolution_order_data_dir_env_cache(tmp_path, monkeypatch, isolated_cache):
    for root in ("explicit", "env"):
        (tmp_path / root / "confaide").mkdir(parents=True)
        (tmp_path / root / "confaide" / "tier_1.txt").write_text(root)
    (isolated_cache / "data" / "confaide").mkdir(parents=True)
    (isolated_cache / "data" / "confaide" / "tier_1.txt").write_text("cache")
    monkeypatch.setenv("TRUSTMH_DATA_DIR", str(tmp_path / "env"))
    assert resolve_file("confaide", "tier_1.txt", tmp_path / "explicit").read_text() == "explicit"
    assert resolve_file("confaide", "tier_1.txt").read_text() == "env"
    monkeypatch.delenv("TRUSTMH_DATA_DIR")
    # the cache is reached, and its copy is checked against the catalogue before use
    with pytest.raises(UserError, match=r"confaide/tier_1.txt: sha256 .* differs from the catalogue's"):
        resolve_file("confaide", "tier_1.txt")


def test_missing_offline_names_dataset_file_and_fix(tmp_path):
    with pytest.raises(DatasetMissingError) as error:
        resolve_file("confaide", "tier_1.txt", tmp_path)
    message = str(error.value)
    assert "'confaide'" in message and "tier_1.txt" in message and "trustmh data fetch confaide" in message


def test_download_verifies_checksum_and_writes_whole_file(tmp_path, isolated_cache):
    upstream = tmp_path / "upstream.txt"
    upstream.write_text("payload")
    digest = hashlib.sha256(b"payload").hexdigest()
    good = DatasetSpec("demo", ("privacy",), "demo", ("x",), "MIT", (DataFile("a.txt", digest, upstream.as_uri()),))
    path = download(good, good.files[0])
    assert path.read_text() == "payload" and path.parent == isolated_cache / "data" / "demo"
    bad = DatasetSpec("demo2", ("privacy",), "demo", ("x",), "MIT", (DataFile("a.txt", "0" * 64, upstream.as_uri()),))
    with pytest.raises(UserError, match="nothing was saved"):
        download(bad, bad.files[0])
    assert not (isolated_cache / "data" / "demo2" / "a.txt").exists()


def test_catalog_checksums_match_the_real_files(shared_data):
    mismatches = []
    for spec in registry.list_datasets():
        for data_file in spec.files:
            path = shared_data / spec.name / data_file.name
            if data_file.sha256 and path.exists() and registry.verify_file(path, data_file):
                mismatches.append(f"{spec.name}/{data_file.name}")
    assert mismatches == []


def test_unknown_dataset():
    with pytest.raises(UserError, match="unknown dataset 'nope'"):
        registry.get_dataset("nope")


def test_import_then_resolve_from_cache(tmp_path, shared_data, isolated_cache):
    from typer.testing import CliRunner

    from trustmh.cli.main import app

    source = tmp_path / "incoming" / "confaide"
    source.mkdir(parents=True)
    shutil.copy(shared_data / "confaide" / "tier_1.txt", source / "tier_1.txt")
    result = CliRunner().invoke(app, ["data", "import", str(tmp_path / "incoming")])
    assert result.exit_code == 0, result.output
    assert resolve_file("confaide", "tier_1.txt") == isolated_cache / "data" / "confaide" / "tier_1.txt"
