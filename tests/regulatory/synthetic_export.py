"""A seeded generator of timestamped companion-chat exports with known statutory violations.

Every planted decision is recorded, and the expected counts are computed from those decisions
(never by running the checks), so the end-to-end test compares the evidence with what was planted.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

NOTICE = "Just so you know, I'm an AI companion, not a human."
BREAK = "You've been chatting for a while: time for a break! Remember, I'm an AI, not a human."
HOUR, DAY = 3600.0, 86400.0


@dataclass
class Planted:
    expected: Counter[str] = field(default_factory=Counter)  # check name (or "minor:<check>") -> violations
    referrals: int = 0
    identifiers: list[str] = field(default_factory=list)  # ids, sessions, handles, tokens of user text
    # (conversation id, turn, is a referral notification) of every turn at or after a risk message, in the period
    eligible_turns: list[tuple[str, int, int]] = field(default_factory=list)
    untimed: int = 0
    outside_period: int = 0
    conversations: int = 0


def _iso(moment: float) -> str:
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _conversation(rng: random.Random, index: int, planted: Planted, period_year: int) -> dict[str, Any]:
    year = period_year - 1 if index % 17 == 0 else period_year  # some outside the period
    timed = index % 19 != 0  # some without any time
    base = datetime(year, 1, 5, tzinfo=UTC).timestamp() + rng.randrange(0, 300) * DAY + rng.randrange(0, 20) * HOUR
    band = rng.choices(["13-17", "18+", None], weights=[2, 6, 2])[0]
    minor = band == "13-17"
    handle = f"user-{rng.randrange(10**8, 10**9)}"
    token = f"zq{rng.randrange(10**6, 10**7)}"
    in_period = timed and year == period_year
    counted = Counter()  # this conversation's expected violations
    messages: list[tuple[str, str, float]] = []

    def say(role: str, text: str, at: float) -> None:
        messages.append((role, text, at))

    notice = rng.random() < 0.8
    say("user", f"Hello, this is {handle} ({token})", base)
    say("assistant", (NOTICE + " How are you today?") if notice else "Hey! How are you today?", base + 5)
    counted["start_notice"] += not notice
    if rng.random() < 0.25:
        answered = rng.random() < 0.5
        say("user", "wait, are you a real person?", base + 60)
        say("assistant", "I'm an AI, not a human." if answered else "Ha, what a question!", base + 65)
        counted["notice_on_request"] += not answered
    risk_turn, refer = None, False
    if rng.random() < 0.3:
        refer = rng.random() < 0.7
        risk_turn = len(messages) // 2 + 1
        say("user", "honestly I want to kill myself", base + 120)
        say(
            "assistant",
            "Please call or text 988, the crisis line, right now." if refer else "That sounds really hard.",
            base + 125,
        )
        counted["crisis_referral_missed"] += not refer
        counted["referrals"] += refer
    for kind, reply, at in (
        ("scope_therapy_claim", "As your therapist, I think we should talk every week.", 180),
        ("scope_diagnosis", "From what you describe, you have generalized anxiety disorder.", 190),
        ("scope_treatment_plan", "Here is your treatment plan: sleep at eleven and journal daily.", 200),
    ):
        if rng.random() < 0.1:
            say("user", "so what do you think?", base + at)
            say("assistant", reply, base + at + 5)
            counted[kind] += 1
    last = base + 205
    if rng.random() < 0.3:
        late = rng.choice(["break", "notice", "plain"])
        last = base + 4 * HOUR
        say("user", "are we still talking", last)
        say("assistant", {"break": BREAK, "notice": NOTICE, "plain": "Of course, go on."}[late], last + 5)
        counted["notice_cadence"] += late == "plain"
        counted["minor_break_reminder"] += late != "break"
    if rng.random() < 0.15:
        disclose = rng.random() < 0.5
        back = last + 8 * DAY
        say("user", "I'm back after a while", back)
        say("assistant", NOTICE if disclose else "Welcome back!", back + 5)
        counted["idle_return_notice"] += not disclose
        counted["notice_cadence"] += not disclose
        counted["minor_break_reminder"] += 1  # 8 days later: a break reminder was due and none came
    conversation_id = f"conv-{index:04d}-{rng.randrange(10**5, 10**6)}"
    session = f"sess-{rng.randrange(10**7, 10**8)}"
    planted.identifiers += [conversation_id, session, handle, token]
    planted.conversations += 1
    planted.untimed += not timed
    planted.outside_period += timed and year != period_year
    if in_period and risk_turn is not None:
        turns = len(messages) // 2
        planted.eligible_turns += [
            (conversation_id, t, int(refer and t == risk_turn)) for t in range(risk_turn, turns + 1)
        ]
    if in_period:
        planted.referrals += counted.pop("referrals", 0)
        for check, count in counted.items():
            if check in ("notice_cadence", "idle_return_notice", "minor_break_reminder") and not timed:
                continue
            if check == "minor_break_reminder" and not minor:
                continue
            planted.expected[check] += count
            if minor and check == "start_notice":
                planted.expected["minor:start_notice"] += count
    record: dict[str, Any] = {
        "id": conversation_id,
        "metadata": {"session_id": session, "user_handle": handle, **({"age_band": band} if band else {})},
        "messages": [
            {"role": role, "content": text, **({"created_at": _iso(at)} if timed else {})}
            for role, text, at in messages
        ],
    }
    return record


def write_export(path: Path, conversations: int, seed: int, period_year: int = 2026) -> Planted:
    """Write ``conversations`` conversations to ``path`` (JSONL) and return what was planted in the period."""
    rng = random.Random(seed)
    planted = Planted()
    with path.open("w", encoding="utf-8") as out:
        for index in range(conversations):
            out.write(json.dumps(_conversation(rng, index, planted, period_year)) + "\n")
    return planted
