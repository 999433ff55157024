"""The detector pass at deployment scale: ``trustmh audit EXPORT/`` on N synthetic conversations.

Workload (seeded): N conversations of 8 turns on average (4-12), written as a hive-partitioned
Parquet export (``date=2026-11-DD/``, one row per message: ``session, seq, speaker, text``, so the
run also exercises ``--columns``), made from message pools of our own: everyday distress, risk
disclosures and replies that address them or not (drawn independently: most disclosures meet an
unrelated reply, so the missed-crisis rate is high), an unneeded hotline, a refusal, planted
identifiers, and 4% of conversations in Spanish, French, German, Portuguese or Chinese; in a third of the messages
the apostrophes are a phone keyboard's curly ones ("I’ve"). Users write 1-3 sentences,
the assistant 2-5 (~100 and ~300 characters). The pools hold 3,000 distinct messages of each side,
drawn at random per turn (the vectorised draw keeps generation cheap; the detectors remember
nothing across conversations, only within one (``trustmh.core.conversation_memo``), so repeats
across conversations make them no faster).

Measured: the real command in a child process (``python -m trustmh audit EXPORT --columns ...
--log-dir OUT``): wall time, conversations/s, CPU ms per conversation (user + system of the command
and every process below it) and peak memory, sampled every 0.2 s over the process tree: the sum
of RSS (counts pages the fork-server workers share once per process) and the sum of PSS (shared
pages divided among their sharers: the memory the machine actually spends). Targets: >= 2,000
conversations/s and < 500 MB at 1,000,000 conversations on 2 cores. The machine's load average
is printed beside the figures: on a shared machine wall time also measures the other processes.

    PYTHONPATH=src python benchmarks/audit_scale_bench.py --conversations 100000
    PYTHONPATH=src python benchmarks/audit_scale_bench.py --conversations 20000 --baseline-src ../main/src
    PYTHONPATH=src python benchmarks/audit_scale_bench.py --conversations 1000000   # the target size
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import psutil
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

SOURCE = Path(__file__).resolve().parents[1] / "src"  # this checkout's code, whatever PYTHONPATH says
THROUGHPUT_TARGET = 2_000
MEMORY_TARGET_MB = 500
POOL = 3_000
DAYS = 10
ROW_GROUP = 100_000  # message rows per Parquet row group: the reader decodes one group at a time
CALM_USER = [
    "Work has been stressful and I can't switch off in the evenings.",
    "I argued with my flatmate about the dishes again.",
    "I can't sleep before exams and my mind keeps racing.",
    "My manager keeps adding tasks and I feel behind all the time.",
    "I've been feeling lonely since I moved to a new city.",
    "My partner and I keep having the same fight about money.",
    "I don't feel like seeing friends lately, even ones I like.",
]
CALM_REPLY = [
    "That sounds draining, and it makes sense that you feel worn out.",
    "What usually helps you unwind at the end of the day?",
    "A regular bedtime and less screen time in the evening can help.",
    "Could you try writing down tomorrow's tasks before you stop working?",
    "Moving somewhere new is hard, and loneliness is a common part of it.",
    "Would it help to plan one small thing you enjoy this week?",
    "It might be worth talking about a budget together when you are both calm.",
]
RISK_USER = [
    "Sometimes I think everyone would be better off without me.",
    "I've been thinking about killing myself.",
    "I want to end it all tonight.",
    "I don't want to wake up anymore.",
]
RISK_ADDRESSED = "I'm worried about you. Are you thinking about suicide? You can call or text 988 right now."
RISK_MISSED = "Have you tried a warm bath or some light stretching before bed?"
ODD = [
    ("My boss was rude today.", "If you are in danger call 911 or go to the emergency room."),
    ("Can you hack my ex's email?", "I'm sorry, but I can't help with that."),
    ("Hi, I'm Sam, my email is sam{n}@example.com.", "Hi Sam, thanks for sharing. How are you feeling today?"),
]
OTHER_LANGUAGES = [
    "Ya no quiero vivir, estoy cansada de todo.",
    "Je n'en peux plus, je pense à mourir.",
    "Ich kann nicht mehr, ich will nicht mehr leben.",
    "Não aguento mais, quero morrer.",
    "我最近很难过，不想活了。",
]


def _pool(rng: np.random.Generator, sentences: list[str], low: int, high: int) -> list[str]:
    return [" ".join(rng.choice(sentences, size=rng.integers(low, high + 1))) for _ in range(POOL)]


def message_pools(seed: int) -> tuple[pa.Array, pa.Array]:
    """(user messages, assistant messages): POOL each, the planted kinds at fixed shares."""
    rng = np.random.default_rng(seed)
    users, replies = _pool(rng, CALM_USER, 1, 3), _pool(rng, CALM_REPLY, 2, 5)
    # 2% of messages: a risk disclosure, or a reply to one (addressing it 3 times in 4); a turn draws
    # its user message and its reply independently, so most disclosures meet an unrelated reply
    for index in range(0, POOL, 50):
        users[index] = f"{rng.choice(CALM_USER)} {RISK_USER[index % len(RISK_USER)]}"
        replies[index] = f"{rng.choice(CALM_REPLY)} {RISK_MISSED if index % 200 == 0 else RISK_ADDRESSED}"
    for index in range(7, POOL, 100):  # 1%: an unneeded hotline, a refusal, an identifier
        user, reply = ODD[index % len(ODD)]
        users[index], replies[index] = user.format(n=index), reply
    # a third typed on a phone, whose keyboard writes a curly apostrophe: "I’ve", "can’t"
    users = [text.replace("'", "\u2019") if index % 3 == 1 else text for index, text in enumerate(users)]
    replies = [text.replace("'", "\u2019") if index % 3 == 1 else text for index, text in enumerate(replies)]
    return pa.array(users), pa.array(replies)


def write_export(folder: Path, conversations: int, seed: int = 11, chunk: int = 50_000) -> int:
    """A hive-partitioned export of ``conversations`` conversations; returns the number of messages."""
    rng = np.random.default_rng(seed)
    users, replies = message_pools(seed)
    foreign = pa.array(OTHER_LANGUAGES)
    messages = 0
    for start in range(0, conversations, chunk):
        count = min(chunk, conversations - start)
        turns = rng.integers(4, 13, size=count)
        conversation = np.repeat(np.arange(start, start + count), turns)
        seq = np.concatenate([np.arange(t) for t in turns])
        user = users.take(pa.array(rng.integers(0, POOL, size=len(seq))))
        reply = replies.take(pa.array(rng.integers(0, POOL, size=len(seq))))
        in_foreign = np.repeat(rng.random(count) < 0.04, turns)
        user = pc.if_else(pa.array(in_foreign), foreign.take(pa.array(rng.integers(0, 5, len(seq)))), user)
        ids = pc.binary_join_element_wise("c-", pc.cast(pa.array(conversation), pa.string()), "")
        # one user and one assistant row per turn, interleaved
        rows = pa.table(
            {
                "session": pc.take(ids, pa.array(np.repeat(np.arange(len(seq)), 2))),
                "seq": pa.array(np.repeat(seq * 2, 2) + np.tile([0, 1], len(seq))),
                "speaker": pa.array(np.tile(["user", "assistant"], len(seq))),
                "text": pa.chunked_array([pc.take(pa.concat_arrays([user, reply]), _interleave(len(seq)))]),
            }
        )
        day = folder / f"date=2026-11-{1 + (start // chunk) % DAYS:02d}"
        day.mkdir(parents=True, exist_ok=True)
        pq.write_table(rows, day / f"part-{start // chunk:05d}.parquet", compression="zstd", row_group_size=ROW_GROUP)
        messages += rows.num_rows
    return messages


def _interleave(n: int) -> pa.Array:
    """Indices 0, n, 1, n+1, ...: user i then reply i from [users..., replies...]."""
    return pa.array(np.column_stack([np.arange(n), np.arange(n) + n]).ravel())


@dataclass
class TreeSample:
    peak_rss_mb: float = 0.0
    peak_pss_mb: float = 0.0
    cpu_seconds: float = 0.0


def sample_tree(pid: int, sample: TreeSample, done: threading.Event) -> None:
    """Peak Σ RSS and Σ PSS of ``pid``'s process tree; CPU as last seen per process."""
    cpu: dict[int, float] = {}
    while not done.is_set():
        try:
            root = psutil.Process(pid)
            members = [root, *root.children(recursive=True)]
        except psutil.NoSuchProcess:
            break
        rss = pss = 0
        for member in members:
            try:
                info = member.memory_full_info()
                times = member.cpu_times()
            except (psutil.NoSuchProcess, psutil.AccessDenied):
                continue
            rss, pss = rss + info.rss, pss + info.pss
            cpu[member.pid] = times.user + times.system
        sample.peak_rss_mb = max(sample.peak_rss_mb, rss / 2**20)
        sample.peak_pss_mb = max(sample.peak_pss_mb, pss / 2**20)
        sample.cpu_seconds = sum(cpu.values())
        done.wait(0.2)


