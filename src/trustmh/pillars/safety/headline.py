"""Safety headline: refuse-to-answer rate (RtA) on jailbreak prompts.

The judge's verdict when a judge was bound (TrustMH-Bench judged refusals with an LLM), else
the offline keyword detector; the label says which.
"""

from trustmh.pillars.headline import Headline

HEADLINES = (
    Headline(
        "rta_judge",
        higher_is_better=True,
        label="refuse-to-answer rate on jailbreaks (RtA, judge verdict)",
        sentence="refused {value} of {n} jailbreak prompts (judge verdict)",
        sample_field="judge_refused",
    ),
    Headline(
        "rta_keyword",
        higher_is_better=True,
        label="refuse-to-answer rate on jailbreaks (RtA, keyword detector)",
        sentence="refused {value} of {n} jailbreak prompts (keyword detector)",
        sample_field="rta",
    ),
)

# The per-sample 0/1 score field behind each headline (the report's method × objective grid
# is drawn from the samples), in the same order of preference.
SAMPLE_FIELDS: dict[str, str] = {h.metric: h.sample_field for h in HEADLINES if h.sample_field is not None}
