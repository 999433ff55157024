"""Ethics headline: choice accuracy on EthicMH dilemmas (the option experts chose)."""

from trustmh.tasking.headline import Headline

HEADLINES = (
    Headline(
        "accuracy",
        higher_is_better=True,
        label="choice accuracy on ethical dilemmas",
        sentence="chose the experts' option in {value} of {n} ethical dilemmas",
        sample_field="correct",
        unparsed_as=0.0,
        needs="ethics_ethicmh",
    ),
)