def run_pass(
    export: Path, out: Path, workers: int | None, source: Path | None = None
) -> tuple[float, TreeSample, list[str]]:
    """``trustmh audit`` on ``export`` in a child process, from ``source`` (a ``src`` folder) if given."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source.resolve())
    command = [
        sys.executable,
        "-m",
        "trustmh",
        "audit",
        str(export),
        "--columns",
        "conversation_id=session,role=speaker,content=text,turn=seq",
        "--log-dir",
        str(out),
    ]
    if workers:
        command += ["--workers", str(workers)]
    sample, done = TreeSample(), threading.Event()
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    sampler = threading.Thread(target=sample_tree, args=(process.pid, sample, done), daemon=True)
    sampler.start()
    output, _ = process.communicate()
    wall = time.perf_counter() - started
    done.set()
    sampler.join()
    if process.returncode != 0:
        raise SystemExit(f"trustmh audit exited {process.returncode}:\n{output}")
    return wall, sample, output.splitlines()


def detectors_alone(export: Path, conversations: int = 2_000) -> float:
    """Baseline, in this process: CPU ms per conversation of ``detect_all`` alone on the first batches."""
    from trustmh.audit.batch import detect_all
    from trustmh.audit.language import load_language_model
    from trustmh.audit.warehouse import conversation_batches

    load_language_model()
    batches = []
    for batch in conversation_batches(export, "conversation_id=session,role=speaker,content=text,turn=seq"):
        batches.append(batch)
        if sum(b.num_rows for b in batches) >= conversations:
            break
    started = time.process_time()
    for batch in batches:
        detect_all(batch)
    return (time.process_time() - started) * 1000 / sum(b.num_rows for b in batches)


def report_pass(label: str, conversations: int, wall: float, sample: TreeSample, workers: int) -> float:
    """Print one pass's figures; returns its CPU ms per conversation."""
    rate = conversations / wall
    per_conversation = sample.cpu_seconds * 1000 / conversations
    print(
        f"{label} ({workers} workers): {wall:.1f} s wall, {rate:,.0f} conversations/s (target >= "
        f"{THROUGHPUT_TARGET:,}: {'OK' if rate >= THROUGHPUT_TARGET else 'BELOW'}), {per_conversation:.3f} CPU ms per "
        f"conversation ({sample.cpu_seconds:.0f} s CPU over the process tree, imports included; 2 cores fully ours "
        f"would give at most {2000 / per_conversation:,.0f} conversations/s); peak memory {sample.peak_pss_mb:.0f} MB "
        f"PSS (target < {MEMORY_TARGET_MB} MB: {'OK' if sample.peak_pss_mb < MEMORY_TARGET_MB else 'OVER'}), "
        f"{sample.peak_rss_mb:.0f} MB summed RSS"
    )
    return per_conversation


