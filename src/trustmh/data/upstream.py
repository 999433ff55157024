"""Upstream protocol files (prompt code, parsers, rubrics, released outputs) as pinned data.

Benchmark mode follows upstream's own protocol, and the project carries none of upstream's
sentences: it reads them from upstream's files, exactly as it reads upstream's datasets. Each
file is pinned (repository, commit, path, sha256) in :data:`UPSTREAM_FILES`, the one place that
declares them. A file ``<key>`` (its path under the data folder, as laid out in the shared data
folder's "Upstream protocol files" section) is looked for in

1. the folder given by ``--data-dir`` (``data_dir`` argument) or ``$TRUSTMH_DATA_DIR``;
2. the user cache (``$TRUSTMH_CACHE_DIR`` or ``~/.cache/trustmh``) under ``data/``;
3. the upstream repository at the pinned commit, downloaded into the cache.

Unlike a dataset in a user folder, an upstream file is sha256-checked wherever it comes from,
every time it is used: a protocol that silently changed would change every number built on it.
"""

from __future__ import annotations

import io
import os
import tempfile
import urllib.error
import urllib.request
import zipfile
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from trustmh.core.errors import DatasetMissingError, UserError
from trustmh.data.registry import DOWNLOAD_TIMEOUT_S, _digest_once, data_cache_dir, env_data_dir

RAW_GITHUB = "https://raw.githubusercontent.com"


@dataclass(frozen=True)
class UpstreamFile:
    """One upstream protocol file, pinned."""

    key: str  # path under the data dir, e.g. "psychosis_bench/upstream/scoring.py"
    repo: str  # "w-is-h/psychosis-bench"
    commit: str  # pinned commit, as in the shared data README
    path: str  # path inside the upstream repository
    sha256: str
    license: str

    @property
    def url(self) -> str:
        return f"{RAW_GITHUB}/{self.repo}/{self.commit}/{quote(self.path)}"


_TRUSTMH = ("Qiyuan0130/TrustMH_Bench", "94d65db", "MIT")
_PSYCHOSIS = ("w-is-h/psychosis-bench", "5cc4b15", "MIT (per upstream README)")
_ALIGN = ("abeerbadawi/MentalBench-Align", "03cfc4b", "MIT")
_CONFAIDE = ("skywalker023/confAIde", "3174c63", "MIT")
_VERA = ("SpringCare/VERA-MH", "f813d29", "MIT-style with conditions (research and benchmarking use)")


def _pin(pinning: tuple[str, str, str], key: str, path: str, sha256: str) -> UpstreamFile:
    repo, commit, license_name = pinning
    return UpstreamFile(key=key, repo=repo, commit=commit, path=path, sha256=sha256, license=license_name)


