"""The MentalAlign-70k / MentalBench-100k schema: attributes, composites, columns, score range.

Source: abeerbadawi/MentalBench-Align (``docs/evaluation_guidelines.md``,
``docs/dataset_description.md`` and the released files).
"""

from __future__ import annotations

from collections.abc import Mapping

# The two composite scores and their attributes, in the order of the released files.
COGNITIVE_SUPPORT: tuple[str, ...] = ("Guidance", "Informativeness", "Relevance", "Safety")
AFFECTIVE_RESONANCE: tuple[str, ...] = ("Empathy", "Helpfulness", "Understanding")
ATTRIBUTES: tuple[str, ...] = COGNITIVE_SUPPORT + AFFECTIVE_RESONANCE
# Cognitive Support Score and Affective Resonance Score: per response, the mean of the
# component attributes; a response counts only if every component is a score.
COMPOSITES: dict[str, tuple[str, ...]] = {"CSS": COGNITIVE_SUPPORT, "ARS": AFFECTIVE_RESONANCE}
ALL_ATTRIBUTES: tuple[str, ...] = ATTRIBUTES + tuple(COMPOSITES)
# Judges add these to their verdicts; the analysis ignores them.
OVERALL, EXPLANATION = "Overall", "Explanation"

# Columns. MentalBench-100k (generation): ``context``, ``response`` (the human reply) and one
# column per model. MentalAlign-70k (ratings): ``ConvID``, ``context`` and ``<prefix>_<key>``.
ID_COLUMN = "ConvID"
CONTEXT_COLUMN = "context"
HUMAN_RESPONSE_COLUMN = "response"
HUMAN_RESPONSE_KEY = "original"  # MentalAlign's key for the human reply
HUMAN_PREFIX = "human_response"
JUDGE_PREFIX = "judge_response"

# The released files and, per judge, the response model of its own family, which MentalBench
# leaves out when measuring that judge (self-preference).
HUMAN_FILE = "human_judge.xlsx"
JUDGE_FILES: dict[str, str] = {
    "claude": "claude_llm_judge.xlsx",
    "gpt-4o": "gpt-4o_llm_judge.xlsx",
    "gemini": "gemini_llm_judge.xlsx",
    "o4-mini": "o4-mini_llm_judge.xlsx",
}
SELF_FAMILY: dict[str, str] = {"claude": "claude", "gpt-4o": "gpt4o", "gemini": "gemini", "o4-mini": "gpt4omini"}

# Score range. The rubric's scale is 1-5, but the released human file marks 33 unusable
# responses with all-zero scores, and MentalBench averaged those zeros in. The default keeps
# them (0-5), which reproduces MentalBench's published ICCs, in the CLI and the Python API
# alike; STRICT_SCORE_RANGE (``--min-score 1``) counts them as unparsed instead.
SCORE_MAX = 5.0
MENTALBENCH_MIN_SCORE = 0.0
DEFAULT_SCORE_RANGE: tuple[float, float] = (MENTALBENCH_MIN_SCORE, SCORE_MAX)
STRICT_SCORE_RANGE: tuple[float, float] = (1.0, SCORE_MAX)


def column(prefix: str, key: str) -> str:
    """``human_response_<key>`` / ``judge_response_<key>``."""
    return f"{prefix}_{key}"


def response_column(key: str) -> str:
    """The MentalBench-100k column holding response ``key`` (``original`` is ``response``)."""
    return HUMAN_RESPONSE_COLUMN if key == HUMAN_RESPONSE_KEY else key


def response_key(column_name: str) -> str:
    """The MentalAlign key of a MentalBench-100k response column."""
    return HUMAN_RESPONSE_KEY if column_name == HUMAN_RESPONSE_COLUMN else column_name


def composite_means(scores: Mapping[str, object]) -> dict[str, float | None]:
    """CSS and ARS of one verdict: the mean of the components, ``None`` unless all are numbers."""
    out: dict[str, float | None] = {}
    for name, parts in COMPOSITES.items():
        values = [scores.get(part) for part in parts]
        numeric = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
        out[name] = sum(numeric) / len(parts) if len(numeric) == len(parts) else None
    return out
