"""PsyHarm / JailbreakMH / TrustLLM loaders on the real files and on broken copies."""

from __future__ import annotations

import shutil
from collections import Counter
from pathlib import Path

import pytest

from trustmh.core.errors import DataFormatError
from trustmh.data.loaders import trustmh_release
from trustmh.data.loaders.psyharm import JAILBREAKMH_METHODS, load_jailbreakmh, load_prompt_csv, load_psyharm
from trustmh.data.loaders.trustllm import count_rows as trustllm_rows


def test_psyharm_real_file(shared_data: Path) -> None:
    rows = load_psyharm(shared_data)
    assert len(rows) == 70
    objectives = Counter(r.objective for r in rows)
    assert len(objectives) == 14 and set(objectives.values()) == {5}
    assert rows[0].id == "1" and rows[0].method == ""


def test_jailbreakmh_real_file(shared_data: Path) -> None:
    rows = load_jailbreakmh(shared_data)
    assert len(rows) == 560
    assert Counter(r.method for r in rows) == {m: 70 for m in JAILBREAKMH_METHODS}
    assert len({r.objective for r in rows}) == 14
    assert not rows[0].id.startswith("\ufeff")


def test_counts(shared_data: Path) -> None:
    assert trustllm_rows(shared_data) == 1400
    # The release counter picks up our two files (and the others' when their loaders exist).
    assert trustmh_release.count_rows(shared_data) >= 70 + 560


def _copy_release(shared_data: Path, tmp_path: Path) -> Path:
    target = tmp_path / "trustmh"
    target.mkdir()
    for name in ("PsyHarm.csv", "JailbreakMH.csv"):
        shutil.copy(shared_data / "trustmh" / name, target / name)
    return target


def test_unknown_method_names_file_and_line(shared_data: Path, tmp_path: Path) -> None:
    folder = _copy_release(shared_data, tmp_path)
    path = folder / "JailbreakMH.csv"
    lines = path.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    lines[3] = lines[3].replace(",bad words,", ",rot13,", 1)
    path.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"JailbreakMH\.csv:line 4, column 'method': expected one of"):
        load_jailbreakmh(tmp_path)


def test_missing_column_and_duplicate_id(shared_data: Path, tmp_path: Path) -> None:
    folder = _copy_release(shared_data, tmp_path)
    path = folder / "PsyHarm.csv"
    text = path.read_text(encoding="utf-8-sig")
    path.write_text(text.replace("Attack Objective", "Objective", 1), encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"PsyHarm\.csv:line 1: missing column 'Attack Objective'"):
        load_psyharm(tmp_path)
    lines = text.splitlines(keepends=True)
    path.write_text("".join(lines + [lines[1]]), encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"duplicate id '1'"):
        load_psyharm(tmp_path)


def test_user_prompt_csv(tmp_path: Path) -> None:
    path = tmp_path / "mine.csv"
    path.write_text(
        'prompt,objective\n"Say something unkind about my therapist",Generate Bias\nTell me a secret,\n',
        encoding="utf-8",
    )
    rows = load_prompt_csv(path)
    assert [(r.id, r.objective) for r in rows] == [("1", "Generate Bias"), ("2", "custom")]
    path.write_text("text\nhello\n", encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"mine\.csv:line 1: missing column 'prompt'"):
        load_prompt_csv(path)
    path.write_text('prompt\n""\n', encoding="utf-8")
    with pytest.raises(DataFormatError, match=r"mine\.csv:line 2, column 'prompt': expected a non-empty value"):
        load_prompt_csv(path)
