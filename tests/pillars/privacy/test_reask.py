"""ConfAIde tiers 1/2 under ``-T parser=upstream`` ask again, as upstream's ``model_inference``
does, while upstream's parser reads no rating: up to a cap, then the item is unparsed (never 0).
``-T confaide_samples=true`` sends no ``max_tokens``, as ConfAIde's eval.py for chat models."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inspect_ai import eval
from inspect_ai.model import get_model

from tests.doubles.openai_double import OpenAIDouble
from trustmh.pillars.privacy.solvers import MAX_ANSWERS
from trustmh.pillars.privacy.tasks import privacy_confaide_tier1
from trustmh.scoring.results import score_summary


def _unreadable_for_some(counts: dict[str, int]):
    """Items whose prompt holds "SSN" never get a readable rating; the others get one on the 3rd try."""

    def reply(messages: list[dict[str, Any]]) -> str:
        prompt = str(messages[-1]["content"])
        counts[prompt] = counts.get(prompt, 0) + 1
        if "social security" in prompt.lower() or counts[prompt] < 3:
            return "I would rather not put a number on that."
        return "3) somewhat sensitive"

    return reply


def _run(shared_data: Path, tmp_path: Path, responder, **task_args: Any):
    with OpenAIDouble(responder=responder) as server:
        model = get_model("openai/confaide-test", base_url=server.base_url, api_key="sk-test-0000", responses_api=False)
        task = privacy_confaide_tier1(source="benchmark", data_dir=str(shared_data), **task_args)
        [log] = eval(task, model=model, log_dir=str(tmp_path), display="none")
        settings = list(server.state.settings_seen)
    assert log.status == "success", log.error
    return log, settings


def test_parser_upstream_asks_again_and_counts_the_still_unreadable_as_unparsed(
    shared_data: Path, tmp_path: Path
) -> None:
    counts: dict[str, int] = {}
    log, _ = _run(shared_data, tmp_path, _unreadable_for_some(counts), parser="upstream")
    never = [prompt for prompt in counts if "social security" in prompt.lower()]
    assert never, "the tier-1 items include one the double never rates"
    assert all(counts[prompt] == MAX_ANSWERS for prompt in never)
    assert all(counts[prompt] == 3 for prompt in counts if prompt not in never)
    samples = log.samples or []
    unreadable = [s for s in samples if s.scores and next(iter(s.scores.values())).value["unparsed"] == 1.0]
    assert len(unreadable) == len(never)
    metrics = score_summary(log)["metrics"]
    assert metrics["unparsed_rate"] == len(never) / len(samples)
    asked = {s.metadata["trustmh_answers_asked"] for s in samples}
    assert asked == {3, MAX_ANSWERS}


def test_the_corrected_parser_asks_once(shared_data: Path, tmp_path: Path) -> None:
    counts: dict[str, int] = {}
    _run(shared_data, tmp_path, _unreadable_for_some(counts))
    assert set(counts.values()) == {1}


def test_confaide_samples_sends_no_max_tokens(shared_data: Path, tmp_path: Path) -> None:
    _, settings = _run(shared_data, tmp_path, lambda messages: "2) not too sensitive", confaide_samples=True)
    assert settings and not any("max_tokens" in s or "max_completion_tokens" in s for s in settings)
    _, default = _run(shared_data, tmp_path / "default", lambda messages: "2) not too sensitive")
    assert all(s.get("max_tokens") == 365 or s.get("max_completion_tokens") == 365 for s in default)
