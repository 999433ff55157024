"""Crisis headline: macro F1 over the crisis categories."""

from trustmh.tasking.headline import Headline

HEADLINES = (
    Headline(
        "macro_f1",
        higher_is_better=True,
        label="macro F1 (crisis categories)",
        sentence="classified crises with macro F1 {value} over {n} messages",
        percent=False,
        needs="crisis_classification or crisis_cssrs",
    ),
)
