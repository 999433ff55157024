"""The bulk cache keys each call on the endpoint too (issue 25, item 3): chatbot B on another
server, run with the cache of chatbot A and the same model name, is called."""

from __future__ import annotations

from pathlib import Path

from tests.bulk.cli import common, generate, invoke, read_csv
from tests.doubles.openai_double import OpenAIDouble
from trustmh.bulk.request import ChatRequest


def test_generate_with_another_base_url_calls_the_other_server(tmp_path: Path, tiny_csv: Path, fake_key: str) -> None:
    answers = {}
    for name in ("A", "B"):
        out = tmp_path / f"{name}.csv"
        with OpenAIDouble(responder=lambda messages, name=name: f"I am chatbot {name}.") as server:
            code, output = invoke(*generate(tiny_csv, out, model="openai/chatbot"), *common(server.base_url, tmp_path))
            answers[name] = ({row["chatbot"] for row in read_csv(out)}, sum(server.request_counts.values()))
        assert code == 0, output
    assert answers == {"A": ({"I am chatbot A."}, 3), "B": ({"I am chatbot B."}, 3)}


def test_the_default_endpoint_keeps_the_keys_a_cache_was_written_with() -> None:
    request = ChatRequest("openai/m", ({"role": "user", "content": "hi"},))
    assert ChatRequest("openai/m", request.messages, endpoint="").cache_key() == request.cache_key()
    assert ChatRequest("openai/m", request.messages, endpoint="http://b/v1").cache_key() != request.cache_key()
