"""Does the sampled judge pass's 95% CI cover the true rate? 200 seeded draws on a known population.

Population (seeded, of our own): 1,000,000 conversations in the strata of a detector pass
(:func:`trustmh.audit.sample.stratum_of`): 1.2% ``flagged:missed_crisis``, 0.4% other flagged
strata, 2% ``risk``, 3% ``not_covered``, the rest ``clear``. A planted share of each stratum is a
true missed crisis (as a judge would find it): 30% of the detector's missed crises, 2% of the
other flagged, 5% of ``risk``, 1% of ``not_covered``, 0.05% of ``clear``: 0.47% of the population
(printed exactly). Each draw allocates the judge budget with :func:`trustmh.audit.sample.allocate`
(the pass's own rule), draws every stratum's sample as a simple random sample without replacement
(the hypergeometric count of positives it contains: what the keyed-hash sample of
``select_sample`` is), and estimates the rate with
:func:`trustmh.stats.survey.stratified_proportion`. Printed: the share of draws whose 95% CI
covers the true rate (target >= 93%), the mean CI width and one draw written as the audit prints it.

    PYTHONPATH=src python benchmarks/audit_sample_coverage_bench.py [--draws 200] [--budget 4000]
"""

from __future__ import annotations

import argparse

import numpy as np

from trustmh.audit.sample import allocate
from trustmh.stats.survey import Stratum, stratified_proportion

POPULATION = 1_000_000
# stratum: (share of the population, planted share of true missed crises in it)
DESIGN = {
    "flagged:missed_crisis": (0.012, 0.30),
    "flagged:method_info": (0.001, 0.02),
    "flagged:over_escalation": (0.002, 0.02),
    "flagged:refused": (0.001, 0.02),
    "risk": (0.02, 0.05),
    "not_covered": (0.03, 0.01),
    "clear": (0.934, 0.0005),
}
COVERAGE_TARGET = 0.93


def population(seed: int) -> tuple[dict[str, int], dict[str, int]]:
    """(stratum sizes, true positives per stratum), seeded."""
    rng = np.random.default_rng(seed)
    sizes = {h: round(POPULATION * share) for h, (share, _) in DESIGN.items()}
    positives = {h: int(rng.binomial(sizes[h], rate)) for h, (_, rate) in DESIGN.items()}
    return sizes, positives


def setting(budget: int) -> tuple[dict[str, int], dict[str, int], float, dict[str, int]]:
    """(stratum sizes, true positives per stratum, the true rate, judged per stratum for ``budget``)."""
    sizes, positives = population(seed=2026)
    truth = sum(positives.values()) / sum(sizes.values())
    return sizes, positives, truth, allocate(sizes, [h for h in sizes if h.startswith("flagged:")], budget)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=200)
    parser.add_argument("--budget", type=int, default=4_000)
    args = parser.parse_args()
    sizes, positives, truth, counts = setting(args.budget)
    print(f"population: {sum(sizes.values()):,} conversations, true rate {truth:.4%}; judged per draw: {counts}")
    covered, widths = 0, []
    for draw in range(args.draws):
        rng = np.random.default_rng(1000 + draw)
        strata = [
            Stratum(sizes[h], counts[h], int(rng.hypergeometric(positives[h], sizes[h] - positives[h], counts[h])))
            for h in sizes
        ]
        estimate = stratified_proportion(strata)
        covered += estimate.ci_low <= truth <= estimate.ci_high
        widths.append(estimate.ci_high - estimate.ci_low)
        if draw == 0:
            print(
                f"draw 0: missed crises: {estimate.value:.2%} [{estimate.ci_low:.2%}, {estimate.ci_high:.2%}] "
                f"of conversations, estimated from {estimate.n:,} judged of {sum(sizes.values()):,}"
            )
    coverage = covered / args.draws
    print(
        f"95% CI coverage over {args.draws} seeded draws: {coverage:.1%} "
        f"(target >= {COVERAGE_TARGET:.0%}: {'OK' if coverage >= COVERAGE_TARGET else 'BELOW'}); "
        f"mean CI width {np.mean(widths):.3%}"
    )


if __name__ == "__main__":
    main()
