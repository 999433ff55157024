"""Acceptance benchmark of PPI++ (trustmh.stats.ppi) on MentalAlign-70k.

Every (conversation, response) pair that both the humans and a judge scored is an item. A
seeded random 10% of the items keep their human ratings as "clinician labels"; the rest are
judged only. For each of the 4 judges x 7 attributes it compares three 95% intervals with the
*full* human mean (every item's human rating, which in a real study nobody would have):

* judge-only: the judge's mean over all items, CI as if the judge were right;
* human-only: the mean of the 10% labels (classical CLT interval);
* PPI++: the judge's mean corrected by the labels (:func:`trustmh.stats.ppi.ppi_mean`).

Acceptance (issue #29): the PPI CI covers the full human mean in >= 24 of 28 cells, the
judge-only CI misses most of them, and the PPI CI is no wider than the human-only one in
>= 24 of 28 cells. Because one seed is one draw, it also repeats the whole draw over
``--repeats`` further seeds and prints how often each criterion holds.

As MentalBench, a judge's own family's responses are left out when measuring it, and the
score range is 0-5 (the default of ``trustmh align``).

Usage::

    python benchmarks/ppi_mentalalign.py [--data DIR] [--seed 29] [--repeats 200]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from trustmh.data.loaders.mentalalign import OK, match_to, read_ratings  # noqa: E402
from trustmh.mentalalign.schema import ATTRIBUTES, HUMAN_FILE, HUMAN_PREFIX, JUDGE_FILES, JUDGE_PREFIX, SELF_FAMILY  # noqa: E402
from trustmh.stats.ppi import ppi_mean  # noqa: E402

LABEL_SHARE = 0.10


def load_items(data: Path) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per judge: human and judge scores ``(items, attributes)`` of the (conversation, response)
    pairs both rated, the judge's own family left out. An item enters an attribute's
    comparison only where both scores of that attribute parsed (NaN otherwise)."""
    human = read_ratings(data / HUMAN_FILE, HUMAN_PREFIX)
    out = {}
    for judge, filename in JUDGE_FILES.items():
        table = match_to(human, read_ratings(data / filename, JUDGE_PREFIX))
        keep = [k for k, key in enumerate(human.keys) if key != SELF_FAMILY[judge]]
        both = (human.status[:, keep] == OK) & (table.status[:, keep] == OK)
        h = np.where(both, human.scores[:, keep], np.nan).reshape(-1, len(ATTRIBUTES))
        j = np.where(both, table.scores[:, keep], np.nan).reshape(-1, len(ATTRIBUTES))
        out[judge] = (h, j)
    return out


def cell(human: np.ndarray, judge: np.ndarray, labelled: np.ndarray) -> dict[str, float | bool]:
    """One judge x attribute: the three estimates against the full human mean."""
    used = np.isfinite(human) & np.isfinite(judge)
    lab, unl = used & labelled, used & ~labelled
    result = ppi_mean(human[lab], judge[lab], judge[unl])
    truth = float(human[used].mean())

    def covers(ci: tuple[float, float]) -> bool:
        return bool(ci[0] <= truth <= ci[1])

    return {
        "truth": truth,
        "n": int(used.sum()),
        "n_labelled": result.n_labelled,
        "judge": result.judge_only.value,
        "judge_covers": covers(result.judge_only.ci),
        "human": result.human_only.value,
        "human_width": result.human_only.ci[1] - result.human_only.ci[0],
        "human_covers": covers(result.human_only.ci),
        "ppi": result.estimate,
        "ppi_ci": result.ci,
        "ppi_width": result.ci[1] - result.ci[0],
        "ppi_covers": covers(result.ci),
        "lam": result.lam,
        "gained": result.effective_n_gained,
    }