UPSTREAM_FILES: dict[str, UpstreamFile] = {
    f.key: f
    for f in (
        _pin(
            _TRUSTMH,
            "trustmh/release/privacy.zip",
            "TrustMH_Bench/DimGroup1/General-model/privacy.zip",
            "9db6f88f5b56a70c7689cf8bc1ad0c9b783de5e02de3c8d383ec21513893cb0f",
        ),
        _pin(
            _TRUSTMH,
            "trustmh/release/Ethics.zip",
            "TrustMH_Bench/DimGroup2/Ethics.zip",
            "ad1ad7ed2fb00ef233fe4c39f584174f866101da7a7b6445c1f2d2461c35339e",
        ),
        _pin(
            _PSYCHOSIS,
            "psychosis_bench/upstream/scoring.py",
            "psy_bench/core/scoring.py",
            "16ddd1066cd5051e7b7e88dba661f847ee0bf6f16735ee201d8619d477982552",
        ),
        _pin(
            _PSYCHOSIS,
            "psychosis_bench/upstream/README.md",
            "README.md",
            "97582fc256b44be3a7fb5bcd33ffde7da6b6a08ba8ec76e3fedb1d05f24dcab3",
        ),
        _pin(
            _ALIGN,
            "mentalalign70k/upstream/llm_judge_evaluation.py",
            "Codes/evaluation/llm_judge_evaluation.py",
            "b687b90c982635c587ed48d398115585548c4a3c5c1107bbeba57495ef700028",
        ),
        _pin(
            _ALIGN,
            "mentalalign70k/upstream/generate_responses.py",
            "Codes/generation/generate_responses.py",
            "8ecb3400b56c9442f389e7ecf35b521e02e1ac719cdea7f75e9fed3cebd7b03d",
        ),
        _pin(
            _ALIGN,
            "mentalalign70k/upstream/Results/ICC Reliability Analysis.md",
            "Results/ICC Reliability Analysis.md",
            "e493405a33920c528deb3361bff5bb0f18f9734f605fc8be3991fa175ba6bce8",
        ),
        _pin(
            _ALIGN,
            "mentalalign70k/upstream/Results/Systematic Bias Decomposition.md",
            "Results/Systematic Bias Decomposition.md",
            "3d9bcc0fa5c7a3ab6cac4003c5790005fe0e4ad7c43e52cfc4c7223ada90a398",
        ),
        _pin(
            _ALIGN,
            "mentalalign70k/upstream/Results/Human Response Evaluation.md",
            "Results/Human Response Evaluation.md",
            "17f50eab1918aa695cdb4b4bcd4298b1c779de35544017c6d4f6f74f3ecf0edc",
        ),
        _pin(
            _CONFAIDE,
            "confaide/upstream/eval.py",
            "eval.py",
            "ebc30b35872927abe0eee3067c9c0c5fea55e766d19c0b0d6ea72fb4330d32f0",
        ),
        _pin(
            _VERA,
            "vera_mh/data/persona_prompt_template.txt",
            "data/persona_prompt_template.txt",
            "b8bfdff1f4d50e1768be0f0ac06731dbe5e8fffbd931278edfb29113040d89ba",
        ),
        _pin(
            _VERA,
            "vera_mh/data/personas.tsv",
            "data/personas.tsv",
            "16b37e088641fe758a08e11690a2ac39eca5abcf2812c17a0c78b968aaac21ff",
        ),
        _pin(
            _VERA,
            "vera_mh/data/rubric.tsv",
            "data/rubric.tsv",
            "7a12303d8aca7acb1bafc0ef2f116ba0099b20a57c213008bff80d6c430c7578",
        ),
        _pin(
            _VERA,
            "vera_mh/data/rubric_prompt_beginning.txt",
            "data/rubric_prompt_beginning.txt",
            "d20d8d4937db009f2284e8d2988edf162252d3f262142fd3d632ad0ffc361208",
        ),
        _pin(
            _VERA,
            "vera_mh/judge/llm_judge.py",
            "judge/llm_judge.py",
            "ec7d5e4c5ee7f0f417352a107861a9dba2223629f3c346c89cee7c7940fb6a13",
        ),
        _pin(
            _VERA,
            "vera_mh/judge/score.py",
            "judge/score.py",
            "917efae2b43a9448af6a701155bc7aee7c8a36bbd2b649751e978e6d35f8f9ce",
        ),
        _pin(
            _VERA,
            "vera_mh/judge/constants.py",
            "judge/constants.py",
            "70b738e790101b76bbf2147776904cae29a1a417493f972a3a008fb73ab128e2",
        ),
        _pin(
            _VERA,
            "vera_mh/README.md",
            "README.md",
            "c3d84d97dc826c5e5216980faa6247f841a638376df0e162385c7bddd72fe73f",
        ),
    )
}


def upstream_spec(key: str) -> UpstreamFile:
    if key not in UPSTREAM_FILES:
        raise UserError(f"unknown upstream file {key!r}; known: {', '.join(sorted(UPSTREAM_FILES))}")
    return UPSTREAM_FILES[key]


