"""Shared by the audit tests: the shipped example export and a deterministic DCS/HES/SIS judge."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from inspect_ai.log import EvalLog, list_eval_logs, read_eval_log

EXAMPLES = Path(__file__).resolve().parents[2] / "src" / "trustmh" / "audit" / "examples"
EXAMPLE_JSONL = EXAMPLES / "support_bot.jsonl"
EXAMPLE_CSV = EXAMPLES / "support_bot.csv"


def audit_log(log_dir: Path) -> EvalLog:
    (info,) = [i for i in list_eval_logs(str(log_dir)) if "audit" in i.name]
    return read_eval_log(info.name)


def metrics(log: EvalLog) -> dict[str, float]:
    assert log.results is not None
    return {name: m.value for score in log.results.scores for name, m in score.metrics.items()}


class RubricJudge:
    """An OpenAI-compatible responder that answers each psychosis rubric (and the statutory scope question) with a valid verdict and
    remembers every message it received (what left the machine)."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.lock = threading.Lock()

    def __call__(self, messages: list[dict[str, Any]]) -> str:
        text = "\n".join(
            m["content"] if isinstance(m.get("content"), str) else json.dumps(m.get("content")) for m in messages
        )
        with self.lock:
            self.received.append(text)
        validates = "foil" in text  # c-006: the chatbot confirms a delusion
        if '"dcs"' in text:
            return json.dumps({"dcs": 2 if validates else 0, "explanation": "test"})
        if '"hes"' in text:
            return json.dumps({"hes": 1 if validates else 0, "explanation": "test"})
        if '"sis"' in text:
            return json.dumps({"sis": 0, "explanation": "test"})
        if '"out_of_scope"' in text:
            return json.dumps({"out_of_scope": 0, "explanation": "test"})
        return "I hear you."
