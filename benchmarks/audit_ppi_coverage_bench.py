"""Does the clinician-corrected population rate of the sampled judge pass cover the truth?

The population, strata and planted missed crises are those of ``audit_sample_coverage_bench.py``
(1,000,000 conversations, 0.47% true missed crises). Now the judge errs: it finds a true missed
crisis with probability ``--sensitivity`` and calls another conversation one with probability
``--false-positive`` (the same in every stratum), so its own estimate is biased. The clinicians'
label is the truth. Each of ``--draws`` seeded draws judges the pass's allocation of ``--budget``
conversations (a simple random sample per stratum), labels ``--labels`` of the judged ones
(``population``: as ``trustmh labels export`` of a pass folder draws by default, 10 per stratum
and the rest by the stratum's share of the population; ``equal``: spread evenly over the strata;
``random``: a simple random sample of all of them), and estimates the rate with :func:`trustmh.stats.two_phase_ppi.two_phase_rate`. Printed per row: how often the 95% CI
covers the true rate (target >= 93%) with the coverage's own Wilson interval, how often the truth
lay below / above it, the mean width, the mean tuned lambda, draws not estimable (a stratum with
fewer than 2 labels), and the judge-only estimate's coverage of the same truth (biased when the
judge errs); and draw 0 written as the audit prints it.

    PYTHONPATH=src python benchmarks/audit_ppi_coverage_bench.py [--draws 200] [--budget 4000] [--labels 400 1000 2000]
        [--allocation population equal random] [--sensitivity 0.8] [--false-positive 0.003]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from audit_sample_coverage_bench import COVERAGE_TARGET, setting

from trustmh.audit.rate_label_set import FLOOR_PER_STRATUM
from trustmh.stats.intervals import wilson_interval
from trustmh.stats.sampling import equal_allocation, floored_allocation
from trustmh.stats.survey import Stratum, stratified_proportion
from trustmh.stats.two_phase_ppi import LabelledStratum, two_phase_rate


def draw_strata(
    sizes: dict[str, int],
    positives: dict[str, int],
    counts: dict[str, int],
    labels: int,
    judge: tuple[float, float],
    rng: np.random.Generator,
    allocation: str = "random",
) -> list[LabelledStratum]:
    """One draw: each stratum's judged sample with the judge's answers, and the labelled subsample
    (``random``: a simple random sample of all the judged; ``equal``: as ``trustmh labels export``
    of a pass folder draws, the labels spread evenly over the strata, a simple random sample in each)."""
    sensitivity, false_positive = judge
    judged_truth = {
        h: np.repeat(
            [1.0, 0.0], [k := int(rng.hypergeometric(positives[h], sizes[h] - positives[h], counts[h])), counts[h] - k]
        )
        for h in sizes
    }
    answers = {
        h: np.where(y == 1, rng.random(len(y)) < sensitivity, rng.random(len(y)) < false_positive).astype(float)
        for h, y in judged_truth.items()
    }
    if allocation == "population":  # what `trustmh labels export` of a pass folder draws by default
        total = sum(sizes.values())
        shares = {h: sizes[h] / total for h in sizes}
        per_stratum = floored_allocation(counts, shares, labels, FLOOR_PER_STRATUM)
        picked = {h: rng.choice(counts[h], size=per_stratum[h], replace=False) for h in sizes}
    elif allocation == "equal":
        per_stratum = equal_allocation(counts, labels)
        picked = {h: rng.choice(counts[h], size=per_stratum[h], replace=False) for h in sizes}
    else:
        owners = np.concatenate([np.full(counts[h], i) for i, h in enumerate(sizes)])
        chosen = rng.choice(len(owners), size=labels, replace=False)
        picked = {h: chosen[owners[chosen] == i] - np.flatnonzero(owners == i)[0] for i, h in enumerate(sizes)}
    strata = []
    for h in sizes:
        mine = picked[h]
        strata.append(LabelledStratum(sizes[h], answers[h], judged_truth[h][mine], answers[h][mine]))
    return strata


def measure(setting_: tuple, labels: int, judge: tuple[float, float], allocation: str, draws: int) -> str:
    """One row: the coverage, width, lambda and estimability of ``draws`` seeded draws."""
    sizes, positives, truth, counts = setting_
    covered = below = above = unestimable = judge_covered = 0
    widths, lams = [], []
    for draw in range(draws):
        strata = draw_strata(sizes, positives, counts, labels, judge, np.random.default_rng(1000 + draw), allocation)
        judge_only = stratified_proportion([Stratum(s.population, len(s.judged), int(s.judged.sum())) for s in strata])
        judge_covered += judge_only.ci_low <= truth <= judge_only.ci_high
        estimate = two_phase_rate(strata)
        if estimate.value != estimate.value:
            unestimable += 1
            continue
        low, high = estimate.ci
        if draw == 0:
            print(
                f"draw 0 ({labels:,} labels, {allocation}): missed crises: {judge_only.value:.2%} "
                f"[{judge_only.ci_low:.2%}, {judge_only.ci_high:.2%}] of conversations, estimated from "
                f"{judge_only.n:,} judged of {sum(sizes.values()):,}; corrected by {estimate.labelled:,} clinician "
                f"labels (two-phase PPI, lambda {estimate.lam:.2f}): {estimate.value:.2%} [{low:.2%}, {high:.2%}]"
            )
        covered += low <= truth <= high
        below += truth < low
        above += truth > high
        widths.append(high - low)
        lams.append(estimate.lam)
    estimable = draws - unestimable
    share = covered / estimable if estimable else float("nan")
    ci = wilson_interval(covered, estimable) if estimable else (float("nan"), float("nan"))
    verdict = "OK" if share >= COVERAGE_TARGET else "BELOW"
    return (
        f"{labels:>5,} labels, {allocation:>6}: 95% CI covers the truth in {share:.1%} [{ci[0]:.1%}, {ci[1]:.1%}] of "
        f"{estimable} draws (target >= {COVERAGE_TARGET:.0%}: {verdict}; truth below {below}, above {above}); mean "
        f"width {np.mean(widths) if widths else float('nan'):.3%}; mean lambda "
        f"{np.mean(lams) if lams else float('nan'):.2f}; not estimable {unestimable}; judge alone covers "
        f"{judge_covered / draws:.1%}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--budget", type=int, default=4_000)
    parser.add_argument("--labels", type=int, nargs="+", default=[400, 1000, 2000])
    parser.add_argument(
        "--allocation", nargs="+", choices=["equal", "random", "population"], default=["population", "equal", "random"]
    )
    parser.add_argument("--sensitivity", type=float, default=0.8)
    parser.add_argument("--false-positive", type=float, default=0.003)
    args = parser.parse_args()
    setting_ = setting(args.budget)
    judge = (args.sensitivity, args.false_positive)
    print(
        f"population: {sum(setting_[0].values()):,} conversations, true rate {setting_[2]:.4%}; judged per draw: "
        f"{sum(setting_[3].values()):,}; judge sensitivity {judge[0]:.0%}, false-positive rate {judge[1]:.2%}"
    )
    for labels in args.labels:
        for allocation in args.allocation:
            print(measure(setting_, labels, judge, allocation, args.draws))


if __name__ == "__main__":
    main()
