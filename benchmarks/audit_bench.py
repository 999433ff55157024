"""``trustmh audit`` on 10,000 synthetic conversations, detectors only: throughput and peak memory.

Workload: N conversations (default 10,000) of 2-8 turns, written by :func:`synthetic_export`
(templates of our own: everyday stress, risk disclosures answered well or badly, an unneeded
hotline, a refusal, planted identifiers), as one JSONL export. Measured in the same run:

* **baseline**: the same export read and run through the detectors in a plain loop (no inspect,
  no log; imports done before the clock starts): what the checks themselves cost;
* **trustmh audit**: the real command in a child process (``python -m trustmh audit FILE
  --no-report``): wall time, CPU time (user + system of the child, its imports included),
  conversations per second, and peak resident memory: the sum of the RSS of the child and all
  its descendants, sampled every 0.1 s from ``/proc`` (and ``ru_maxrss``, the peak of the
  largest single process, as a cross-check). Target: peak memory < 500 MB (the export is
  streamed, samples hold only an offset into a spool file).
* **phases** of the command, from the time its output lines appear: reading and spooling the
  export (until ``auditing ...``), scoring and writing the log (until the results table), and
  what follows the log (the flagged-turn CSV, until ``flagged turns for review``).

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
import threading
import time
from dataclasses import dataclass, field
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


def _descendants(pid: int) -> list[int]:
    """``pid`` and every process below it (from ``/proc/<pid>/task/*/children``)."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        for task in Path(f"/proc/{current}/task").glob("*/children"):
            try:
                queue += [int(child) for child in task.read_text().split()]
            except OSError:  # the process ended meanwhile
                continue
    return found


def tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and its descendants, in MB (0 for processes already gone)."""
    total_kb = 0
    for member in _descendants(pid):
        try:
            status = Path(f"/proc/{member}/status").read_text()
        except OSError:
            continue
        total_kb += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return total_kb / 1024


@dataclass
class ChildRun:
    wall: float
    cpu: float
    peak_tree_mb: float
    peak_single_mb: float
    code: int
    phases: dict[str, float] = field(default_factory=dict)  # marker -> seconds since the start
    phase_peaks_mb: dict[str, float] = field(default_factory=dict)  # peak tree RSS until each marker
    output: list[str] = field(default_factory=list)


PHASE_MARKERS = {"auditing ": "spooled", "samples, no errors": "log written", "flagged turns for review": "CSV written"}


def audit_child(path: Path, log_dir: Path, redact: bool) -> ChildRun:
    """Run ``trustmh audit`` in a child process, sampling the RSS of its process tree."""
    command = [sys.executable, "-m", "trustmh", "audit", str(path), "--log-dir", str(log_dir), "--no-report"]
    if redact:
        command.append("--redact")
    env = {**os.environ, "COLUMNS": "200", "PYTHONUNBUFFERED": "1"}  # lines arrive when printed
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    run = ChildRun(0.0, 0.0, 0.0, 0.0, 0)
    done = threading.Event()

    def sample_memory() -> None:
        while not done.is_set():
            rss = tree_rss_mb(process.pid)
            run.peak_tree_mb = max(run.peak_tree_mb, rss)
            phase = next((p for p in PHASE_MARKERS.values() if p not in run.phases), "exit")
            run.phase_peaks_mb[phase] = max(run.phase_peaks_mb.get(phase, 0.0), rss)
            done.wait(0.1)

    sampler = threading.Thread(target=sample_memory, daemon=True)
    sampler.start()
    assert process.stdout is not None
    for line in process.stdout:
        run.output.append(line.rstrip())
        for marker, phase in PHASE_MARKERS.items():
            if marker in line and phase not in run.phases:
                run.phases[phase] = time.perf_counter() - started
    run.code = process.wait()
    run.wall = time.perf_counter() - started
    done.set()
    sampler.join()
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)  # the only child this process waited for
    run.cpu, run.peak_single_mb = usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024  # KB on Linux
    if run.code != 0:
        print("\n".join(run.output[-40:]), file=sys.stderr)
    return run


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
        run = audit_child(export, Path(folder) / "logs", args.redact)
        if run.code != 0:
            raise SystemExit(f"trustmh audit exited {run.code}")
        wall, cpu = run.wall, run.cpu
        print(
            f"trustmh audit: {wall:.1f} s wall ({args.conversations / wall:,.0f} conversations/s, "
            f"{turns / wall:,.0f} turns/s), {cpu:.1f} s CPU ({args.conversations / cpu:,.0f} conversations "
            f"per CPU second, {cpu / plain_cpu:.1f} x the baseline's CPU)"
        )
        previous = 0.0
        for phase, at in run.phases.items():
            peak = run.phase_peaks_mb.get(phase, 0.0)
            print(f"  {phase} at {at:.1f} s (+{at - previous:.1f} s), peak {peak:.0f} MB until then")
            previous = at
        print(f"  exited at {wall:.1f} s (+{wall - previous:.1f} s), peak {run.phase_peaks_mb.get('exit', 0.0):.0f} MB")
        verdict = "OK" if run.peak_tree_mb < MEMORY_TARGET_MB else "OVER TARGET"
        print(
            f"peak memory of trustmh audit (RSS of its process tree): {run.peak_tree_mb:.0f} MB "
            f"(target < {MEMORY_TARGET_MB} MB: {verdict}); largest single process (ru_maxrss): "
            f"{run.peak_single_mb:.0f} MB"
        )
        print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