def run(items: dict[str, tuple[np.ndarray, np.ndarray]], seed: int) -> list[tuple[str, str, dict]]:
    n_items = next(iter(items.values()))[0].shape[0]
    rng = np.random.default_rng(seed)
    labelled = np.zeros(n_items, bool)
    labelled[rng.choice(n_items, round(LABEL_SHARE * n_items), replace=False)] = True
    rows = []
    for judge, (h, j) in items.items():
        for a, attribute in enumerate(ATTRIBUTES):
            rows.append((judge, attribute, cell(h[:, a], j[:, a], labelled)))
    return rows


def tally(rows: list[tuple[str, str, dict]]) -> tuple[int, int, int]:
    covered = sum(r["ppi_covers"] for _, _, r in rows)
    judge_missed = sum(not r["judge_covers"] for _, _, r in rows)
    narrower = sum(r["ppi_width"] <= r["human_width"] for _, _, r in rows)
    return covered, judge_missed, narrower


def print_table(rows: list[tuple[str, str, dict]], seed: int) -> None:
    print(
        f"seed {seed}: {LABEL_SHARE:.0%} of items' human ratings as labels; 95% CIs; 'full' = mean of every human rating"
    )
    header = (
        f"{'judge':8} {'attribute':15} {'n':>5} {'labels':>6} {'full':>6} {'judge':>6} {'covers':>6} "
        f"{'human':>6} {'width':>6} {'PPI++':>6} {'95% CI':>15} {'width':>6} {'covers':>6} {'lambda':>6} {'n_eff+':>7}"
    )
    print(header)
    print("-" * len(header))
    for judge, attribute, r in rows:
        low, high = r["ppi_ci"]
        print(
            f"{judge:8} {attribute:15} {r['n']:>5} {r['n_labelled']:>6} {r['truth']:>6.3f} {r['judge']:>6.3f} "
            f"{'yes' if r['judge_covers'] else 'no':>6} {r['human']:>6.3f} {r['human_width']:>6.3f} {r['ppi']:>6.3f} "
            f"{f'[{low:.3f}, {high:.3f}]':>15} {r['ppi_width']:>6.3f} {'yes' if r['ppi_covers'] else 'no':>6} "
            f"{r['lam']:>6.2f} {r['gained']:>7.0f}"
        )
    covered, judge_missed, narrower = tally(rows)
    cells = len(rows)
    print()
    print(
        f"PPI++ CI covers the full human mean:      {covered}/{cells}  (acceptance >= 24)  {'PASS' if covered >= 24 else 'FAIL'}"
    )
    print(
        f"judge-only CI misses it:                  {judge_missed}/{cells}  (acceptance: most)  {'PASS' if judge_missed > cells / 2 else 'FAIL'}"
    )
    print(
        f"PPI++ CI no wider than human-only (10%):  {narrower}/{cells}  (acceptance >= 24)  {'PASS' if narrower >= 24 else 'FAIL'}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    default_data = Path(os.environ.get("TRUSTMH_TEST_DATA", REPO.parent / "shared" / "data")) / "mentalalign70k"
    parser.add_argument("--data", type=Path, default=default_data)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--repeats", type=int, default=200, help="further seeds for the repeat summary (0 = none)")
    args = parser.parse_args()
    start = time.perf_counter()
    items = load_items(args.data)
    loaded = time.perf_counter()
    rows = run(items, args.seed)
    print_table(rows, args.seed)
    if args.repeats:
        tallies = np.array([tally(run(items, args.seed + 1 + r)) for r in range(args.repeats)])
        print()
        print(f"over {args.repeats} further seeds (each a fresh random 10%):")
        print(
            f"  mean cells covered by PPI++ {tallies[:, 0].mean():.1f}/28 (nominal 95% = 26.6); >= 24 in {(tallies[:, 0] >= 24).mean():.0%} of draws"
        )
        print(f"  mean cells the judge-only CI misses {tallies[:, 1].mean():.1f}/28")
        print(
            f"  mean cells PPI++ no wider than human-only {tallies[:, 2].mean():.1f}/28; >= 24 in {(tallies[:, 2] >= 24).mean():.0%} of draws"
        )
    print(f"\nload {loaded - start:.1f} s, estimates {time.perf_counter() - loaded:.1f} s")


if __name__ == "__main__":
    main()
