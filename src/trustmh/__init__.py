"""trustmh: how far can a language model be trusted in mental-health settings?"""

__version__ = "0.1.0"

PILLARS: tuple[str, ...] = (
    "reliability",
    "crisis",
    "safety",
    "fairness",
    "privacy",
    "robustness",
    "sycophancy",
    "ethics",
)

# Task groups: the eight TrustMH-Bench pillars, then task families beside the benchmark
# (``dialogue``: MentalBench/MentalAlign generation and judging). Reports rank models on
# the pillars only; every group is listed by ``trustmh tasks`` and runnable with ``--pillar``.
TASK_GROUPS: tuple[str, ...] = (*PILLARS, "dialogue")
