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
    ),
    Headline(
        "rta_keyword",
        higher_is_better=True,
        label="refuse-to-answer rate on jailbreaks (RtA, keyword detector)",
        sentence="refused {value} of {n} jailbreak prompts (keyword detector)",
    ),
)