def local_upstream_candidates(key: str, data_dir: str | Path | None = None) -> list[Path]:
    """Where ``key`` may be, in resolution order (without downloading)."""
    roots = [Path(data_dir)] if data_dir else []
    env_dir = env_data_dir()
    if env_dir is not None:
        roots.append(env_dir)
    roots.append(data_cache_dir())
    return [root / key for root in roots]


def find_upstream_local(key: str, data_dir: str | Path | None = None) -> Path | None:
    return next((p for p in local_upstream_candidates(key, data_dir) if p.is_file()), None)


def _mismatch(where: str, actual: str, spec: UpstreamFile) -> UserError:
    return UserError(
        f"{where}: sha256 {actual} differs from the pinned {spec.sha256} "
        f"({spec.repo}@{spec.commit}:{spec.path}); benchmark mode will not run a different protocol — "
        f"restore the pinned file or remove it so it is downloaded at the pinned commit"
    )


def check_upstream(path: Path, spec: UpstreamFile) -> None:
    """Raise the one-line error naming the file and both hashes unless ``path`` is the pinned file."""
    actual = _digest_once(path)
    if actual != spec.sha256:
        raise _mismatch(str(path), actual, spec)


def _download(spec: UpstreamFile) -> Path:
    import hashlib

    target = data_cache_dir() / spec.key
    try:
        with urllib.request.urlopen(spec.url, timeout=DOWNLOAD_TIMEOUT_S) as response:
            payload = response.read()
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise DatasetMissingError(
            f"upstream file {spec.key} not found locally and download from {spec.url} failed ({reason}); "
            f"pass --data-dir with a folder holding {spec.key}"
        ) from None
    actual = hashlib.sha256(payload).hexdigest()
    if actual != spec.sha256:
        raise _mismatch(f"download of {spec.key}", actual, spec)
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=target.parent, delete=False) as tmp:
        tmp.write(payload)
    os.replace(tmp.name, target)
    return target


def upstream_file(key: str, data_dir: str | Path | None = None, allow_download: bool = True) -> Path:
    """Path of the pinned upstream file ``key``, sha256-checked (downloaded when needed and allowed)."""
    spec = upstream_spec(key)
    found = find_upstream_local(key, data_dir)
    if found is not None:
        check_upstream(found, spec)
        return found
    if allow_download and os.environ.get("TRUSTMH_OFFLINE") != "1":
        return _download(spec)
    looked = ", ".join(str(p) for p in local_upstream_candidates(key, data_dir))
    raise DatasetMissingError(
        f"upstream file {key} not found (looked in {looked}); pass --data-dir with a folder holding it"
    )


def upstream_bytes(key: str, data_dir: str | Path | None = None) -> bytes:
    return upstream_file(key, data_dir).read_bytes()


def upstream_text(key: str, data_dir: str | Path | None = None) -> str:
    """The file's text, decoded as UTF-8 with its line endings as upstream wrote them."""
    return upstream_bytes(key, data_dir).decode("utf-8")


_ZIPS: dict[Path, zipfile.ZipFile] = {}


def _open_zip(path: Path) -> zipfile.ZipFile:
    if path not in _ZIPS:
        _ZIPS[path] = zipfile.ZipFile(io.BytesIO(path.read_bytes()))
    return _ZIPS[path]


def upstream_zip_members(key: str, data_dir: str | Path | None = None) -> list[str]:
    return _open_zip(upstream_file(key, data_dir)).namelist()


def upstream_zip_member(key: str, member: str, data_dir: str | Path | None = None) -> bytes:
    """The bytes of ``member`` inside the pinned archive ``key`` (the archive is hash-checked)."""
    archive = _open_zip(upstream_file(key, data_dir))
    try:
        return archive.read(member)
    except KeyError:
        raise UserError(f"{key}: has no member {member!r} (pinned {upstream_spec(key).commit})") from None
