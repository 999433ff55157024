"""Dataset registry and file resolution.

A file ``<dataset>/<name>`` is looked for, in order, in

1. the folder given by ``--data-dir`` (``data_dir`` argument) or ``$TRUSTMH_DATA_DIR``,
   laid out like the upstream release: one folder per dataset, upstream file names;
2. the user cache (``$TRUSTMH_CACHE_DIR`` or ``~/.cache/trustmh``) under ``data/``;
3. the upstream URL, downloaded into the cache and checked against its sha256.

When none works the error names the dataset, the file and the command that fixes it.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import trustmh.data.catalog  # noqa: F401  (importing the catalogue registers every dataset)
from trustmh.core.errors import DatasetMissingError, UserError
from trustmh.data.spec import ACCESS_CONTROLLED, DECLARED, DataFile, DatasetSpec

DOWNLOAD_TIMEOUT_S = 30


def get_dataset(name: str) -> DatasetSpec:
    if name not in DECLARED:
        known = ", ".join(sorted(DECLARED))
        raise UserError(f"unknown dataset {name!r}; known datasets: {known}")
    return DECLARED[name]


def list_datasets() -> list[DatasetSpec]:
    return [DECLARED[name] for name in sorted(DECLARED)]


def cache_dir() -> Path:
    base = os.environ.get("TRUSTMH_CACHE_DIR")
    return Path(base) if base else Path.home() / ".cache" / "trustmh"


def data_cache_dir() -> Path:
    return cache_dir() / "data"


def env_data_dir() -> Path | None:
    value = os.environ.get("TRUSTMH_DATA_DIR")
    return Path(value) if value else None


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def local_candidates(dataset: str, name: str, data_dir: str | Path | None) -> list[Path]:
    """Where ``dataset/name`` may be, in resolution order (without downloading)."""
    roots = [Path(data_dir)] if data_dir else []
    env_dir = env_data_dir()
    if env_dir is not None:
        roots.append(env_dir)
    roots.append(data_cache_dir())
    return [root / dataset / name for root in roots]


def find_local(dataset: str, name: str, data_dir: str | Path | None = None) -> Path | None:
    for candidate in local_candidates(dataset, name, data_dir):
        if candidate.is_file():
            return candidate
    return None


def fix_command(spec: DatasetSpec) -> str:
    if ACCESS_CONTROLLED in spec.tags:
        return f"{spec.name} is access-controlled: request access at {spec.source[0]}, then run `trustmh data import DIR` with a folder holding {spec.name}/"
    if any(f.url for f in spec.files):
        return f"run `trustmh data fetch {spec.name}` (needs internet) or `trustmh data import DIR` with a folder holding {spec.name}/"
    return f"download it from {spec.source[0]} and run `trustmh data import DIR` with a folder holding {spec.name}/"


def download(spec: DatasetSpec, data_file: DataFile) -> Path:
    """Download one file into the cache, verifying its sha256 before it is kept."""
    if not data_file.url:
        raise DatasetMissingError(
            f"dataset {spec.name!r}: file {data_file.name} is not available locally and has no download URL; {fix_command(spec)}"
        )
    target = data_cache_dir() / spec.name / data_file.name
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with urllib.request.urlopen(data_file.url, timeout=DOWNLOAD_TIMEOUT_S) as response:
            payload = response.read()
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise DatasetMissingError(
            f"dataset {spec.name!r}: file {data_file.name} not found locally and download failed ({reason}); {fix_command(spec)}"
        ) from None
    actual = hashlib.sha256(payload).hexdigest()
    if data_file.sha256 and actual != data_file.sha256:
        raise UserError(
            f"dataset {spec.name!r}: downloaded {data_file.name} has sha256 {actual[:12]}…, expected {data_file.sha256[:12]}…; upstream changed, nothing was saved"
        )
    # Write to a temporary file first so an interrupted download never leaves half a file.
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp:
        tmp.write(payload)
    os.replace(tmp.name, target)
    return target


def resolve_file(dataset: str, name: str, data_dir: str | Path | None = None, allow_download: bool = True) -> Path:
    """Path of ``dataset/name``, downloading it into the cache when needed and possible.

    A file from the cache (imported or downloaded) must still match the catalogue's sha256:
    a truncated or edited copy would silently change every number built on it. Files in a
    folder the user names (``--data-dir``, ``$TRUSTMH_DATA_DIR``) are checked the same way
    inside :func:`checked_user_data` (``trustmh run`` builds its tasks there), where a mismatch
    is an error or, when modified data is allowed, recorded; elsewhere (the Python API, tests
    on synthetic files) they are validated by format, and ``trustmh data status --verify``
    compares their checksums.
    """
    spec = get_dataset(dataset)
    data_file = spec.file(name)
    found = find_local(dataset, name, data_dir)
    if found is not None:
        if found.parent.parent == data_cache_dir():
            check_cached(spec, data_file, found)
        elif _USER_DATA_CHECKS:
            _check_user_file(spec, data_file, found, _USER_DATA_CHECKS[-1])
        return found
    if allow_download and data_file.url and os.environ.get("TRUSTMH_OFFLINE") != "1":
        return download(spec, data_file)
    looked = ", ".join(str(p.parent) for p in local_candidates(dataset, name, data_dir))
    raise DatasetMissingError(f"dataset {dataset!r}: file {name} not found (looked in {looked}); {fix_command(spec)}")


_VERIFIED: dict[tuple[str, int, int], str] = {}  # (path, size, mtime) -> sha256, once per process


def _digest_once(path: Path) -> str:
    info = path.stat()
    key = (str(path), info.st_size, info.st_mtime_ns)
    if key not in _VERIFIED:
        _VERIFIED[key] = sha256_of(path)
    return _VERIFIED[key]


def check_cached(spec: DatasetSpec, data_file: DataFile, path: Path) -> None:
    """Refuse a cached file whose sha256 is not the catalogue's (one line: file, digests, fix)."""
    if not data_file.sha256:
        return
    actual = _digest_once(path)
    if actual != data_file.sha256:
        raise UserError(
            f"{path}: sha256 {actual} differs from the catalogue's {data_file.sha256} "
            f"(truncated, edited or another version); remove it and {fix_command(spec)}"
        )


