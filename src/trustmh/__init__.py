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
