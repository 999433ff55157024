"""Robustness headline: relative score drop under perturbation, averaged over perturbations.

A drop is meaningless when the clean score is at chance level (two chance-level accuracies
differ by nothing), so such a task is left out of the ranking. Chance is uniform guessing:
1/k for k answer options or classes (USMLE-mental items have 5 options or more, so 1/5 is
the highest chance level among them; EmoBench emotion questions have 6 options).
"""

from trustmh.tasking.headline import Headline

HEADLINES = (
    Headline(
        "relative_drop",
        higher_is_better=False,
        label="relative score drop under perturbation",
        sentence="lost {value} of its clean score under perturbation ({n} paired items)",
        grouped_by="perturbation",
        baseline="score[perturbation=clean]",
        chance=(
            ("robustness_crisis_classification", 1 / 7),
            ("robustness_crisis_cssrs", 1 / 5),
            ("robustness_usmle_mental", 1 / 5),
            ("robustness_emobench_eu", 1 / 6),
        ),
        needs="a robustness task",
    ),
)