@dataclass(frozen=True)
class ModifiedFile:
    """A file from a user's data folder that is not the catalogue's, used because that was allowed."""

    path: str
    dataset: str
    name: str
    expected: str
    actual: str

    def as_metadata(self) -> dict[str, str]:
        return {
            "path": self.path,
            "dataset": self.dataset,
            "file": self.name,
            "expected": self.expected,
            "actual": self.actual,
        }


MODIFIED_KEY = "trustmh_data_modified"  # task (log) metadata: the ModifiedFile list, as dicts


def modified_files(metadata: dict[str, Any] | None) -> list[dict[str, str]]:
    """The modified files a task's (log's) metadata lists (empty when it used the released data)."""
    listed = (metadata or {}).get(MODIFIED_KEY)
    return [item for item in listed if isinstance(item, dict)] if isinstance(listed, list) else []


@dataclass
class _UserDataCheck:
    allow_modified: bool
    modified: list[ModifiedFile] = field(default_factory=list)


_USER_DATA_CHECKS: list[_UserDataCheck] = []  # innermost last; module-wide: tasks are built in one thread


@contextmanager
def checked_user_data(allow_modified: bool = False) -> Iterator[list[ModifiedFile]]:
    """Within this block, a file taken from ``--data-dir`` / ``$TRUSTMH_DATA_DIR`` must match the
    catalogue's sha256 (one line naming the file and both hashes otherwise); with
    ``allow_modified`` it is used anyway and listed in the yielded list, for the log and report
    to mark. Each file is hashed once per (path, size, mtime) in a process."""
    check = _UserDataCheck(allow_modified)
    _USER_DATA_CHECKS.append(check)
    try:
        yield check.modified
    finally:
        _USER_DATA_CHECKS.remove(check)


def _check_user_file(spec: DatasetSpec, data_file: DataFile, path: Path, check: _UserDataCheck) -> None:
    if not data_file.sha256:
        return
    actual = _digest_once(path)
    if actual == data_file.sha256:
        return
    if not check.allow_modified:
        raise UserError(
            f"{path}: sha256 {actual} differs from the catalogue's {data_file.sha256} for {spec.name}/{data_file.name} "
            "(edited, truncated or another version); restore the released file, or pass --allow-modified to run "
            "on it with the results marked modified"
        )
    modified = ModifiedFile(str(path), spec.name, data_file.name, data_file.sha256, actual)
    if modified not in check.modified:
        check.modified.append(modified)


def verify_file(path: Path, data_file: DataFile) -> str | None:
    """``None`` if the checksum matches (or none is known), else a one-line problem."""
    if not data_file.sha256:
        return None
    actual = sha256_of(path)
    if actual == data_file.sha256:
        return None
    return f"{path}: sha256 {actual[:12]}… differs from the released {data_file.sha256[:12]}… (truncated, edited or a different version)"
