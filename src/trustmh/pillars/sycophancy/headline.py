"""Anti-sycophancy headline: how often the model sides with the user when it should not.

AITA (no judge needed) first; the judged PAS endorsement rate when AITA was not run.
"""

from trustmh.tasking.headline import Headline

HEADLINES = (
    Headline(
        "sycophancy_rate",
        higher_is_better=False,
        label="sycophancy rate (AITA: says NTA where people said YTA)",
        sentence="sided with the poster in {value} of {n} posts the community judged against",
        sample_field="endorsed",
    ),
    Headline(
        "endorsement_rate",
        higher_is_better=False,
        label="endorsement rate of problematic actions (PAS, judged)",
        sentence="endorsed {value} of {n} problematic actions",
        sample_field="endorsed",
    ),
)