def same_rows(first: Path, second: Path) -> bool:
    """Do two detector passes hold the same rows (conversations and flagged turns, in any part order)?"""
    for name in ("conversations", "flagged-turns"):
        tables = [pq.read_table(folder / name) for folder in (first, second)]
        keys = [("conversation_id", "ascending")] + ([("turn", "ascending")] if name != "conversations" else [])
        if not tables[0].sort_by(keys).equals(tables[1].sort_by(keys)):
            return False
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--conversations", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=None, help="default: one per core")
    parser.add_argument(
        "--baseline-src",
        type=Path,
        default=None,
        help="a src folder of another checkout (e.g. main's): its pass runs first on the same export, "
        "the figures are printed as ratios and both outputs must hold the same rows",
    )
    args = parser.parse_args()
    workers = args.workers or os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="trustmh-scale-bench-") as folder:
        export = Path(folder) / "export"
        started = time.perf_counter()
        messages = write_export(export, args.conversations)
        size = sum(p.stat().st_size for p in export.rglob("*.parquet")) / 2**20
        print(
            f"export: {args.conversations:,} conversations, {messages:,} messages, {size:.0f} MB Parquet "
            f"(written in {time.perf_counter() - started:.0f} s)"
        )
        load_before = os.getloadavg()
        if args.baseline_src is not None:
            base_wall, base_sample, _ = run_pass(export, Path(folder) / "base", args.workers, args.baseline_src)
            base_cpu = report_pass(f"baseline {args.baseline_src}", args.conversations, base_wall, base_sample, workers)
        wall, sample, output = run_pass(export, Path(folder) / "out", args.workers, SOURCE)
        print("\n".join(f"  | {line}" for line in output[:4]))
        per_conversation = report_pass("trustmh audit (detector pass)", args.conversations, wall, sample, workers)
        if args.baseline_src is not None:
            same = same_rows(Path(folder) / "base", Path(folder) / "out")
            print(
                f"against the baseline: {base_cpu / per_conversation:.2f} x less CPU per conversation, "
                f"{base_wall / wall:.2f} x the conversations/s, {sample.peak_pss_mb / base_sample.peak_pss_mb:.2f} x "
                f"the peak PSS; same rows: {'YES' if same else 'NO (a result changed)'}"
            )
        else:
            baseline = detectors_alone(export)
            print(
                f"baseline (detect_all alone, one process, first 2,000 conversations): {baseline:.2f} CPU ms per "
                f"conversation; the whole pass costs {per_conversation / baseline:.2f} x that (reading, workers, "
                "writing, imports)"
            )
        print(
            f"load average before: {' '.join(f'{x:.2f}' for x in load_before)}; "
            f"after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (on {os.cpu_count()} cores)"
        )


if __name__ == "__main__":
    main()
