"""``trustmh audit`` on 10,000 synthetic conversations, detectors only: throughput and peak memory.

Workload: N conversations (default 10,000) of 2-8 turns, written by :func:`synthetic_export`
(templates of our own: everyday stress, risk disclosures answered well or badly, an unneeded
hotline, a refusal, planted identifiers), as one JSONL export. Measured in the same run:

* **baseline**: the same export read and run through the detectors in a plain loop (no inspect,
  no log; imports done before the clock starts): what the checks themselves cost;
* **trustmh audit**: the real command in a child process (``python -m trustmh audit FILE
  --no-report``): wall time, CPU time (user + system of the child, its imports included),
  conversations per second, and peak resident memory (``ru_maxrss`` of the child). Target: peak
  memory < 500 MB (the export is streamed, samples hold only an offset into a spool file).

CPU time is the number to compare across runs: on a shared machine wall time mostly measures the
other processes.

    PYTHONPATH=src python benchmarks/audit_bench.py [--conversations 10000] [--redact]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MEMORY_TARGET_MB = 500
CALM = [
    ("Work has been stressful and I can't switch off.", "That sounds draining. What helps you unwind?"),
    (
        "I argued with my flatmate about the dishes.",
        "Disagreements like that are common. What would a fair split look like?",
    ),
    ("I can't sleep before exams.", "A regular bedtime and less screen time in the evening can help."),
]
RISK = [
    (
        "Sometimes I think everyone would be better off without me.",
        "I'm worried about you. Are you thinking about suicide? You can call 988.",
    ),
    ("I've been thinking about killing myself.", "Have you tried a warm bath before bed?"),
    ("I want to end it all tonight.", "Please call emergency services or a crisis line now; are you safe?"),
]
ODD = [
    ("My boss was rude today.", "If you are in danger call 911 or go to the emergency room."),
    ("Can you hack my ex's email?", "I'm sorry, but I can't help with that."),
    ("Hi, I'm Sam, email sam{n}@example.com, phone 07700 9{n:05d}.", "Hi Sam, thanks. How are you feeling today?"),
]


def synthetic_export(path: Path, conversations: int, seed: int = 7) -> int:
    """Write ``conversations`` synthetic conversations to ``path``; returns the number of turns."""
    rng = random.Random(seed)
    turns = 0
    with path.open("w", encoding="utf-8") as out:
        for number in range(conversations):
            messages = []
            for _ in range(rng.randint(2, 8)):
                pool = rng.choices([CALM, RISK, ODD], weights=[6, 2, 2])[0]
                user, reply = rng.choice(pool)
                messages += [
                    {"role": "user", "content": user.format(n=number % 100_000)},
                    {"role": "assistant", "content": reply},
                ]
                turns += 1
            record = {"id": f"conv-{number:06d}", "metadata": {"site": f"s{number % 7}"}, "messages": messages}
            out.write(json.dumps(record) + "\n")
    return turns


def baseline(path: Path, redact: bool) -> tuple[float, float]:
    """Wall and CPU seconds to read and run the detectors over every conversation in a plain loop."""
    from trustmh.audit.detectors import turn_findings
    from trustmh.audit.readers import read_conversations
    from trustmh.audit.redaction import Redactor

    redactor = Redactor(b"bench" * 8) if redact else None
    started, cpu = time.perf_counter(), time.process_time()
    for conversation in read_conversations(path):
        if redactor is not None:
            conversation.messages = redactor.redact_messages(conversation.messages)
        turn_findings(conversation.turns())
    return time.perf_counter() - started, time.process_time() - cpu


def audit_child(path: Path, log_dir: Path, redact: bool) -> tuple[float, float, float, int]:
    """Wall seconds, CPU seconds, peak RSS in MB and the exit code of ``trustmh audit``."""
    command = [sys.executable, "-m", "trustmh", "audit", str(path), "--log-dir", str(log_dir), "--no-report"]
    if redact:
        command.append("--redact")
    started = time.perf_counter()
    completed = subprocess.run(command, capture_output=True, text=True, env=os.environ.copy(), check=False)
    wall = time.perf_counter() - started
    if completed.returncode != 0:
        print(completed.stdout[-2000:], completed.stderr[-2000:], file=sys.stderr)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the only child this process waited for
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, completed.returncode  # KB on Linux


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=10_000)
    parser.add_argument("--redact", action="store_true", help="also redact (as trustmh audit --redact)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="trustmh-audit-bench-") as folder:
        export = Path(folder) / "export.jsonl"
        turns = synthetic_export(export, args.conversations)
        size_mb = export.stat().st_size / 2**20
        print(f"export: {args.conversations:,} conversations, {turns:,} assistant turns, {size_mb:.1f} MB")
        plain_wall, plain_cpu = baseline(export, args.redact)
        print(
            f"baseline (read + detectors, plain loop): {plain_wall:.1f} s wall, {plain_cpu:.1f} s CPU, "
            f"{args.conversations / plain_cpu:,.0f} conversations per CPU second"
        )
        wall, cpu, peak_mb, code = audit_child(export, Path(folder) / "logs", args.redact)
        if code != 0:
            raise SystemExit(f"trustmh audit exited {code}")
        print(
            f"trustmh audit: {wall:.1f} s wall ({args.conversations / wall:,.0f} conversations/s, "
            f"{turns / wall:,.0f} turns/s), {cpu:.1f} s CPU ({args.conversations / cpu:,.0f} conversations "
            f"per CPU second, {cpu / plain_cpu:.1f} x the baseline's CPU)"
        )
        verdict = "OK" if peak_mb < MEMORY_TARGET_MB else "OVER TARGET"
        print(f"peak memory of trustmh audit: {peak_mb:.0f} MB (target < {MEMORY_TARGET_MB} MB: {verdict})")


if __name__ == "__main__":
    main()
