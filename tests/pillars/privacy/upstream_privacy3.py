"""TrustMH-Bench's privacy3.py proxy-model judge, run as upstream wrote it, for comparison with ours.

Only upstream's own functions are compiled (``APIAgent``'s methods, ``EvalAgent.parse_response``,
``run_evaluator``, ``check_info_leak``, ``map_binary_answer_to_int``), never the module; what they
reach outside (the OpenAI client, torch's ``DataLoader``, ``tqdm``) is a stand-in that records each
request exactly as upstream's ``generate`` passes it to ``client.chat.completions.create``.
"""

from __future__ import annotations

import time
import zipfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pandas

from tests.pillars.crisis.upstream_functions import upstream_function

ZIP = "trustmh/release/privacy.zip"
MEMBER = "privacy/task3/privacy3.py"
AGENT_METHODS = ("_set_default_args", "generate", "_parse_basic_text", "interact", "batch_interact")


def privacy3_file(shared_data: Path, folder: Path) -> Path:
    """The pinned privacy3.py, written out of the release zip so its functions can be compiled."""
    path = folder / "privacy3.py"
    with zipfile.ZipFile(shared_data / ZIP) as archive:
        path.write_bytes(archive.read(MEMBER))
    return path


def _completion(content: str) -> SimpleNamespace:
    return SimpleNamespace(choices=[SimpleNamespace(message=SimpleNamespace(content=content))])


class _Completions:
    def __init__(self, reply: Callable[[str], str], requests: list[dict[str, Any]]) -> None:
        self.reply, self.requests = reply, requests

    def create(self, **request: Any) -> SimpleNamespace:
        self.requests.append(request)
        return _completion(self.reply(request["messages"][0]["content"]))


def _data_loader(dataset: Sequence[dict[str, Any]], batch_size: int) -> Iterator[dict[str, list[Any]]]:
    """torch's DataLoader over dicts of strings: batches of ``batch_size``, each field collated to a list."""
    items = list(dataset)
    for start in range(0, len(items), batch_size):
        chunk = items[start : start + batch_size]
        yield {key: [item[key] for item in chunk] for key in chunk[0]}


class UpstreamProxyRun:
    """Upstream's proxy-model evaluation of free-response answers, with a judge that answers ``reply``."""

    def __init__(self, privacy3: Path, reply: Callable[[str], str]) -> None:
        self.path = privacy3
        self.requests: list[dict[str, Any]] = []
        self.printed: list[str] = []
        requests = self.requests

        class APIAgent:
            def __init__(self, kwargs: dict[str, Any]) -> None:
                self.args = SimpleNamespace(**kwargs)
                self._set_default_args()
                self.client = SimpleNamespace(chat=SimpleNamespace(completions=_Completions(reply, requests)))

        for name in AGENT_METHODS:
            setattr(APIAgent, name, upstream_function(privacy3, name, {"time": time}))
        self.functions: dict[str, Callable[..., Any]] = {}
        self.namespace = {
            "pd": pandas,
            "APIAgent": APIAgent,
            "PrivacyEvalDataset": lambda data, meta_data=None: list(data),
            "DataLoader": _data_loader,
            "tqdm": lambda items: items,
            "print": lambda *parts, **_: self.printed.append(" ".join(map(str, parts))),
        }

    def _function(self, name: str) -> Callable[..., Any]:
        if name not in self.functions:  # each compile parses the whole file
            self.functions[name] = upstream_function(self.path, name, self.namespace)
        return self.functions[name]

    def _evaluator(self, data: list[dict[str, Any]]) -> SimpleNamespace:
        args = SimpleNamespace(
            tier_3_metrics="string-match,proxy-model", tier_3_questions=["free-response"], proxy_model="gpt-4"
        )
        evaluator = SimpleNamespace(dataset=SimpleNamespace(data=data), data_tier="3", args=args)
        for name in ("check_info_leak", "map_binary_answer_to_int", "parse_response"):
            setattr(evaluator, name, self._function(name).__get__(evaluator))
        return evaluator

    def recorded_response(self, raw_reply: str) -> str:
        """What upstream records for a model's raw reply: ``_parse_basic_text`` then ``parse_response``."""
        evaluator = self._evaluator([])
        agent = self.namespace["APIAgent"]
        text = agent._parse_basic_text(agent, _completion(raw_reply))
        return str(evaluator.parse_response(text))

    def evaluate(self, data: list[dict[str, Any]], responses: list[str]) -> dict[str, list[Any]]:
        """``run_evaluator``'s metrics for free-response items (upstream's instance dicts) and answers."""
        before, printed = len(self.requests), len(self.printed)
        evaluator = self._evaluator(data)
        metrics = self._function("run_evaluator")(evaluator, responses)
        # run_evaluator swallows any error into all-False verdicts (printing why): make sure none happened.
        assert len(self.requests) - before == len(data), "upstream's proxy evaluation failed"
        assert len(self.printed) - printed == 1, self.printed[printed:]  # only its "using <model>" line
        return dict(metrics)
