"""Benchmark ``trustmh align`` on MentalAlign-70k against a plain per-row implementation.

Converts the released xlsx files to CSV in a temporary folder (openpyxl is slow and not
what we measure), then times, as whole processes (interpreter start-up included):

* ``trustmh align`` with all 4 judges, model and item level, 1,000 bootstrap replicates;
* a straightforward implementation: ``csv`` + ``json`` row by row, model-level ICCs only,
  bootstrap by a Python loop over replicates (it does strictly less work).

The baseline is deliberately independent of trustmh (it re-implements parsing and the
ICC), so it also cross-checks the model-level point estimates.

Usage::

    python benchmarks/align_bench.py [--data DIR] [--runs 5]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
JUDGES = {
    "claude": "claude_llm_judge",
    "gpt-4o": "gpt-4o_llm_judge",
    "gemini": "gemini_llm_judge",
    "o4-mini": "o4-mini_llm_judge",
}
SELF = {"claude": "claude", "gpt-4o": "gpt4o", "gemini": "gemini", "o4-mini": "gpt4omini"}
ATTRS = ["Guidance", "Informativeness", "Relevance", "Safety", "Empathy", "Helpfulness", "Understanding"]
COMPOSITES = {"CSS": ATTRS[:4], "ARS": ATTRS[4:]}


def convert(data_dir: Path, out_dir: Path) -> None:
    import pandas as pd

    for stem in ["human_judge", *JUDGES.values()]:
        pd.read_excel(data_dir / f"{stem}.xlsx", dtype=str).to_csv(out_dir / f"{stem}.csv", index=False)


# ---------------------------------------------------------------- baseline (per row)
def _cell(text: str) -> dict[str, float] | None:
    text = text.strip()
    if text.startswith("```"):
        text = text[3:].lstrip("json").strip().removesuffix("```")
    try:
        obj = json.loads(text)
    except ValueError:
        return None
    if not isinstance(obj, dict):
        return None
    out = {}
    for a in ATTRS:
        v = obj.get(a)
        if type(v) in (int, float) and 0 <= v <= 5:  # as trustmh align by default (--min-score 0)
            out[a] = float(v)
    for name, parts in COMPOSITES.items():
        if all(p in out for p in parts):
            out[name] = sum(out[p] for p in parts) / len(parts)
    return out


def _read(path: Path) -> dict[str, dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        reader.fieldnames = [f.strip() for f in reader.fieldnames or []]
        return {row["ConvID"].strip(): row for row in reader}


def _icc(h: list[float], j: list[float]) -> tuple[float, float]:
    n = len(h)
    grand = (sum(h) + sum(j)) / (2 * n)
    ss_r = sum(2 * ((a + b) / 2 - grand) ** 2 for a, b in zip(h, j, strict=True))
    ss_c = n * ((sum(h) / n - grand) ** 2 + (sum(j) / n - grand) ** 2)
    ss_t = sum((a - grand) ** 2 + (b - grand) ** 2 for a, b in zip(h, j, strict=True))
    ms_r, ms_c, ms_e = ss_r / (n - 1), ss_c, (ss_t - ss_r - ss_c) / (n - 1)
    c1_den = ms_r + ms_e
    a1_den = ms_r + ms_e + 2 * (ms_c - ms_e) / n
    return ((ms_r - ms_e) / c1_den if c1_den else float("nan"), (ms_r - ms_e) / a1_den if a1_den else float("nan"))


def baseline(csv_dir: Path, n_boot: int, seed: int) -> dict[str, list[float]]:
    human = _read(csv_dir / "human_judge.csv")
    rng = random.Random(seed)
    results = {}
    for name, stem in JUDGES.items():
        judge = _read(csv_dir / f"{stem}.csv")
        keys = [c[len("human_response_") :] for c in next(iter(human.values())) if c.startswith("human_response_")]
        keys = [k for k in keys if k != SELF[name]]
        sums = {(k, a): [0.0, 0.0, 0] for k in keys for a in [*ATTRS, *COMPOSITES]}
        for conv_id, h_row in human.items():
            j_row = judge[conv_id]
            for k in keys:
                h, j = _cell(h_row[f"human_response_{k}"]), _cell(j_row[f"judge_response_{k}"])
                if h is None or j is None:
                    continue
                for a in [*ATTRS, *COMPOSITES]:
                    if a in h and a in j:
                        s = sums[k, a]
                        s[0] += h[a]
                        s[1] += j[a]
                        s[2] += 1
        for a in [*ATTRS, *COMPOSITES]:
            hm = [sums[k, a][0] / sums[k, a][2] for k in keys]
            jm = [sums[k, a][1] / sums[k, a][2] for k in keys]
            c1, a1 = _icc(hm, jm)
            reps = []
            for _ in range(n_boot):
                idx = [rng.randrange(len(keys)) for _ in keys]
                reps.append(_icc([hm[i] for i in idx], [jm[i] for i in idx])[0])
            ok = sorted(r for r in reps if r == r)
            results[f"{name}/{a}"] = [c1, a1, ok[int(0.025 * len(ok))], ok[int(0.975 * len(ok)) - 1]]
    return results


# ---------------------------------------------------------------- bootstrap stage only
def bootstrap_stage(csv_dir: Path, n_boot: int) -> tuple[float, float, float]:
    """Item-level cluster bootstrap of all judges x attributes: count matrix vs a loop.

    Both in this process on the same parsed data; the loop resamples conversations with
    numpy indexing once per replicate (the usual way to write it). Returns the two times
    and the largest difference of the resulting CI bounds (same draws, so ~0).
    """
    import numpy as np

    from trustmh.align import analyze_files
    from trustmh.stats.bootstrap import percentile_ci, resampled_sums
    from trustmh.stats.paired import pair_moments, summarize

    result = analyze_files(
        csv_dir / "human_judge.csv",
        {n: csv_dir / f"{s}.csv" for n, s in JUDGES.items()},
        {n: [k] for n, k in SELF.items()},
        level="item",
        n_boot=0,
    )
    x = np.stack([j.human for j in result.judges], axis=1)  # (conversations, judges, keys, attributes)
    y = np.stack([j.judge for j in result.judges], axis=1)
    n_conv = x.shape[0]
    draws = np.random.default_rng(0).integers(0, n_conv, size=(n_boot, n_conv))

    start = time.perf_counter()
    counts = np.stack([np.bincount(d, minlength=n_conv) for d in draws]).astype(float)
    unit = pair_moments(x, y, axis=2)  # (conversations, judges, attributes, 6)
    fast = percentile_ci(summarize(resampled_sums(counts, unit))["icc_c1"])
    t_fast = time.perf_counter() - start

    start = time.perf_counter()
    reps = []
    for d in draws:
        reps.append(
            summarize(
                pair_moments(
                    x[d].transpose(1, 3, 0, 2).reshape(*x.shape[1:2], x.shape[3], -1),
                    y[d].transpose(1, 3, 0, 2).reshape(*y.shape[1:2], y.shape[3], -1),
                )
            )["icc_c1"]
        )
    slow = percentile_ci(np.array(reps))
    t_loop = time.perf_counter() - start
    return t_fast, t_loop, float(np.nanmax(np.abs(np.array(fast) - np.array(slow))))


# ---------------------------------------------------------------- timing
def align_command() -> list[str]:
    """``trustmh align`` via the main CLI when it imports, else the command on its own."""
    main = [sys.executable, "-m", "trustmh.cli.main"]
    probe = subprocess.run([*main, "--help"], capture_output=True, env=_env())
    return [*main, "align"] if probe.returncode == 0 else [sys.executable, "-m", "trustmh.cli.align"]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), env.get("PYTHONPATH")]))
    return env


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(cmd: list[str], runs: int) -> tuple[float, list[float], float, str]:
    """Median wall time, all wall times, median CPU time (user+sys) and the last stdout.

    CPU time is reported too because wall time on a shared 2-core machine depends on
    what else runs.
    """
    times, cpu, stdout = [], [], ""
    for _ in range(runs):
        start, start_cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run(cmd, capture_output=True, text=True, env=_env())
        times.append(time.perf_counter() - start)
        cpu.append(_children_cpu() - start_cpu)
        if done.returncode != 0:
            raise SystemExit(f"failed: {' '.join(cmd)}\n{done.stderr}")
        stdout = done.stdout
    return statistics.median(times), times, statistics.median(cpu), stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    default_data = Path(os.environ.get("TRUSTMH_TEST_DATA", REPO.parent / "shared" / "data")) / "mentalalign70k"
    parser.add_argument("--data", type=Path, default=default_data)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--baseline-only", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.baseline_only:
        print(json.dumps(baseline(args.baseline_only, args.bootstrap, 1)))
        return
    with tempfile.TemporaryDirectory() as tmp:
        csv_dir = Path(tmp)
        convert(args.data, csv_dir)
        cmd = [*align_command(), "--human", str(csv_dir / "human_judge.csv")]
        for name, stem in JUDGES.items():
            cmd += ["--judge", f"{name}={csv_dir / f'{stem}.csv'}", "--exclude", f"{name}={SELF[name]}"]
        cmd += ["--level", "both", "--bootstrap", str(args.bootstrap), "--json", "-"]
        fast, fast_all, fast_cpu, out = timed(cmd, args.runs)
        base_cmd = [sys.executable, __file__, "--baseline-only", str(csv_dir), "--bootstrap", str(args.bootstrap)]
        slow, slow_all, slow_cpu, base_out = timed(base_cmd, max(1, min(args.runs, 3)))
        t_fast, t_loop, ci_diff = bootstrap_stage(csv_dir, args.bootstrap)
    rows = {f"{r['judge']}/{r['attribute']}": r for r in json.loads(out)["rows"] if r["level"] == "model"}
    ref = json.loads(base_out)
    diff = max(max(abs(rows[k]["icc_c1"] - v[0]), abs(rows[k]["icc_a1"] - v[1])) for k, v in ref.items())
    print("command:", " ".join(cmd[:4]), "... (4 judges, --level both, --bootstrap", args.bootstrap, ")")
    print(
        f"trustmh align  : median {fast:.3f} s wall (min {min(fast_all):.3f}), {fast_cpu:.3f} s CPU over {len(fast_all)} runs"
        f" ({', '.join(f'{t:.3f}' for t in fast_all)})"
    )
    print(
        f"per-row loop   : median {slow:.3f} s wall (min {min(slow_all):.3f}), {slow_cpu:.3f} s CPU over {len(slow_all)} runs"
        f" ({', '.join(f'{t:.3f}' for t in slow_all)}), model level only"
    )
    print(f"load average   : {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores")
    print(f"speed-up       : {slow / fast:.1f}x wall (median), {slow_cpu / fast_cpu:.1f}x CPU")
    print(f"max |ICC difference| of model-level point estimates vs the loop: {diff:.2e}")
    print(
        f"item-level cluster bootstrap alone (36 series, {args.bootstrap} replicates): count matrix {t_fast:.3f} s,"
        f" loop over replicates {t_loop:.3f} s ({t_loop / t_fast:.0f}x), max CI difference {ci_diff:.1e}"
    )


if __name__ == "__main__":
    main()
