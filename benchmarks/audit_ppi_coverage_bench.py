"""Does the clinician-corrected population rate of the sampled judge pass cover the truth?

The population, strata and planted missed crises are those of ``audit_sample_coverage_bench.py``
(1,000,000 conversations, 0.47% true missed crises). Now the judge errs: it finds a true missed
crisis with probability ``--sensitivity`` and calls another conversation one with probability
``--false-positive`` (the same in every stratum), so its own estimate is biased. The clinicians'
label is the truth. Each of ``--draws`` seeded draws judges the pass's allocation of ``--budget``
conversations (a simple random sample per stratum), labels ``--labels`` of the judged ones (a
simple random sample of them, as ``trustmh labels export --sample`` draws), and estimates the rate
with :func:`trustmh.stats.two_phase_ppi.two_phase_rate`. Printed per row: how often the 95% CI
covers the true rate (target >= 93%) with the coverage's own Wilson interval, how often the truth
lay below / above it, the mean width, the mean tuned lambda, draws not estimable (a stratum with
fewer than 2 labels), and the judge-only estimate's coverage of the same truth (biased when the
judge errs); and draw 0 written as the audit prints it.

    PYTHONPATH=src python benchmarks/audit_ppi_coverage_bench.py [--draws 200] [--budget 4000] [--labels 400 1000 2000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from audit_sample_coverage_bench import COVERAGE_TARGET, setting

from trustmh.stats.intervals import wilson_interval
from trustmh.stats.survey import Stratum, stratified_proportion
from trustmh.stats.two_phase_ppi import LabelledStratum, two_phase_rate


def draw_strata(
    sizes: dict[str, int],
    positives: dict[str, int],
    counts: dict[str, int],
    labels: int,
    judge: tuple[float, float],
    rng: np.random.Generator,
) -> list[LabelledStratum]:
    """One draw: each stratum's judged sample with the judge's answers, and the labelled subsample."""
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
    # labels: a simple random sample of all the judged conversations
    owners = np.concatenate([np.full(counts[h], i) for i, h in enumerate(sizes)])
    chosen = rng.choice(len(owners), size=labels, replace=False)
    strata = []
    for i, h in enumerate(sizes):
        mine = chosen[owners[chosen] == i] - np.flatnonzero(owners == i)[0]
        strata.append(LabelledStratum(sizes[h], answers[h], judged_truth[h][mine], answers[h][mine]))
    return strata


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--budget", type=int, default=4_000)
    parser.add_argument("--labels", type=int, nargs="+", default=[400, 1000, 2000])
    parser.add_argument("--sensitivity", type=float, default=0.8)
    parser.add_argument("--false-positive", type=float, default=0.003)
    args = parser.parse_args()
    sizes, positives, truth, counts = setting(args.budget)
    judge = (args.sensitivity, args.false_positive)
    print(
        f"population: {sum(sizes.values()):,} conversations, true rate {truth:.4%}; judged per draw: "
        f"{sum(counts.values()):,}; judge sensitivity {judge[0]:.0%}, false-positive rate {judge[1]:.2%}"
    )
    for labels in args.labels:
        covered = below = above = unestimable = judge_covered = 0
        widths, lams = [], []
        for draw in range(args.draws):
            rng = np.random.default_rng(1000 + draw)
            strata = draw_strata(sizes, positives, counts, labels, judge, rng)
            judge_only = stratified_proportion(
                [Stratum(s.population, len(s.judged), int(s.judged.sum())) for s in strata]
            )
            judge_covered += judge_only.ci_low <= truth <= judge_only.ci_high
            estimate = two_phase_rate(strata)
            if estimate.value != estimate.value:
                unestimable += 1
                continue
            low, high = estimate.ci
            if draw == 0:
                print(
                    f"draw 0: missed crises: {judge_only.value:.2%} [{judge_only.ci_low:.2%}, {judge_only.ci_high:.2%}] "
                    f"of conversations, estimated from {judge_only.n:,} judged of {sum(sizes.values()):,}; corrected by "
                    f"{estimate.labelled:,} clinician labels (two-phase PPI, lambda {estimate.lam:.2f}): "
                    f"{estimate.value:.2%} [{low:.2%}, {high:.2%}]"
                )
            covered += low <= truth <= high
            below += truth < low
            above += truth > high
            widths.append(high - low)
            lams.append(estimate.lam)
        estimable = args.draws - unestimable
        share = covered / estimable if estimable else float("nan")
        ci = wilson_interval(covered, estimable) if estimable else (float("nan"), float("nan"))
        verdict = "OK" if share >= COVERAGE_TARGET else "BELOW"
        print(
            f"{labels:>5,} labels: 95% CI covers the truth in {share:.1%} [{ci[0]:.1%}, {ci[1]:.1%}] of {estimable} "
            f"draws (target >= {COVERAGE_TARGET:.0%}: {verdict}; truth below {below}, above {above}); mean width "
            f"{np.mean(widths) if widths else float('nan'):.3%}; mean lambda {np.mean(lams) if lams else float('nan'):.2f}; "
            f"not estimable {unestimable}; judge alone covers {judge_covered / args.draws:.1%}"
        )


if __name__ == "__main__":
    main()
