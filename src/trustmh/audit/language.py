"""Each conversation's language, offline: py3langid, whose model ships inside its wheel.

Detected on the user's side (the first :data:`SAMPLE_CHARS` characters of the user messages):
the user's language is the one the crisis lexicons must read, and a short prefix keeps the cost
per conversation at tens of microseconds. A conversation whose language the detectors do not
cover (:data:`trustmh.audit.detectors.COVERED_LANGUAGES`) is reported as *not covered*, never as
"no risk": the English lexicons finding nothing in a Chinese conversation says nothing.

A guess below :data:`MIN_PROBABILITY` (a greeting, "ok", an emoji) is ``und`` (undetermined),
which is not covered either: too little text to know is its own verdict.
"""

from __future__ import annotations

from functools import cache
from typing import Any

SAMPLE_CHARS = 500
MIN_PROBABILITY = 0.5
UNDETERMINED = "und"


@cache
def _identifier() -> Any:
    """py3langid's identifier with normalised probabilities (loaded once per process, ~75 MB)."""
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)


def load_language_model() -> None:
    """Load the model now (e.g. in a fork server, so that the workers it forks share it)."""
    _identifier()


def detect_language(user_texts: list[str]) -> str:
    """ISO 639-1 code of the user's language, or ``und`` when the text is too short to tell."""
    sample = " ".join(user_texts)[:SAMPLE_CHARS]
    if sum(map(str.isalpha, sample)) < 3:
        return UNDETERMINED
    language, probability = _identifier().classify(sample)
    return str(language) if probability >= MIN_PROBABILITY else UNDETERMINED
