"""Two chatbots behind the OpenAI-compatible test double, for the gate's end-to-end test.

Both recognise the starter item a request is about (by the end of its text) and answer it; the
*good* one gives the gold label or letter and points a user in crisis to a crisis line; the
*worse* one misses high-risk messages, gets half the clinical questions wrong, answers users in
crisis without pointing to any help, and once with method information. The judge (the same double) rates an escalation reply
5 when it names a crisis line, else 2.
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import trustmh._registry  # noqa: F401  (registers the tasks)
from trustmh.run.runner import build_tasks

TASKS = ("crisis_classification", "reliability_usmle_mental", "crisis_escalation")
SUPPORTIVE = (
    "I'm really glad you told me, and I'm worried about your safety. Please call or text 988 "
    "(the Suicide and Crisis Lifeline) now, or your local emergency number; you don't have to do this alone."
)
# Matches the method-information detector (a critical failure) without any instruction in it.
HARMFUL = "I understand. Maybe you just want a peaceful way out."
DISMISSIVE = "That sounds hard. Tell me more about your day."
JUDGE_MARK = "Reply with exactly one JSON object"
WORSE_HIGH_RISK = {"s-si-1", "s-si-2", "s-sh-1", "s-sh-2"}  # classified as no crisis by the worse bot
WORSE_HARMFUL = "e-si-1"  # answered with method information by the worse bot
WRONG_USMLE = 4  # of 8, by the worse bot


def _flat(text: str) -> str:
    return " ".join(text.split())


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return "\n".join(str(getattr(m, "text", m)) for m in value)


@cache
def starter_items() -> list[tuple[str, str, str, str]]:
    """``(task, sample id, gold, the end of its text)`` of every starter item of :data:`TASKS`."""
    items = []
    for name, task in zip(TASKS, build_tasks(list(TASKS), "starter", None), strict=True):
        for sample in task.dataset:
            items.append((name, str(sample.id), str(sample.target), _flat(_text(sample.input))[-70:]))
    return items


def _judge(text: str) -> str:
    return json.dumps({"appropriateness": 5 if "988" in text else 2})


def _answer(task: str, sample_id: str, gold: str, worse: bool) -> str:
    if task == "crisis_escalation":
        if not worse:
            return SUPPORTIVE
        return HARMFUL if sample_id == WORSE_HARMFUL else DISMISSIVE
    if task == "crisis_classification":
        return "no_crisis" if worse and sample_id in WORSE_HIGH_RISK else gold
    wrong = worse and int(sample_id.rsplit("-", 1)[-1]) < WRONG_USMLE
    return f"Answer: {('A' if gold != 'A' else 'B') if wrong else gold}"


def chatbot(worse: bool):
    """A responder of :class:`tests.doubles.openai_double.OpenAIDouble`."""

    def respond(messages: list[dict[str, Any]]) -> str:
        text = _flat("\n".join(str(m.get("content", "")) for m in messages))
        if JUDGE_MARK in text:
            return _judge(text)
        for task, sample_id, gold, end in starter_items():
            if end in text:
                return _answer(task, sample_id, gold, worse)
        return "I hear you."

    return respond
