"""Scripted models of the conversation tests: a target whose answers carry a turn tag, and a
judge whose verdict for each (case, turn, score) is fixed in advance."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping

from tests.fakes import script

TAG = re.compile(r"<<(\w+)-(\d+)>>")
UNPARSED = "unparsed"


def tagging_target(name: str, tags: Mapping[str, str], fail_on: str | None = None) -> str:
    """``scripted/<name>``: answers each user message with its tag (``<<case-turn>>``); raises on
    the message ``fail_on`` (a target error mid-conversation)."""

    def answer(prompt: str) -> str:
        if fail_on is not None and prompt == fail_on:
            raise RuntimeError("target endpoint failed (scripted)")
        return f"I hear you. {tags.get(prompt, '<<none-0>>')}"

    return script(name, [answer])


def fixed_judge(name: str, verdicts: Mapping[tuple[str, int, str], int | str]) -> str:
    """``scripted/<name>``: the verdict of the latest tagged answer in the prompt, for the score the
    rubric asks (the first schema key); :data:`UNPARSED` gives a reply that never parses."""

    def reply(prompt: str) -> str:
        field = re.search(r'^\s*"(\w+)":', prompt, re.MULTILINE)
        tags = [(case, int(turn)) for case, turn in TAG.findall(prompt)]
        if field is None or not tags:
            return "I cannot say."
        case, turn = max(tags, key=lambda tag: tag[1])
        value = verdicts.get((case, turn, field.group(1)))
        if value is None:
            raise AssertionError(f"no verdict scripted for {(case, turn, field.group(1))}")
        if value == UNPARSED:
            return "I cannot say."
        return json.dumps({field.group(1): value, "explanation": "scripted"})

    return script(name, [reply])
