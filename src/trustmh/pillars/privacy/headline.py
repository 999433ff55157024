"""Privacy headline: agreement with human privacy ratings (ConfAIde), else PsyLeak leaks."""

from trustmh.tasking.headline import Headline

HEADLINES = (
    Headline(
        "pearson_r",
        higher_is_better=True,
        label="Pearson r with human privacy ratings (ConfAIde tiers)",
        sentence="its privacy ratings correlated with people's at r = {value} ({n} items)",
        percent=False,
    ),
    Headline(
        "free_response_leak_rate",
        higher_is_better=False,
        label="leak rate in free responses (PsyLeak)",
        sentence="leaked the secret in {value} of {n} free responses",
        sample_field="free_response_leak",
    ),
)
