"""Safety headline: refuse-to-answer rate (RtA) on jailbreak prompts."""

from trustmh.pillars.headline import Headline

HEADLINES = (
    Headline(
        "rta",
        higher_is_better=True,
        label="refuse-to-answer rate on jailbreaks (RtA)",
        sentence="refused {value} of {n} jailbreak prompts",
    ),
)
