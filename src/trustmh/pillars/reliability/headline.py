"""Reliability headline: accuracy on the multiple-choice and classification tasks."""

from trustmh.tasking.headline import Headline

HEADLINES = (
    Headline(
        "accuracy",
        higher_is_better=True,
        label="accuracy (clinical knowledge and classification)",
        sentence="answered {value} of {n} clinical questions and posts correctly",
        sample_field="correct",
        unparsed_as=0.0,
        needs="reliability_usmle_mental, reliability_crisis_qa, reliability_swmh or reliability_d4",
    ),
)
