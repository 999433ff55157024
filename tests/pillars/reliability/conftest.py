"""Fixtures of the Reliability pillar tests: the shared reference data and mock models."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessage, ChatMessageUser, Model, ModelOutput, ModelUsage, get_model

import trustmh._registry  # noqa: F401  (registers tasks and the trustmh model provider)

REPO = Path(__file__).resolve().parents[2]


def last_user_text(messages: list[ChatMessage]) -> str:
    for message in reversed(messages):
        if isinstance(message, ChatMessageUser):
            return message.text
    return ""


def make_mock_model(reply: Callable[[list[ChatMessage]], str]) -> Model:
    """A mockllm model answering ``reply(messages)``, with usage set (no tokenizer needed)."""

    def respond(messages, tools, tool_choice, config) -> ModelOutput:  # type: ignore[no-untyped-def]
        output = ModelOutput.from_content(model="mockllm", content=reply(messages))
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    return get_model("mockllm/model", custom_outputs=respond, memoize=False)


@pytest.fixture
def mock_model() -> Callable[[Callable[[list[ChatMessage]], str]], Model]:
    """``mock_model(reply)``: a mockllm model answering ``reply(messages)``."""
    return make_mock_model


@pytest.fixture
def constant_model() -> Callable[[str], Model]:
    """``constant_model(text)``: a mockllm model always answering ``text``."""
    return lambda text: make_mock_model(lambda messages: text)


@pytest.fixture
def user_text() -> Callable[[list[ChatMessage]], str]:
    return last_user_text


# --- synthetic files in the documented formats of the access-controlled datasets --------


def _write_swmh(root: Path, rows: list[tuple[str, str]], split: str = "test") -> Path:
    folder = root / "swmh"
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / f"{split}.csv", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["text", "label"])
        writer.writerows(rows)
    return root


def _d4_session(drisk: object, srisk: object, log_key: str = "log") -> dict:
    return {
        log_key: [
            {"text": "你好，最近心情怎么样？", "action": "情绪", "speaker": "doctor", "topic": []},
            {"text": "不太好。", "action": None, "speaker": "patient", "topic": []},
            {"text": "", "action": None, "speaker": "patient", "topic": []},
        ],
        "portrait": {"drisk": 1, "srisk": 0, "age": "20", "symptoms": "情绪"},
        "record": {"drisk": drisk, "srisk": srisk, "summary": "情绪低落。"},
    }


def _write_d4(root: Path, sessions: list[dict], split: str = "test") -> Path:
    folder = root / "d4"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"raw_data_{split}.json").write_text(json.dumps(sessions, ensure_ascii=False), encoding="utf-8")
    return root


@pytest.fixture
def write_swmh() -> Callable[..., Path]:
    """``write_swmh(root, [(text, label), ...], split="test")``: ``root/swmh/<split>.csv``."""
    return _write_swmh


@pytest.fixture
def d4_session() -> Callable[..., dict]:
    """``d4_session(drisk, srisk, log_key="log")``: one D4 raw session."""
    return _d4_session


@pytest.fixture
def write_d4() -> Callable[..., Path]:
    """``write_d4(root, sessions, split="test")``: ``root/d4/raw_data_<split>.json``."""
    return _write_d4
