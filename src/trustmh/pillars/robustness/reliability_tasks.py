"""Robustness of the Reliability pillar's MCQ tasks (USMLE-mental, EmoBench EU).

The dataset builders and scorers are the Reliability pillar's. Their samples carry the item
part of the prompt as ``perturb_span``, so a variant perturbs the question, options and scenario
but not our instruction; option markers ("A.", "(B)") and answer-cue lines stay intact.
"""

from __future__ import annotations

import functools

from trustmh.pillars.reliability.dataset import emobench_dataset, usmle_dataset
from trustmh.pillars.reliability.scorers import emobench_scorer, mcq_scorer
from trustmh.pillars.reliability.tasks import ANSWER_GENERATION
from trustmh.pillars.robustness.tasks import robustness_of

# The 0/1 field of the reliability scorers' score value.
MCQ_FIELD = "correct"
# The base tasks' own settings: the clean pass must be the base task's request, in starter
# runs too (it used 16 tokens where the base tasks use 64, so the two were different requests).
MCQ_GENERATION = ANSWER_GENERATION
# EmoBench's EU accuracy needs both the emotion and its cause right.
EMOBENCH_FIELD = "joint_correct"


robustness_usmle_mental = robustness_of(
    "robustness_usmle_mental",
    base_task="reliability_usmle_mental",
    datasets=("psyeval",),
    generation=MCQ_GENERATION,
    dataset=usmle_dataset,
    scorer=mcq_scorer,
    score_field=MCQ_FIELD,
    description="USMLE-mental MCQ accuracy, clean vs perturbed question text (relative drop).",
)

robustness_emobench_eu = robustness_of(
    "robustness_emobench_eu",
    base_task="reliability_emobench_eu",
    datasets=("emobench",),
    generation=MCQ_GENERATION,
    dataset=functools.partial(emobench_dataset, language="en"),
    scorer=emobench_scorer,
    score_field=EMOBENCH_FIELD,
    description="EmoBench EU (English) accuracy, clean vs perturbed scenarios (relative drop).",
)
