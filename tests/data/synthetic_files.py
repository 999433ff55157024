"""Small files in the documented formats of the access-controlled datasets (SWMH, D4), for loader and task tests."""

from __future__ import annotations

import csv
import json
from pathlib import Path


def write_swmh(root: Path, rows: list[tuple[str, str]], split: str = "test") -> Path:
    folder = root / "swmh"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{split}.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label"])
        writer.writerows(rows)
    return root


def d4_session(drisk: object, srisk: object, log_key: str = "log") -> dict:
    return {
        log_key: [
            {"text": "你好，最近心情怎么样？", "action": "情绪", "speaker": "doctor", "topic": []},
            {"text": "不太好。", "action": None, "speaker": "patient", "topic": []},
            {"text": "", "action": None, "speaker": "patient", "topic": []},
        ],
        "portrait": {"drisk": 1, "srisk": 0, "age": "20", "symptoms": "情绪"},
        "record": {"drisk": drisk, "srisk": srisk, "summary": "情绪低落。"},
    }


def write_d4(root: Path, sessions: list[dict], split: str = "test") -> Path:
    folder = root / "d4"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"raw_data_{split}.json").write_text(json.dumps(sessions, ensure_ascii=False), encoding="utf-8")
    return root
