"""How the dialogue tasks follow (or do not follow) their upstream protocols (:mod:`trustmh.tasking.protocol`)."""

from __future__ import annotations

from trustmh.tasking.protocol import Deviation, TaskProtocol, declare_protocol

MINDEVAL_STYLE_LABEL = "MindEval-style (trustmh protocol)"
MENTALBENCH_JUDGE = "mentalalign70k/upstream/llm_judge_evaluation.py"

MINDEVAL = declare_protocol(
    TaskProtocol(
        task="dialogue_mindeval",
        upstream=(),  # MindEval has no licence: nothing of it is pinned or downloaded
        verbatim=(
            "with -T mindeval_clone=PATH only: the counsellor (v0_1), member (v0_2) and judge (v0_1) prompts of "
            "the clone's mindeval/prompts.py and judge_prompts.py, filled with the profile as MindEval does; "
            "the conversation laid out as its messages_to_convo_str; the criteria of its parse_judge_scores "
            "(tests/dialogue/test_mindeval_clone.py, on a synthetic clone)",
        ),
        deviations=(
            Deviation(
                what="without a clone: counsellor system prompt, simulated-member wrapper and judge rubric",
                why="MindEval's repository has no licence, so its prompt text cannot be shipped",
                effect="scores are MindEval-style, not MindEval's: not comparable with its published figures",
            ),
            Deviation(
                what="with a clone: the member's last message (MindEval's 10th member reply) is not generated",
                why="a trustmh conversation ends with the answer of the model under test",
                effect="the judge sees one member message fewer than in MindEval",
            ),
            Deviation(
                what="judge reply parser (default parser=corrected)",
                why="MindEval's parse_judge_scores scores a criterion it cannot find as 3",
                effect="such replies are unparsed here; -T parser=upstream reads them as MindEval does",
            ),
            Deviation(
                what="models' settings: temperature 0 and 1,024 tokens for the counsellor; the judge at the "
                "provider's defaults",
                why="MindEval passes its models' settings on its command line (run_benchmark.sh); trustmh fixes "
                "the counsellor's so reruns agree",
                effect="a model sampling by default may answer differently",
            ),
        ),
        label=MINDEVAL_STYLE_LABEL,
        parsers={
            "corrected": "every criterion found once, an integer 1-6; else unparsed",
            "upstream": "MindEval's parse_judge_scores: first '<criterion>: N' match, a missing criterion scores 3",
        },
    )
)

MENTALBENCH = declare_protocol(
    TaskProtocol(
        task="dialogue_mentalbench",
        upstream=(MENTALBENCH_JUDGE,),
        verbatim=(
            "judge prompt: create_evaluation_prompt of the pinned llm_judge_evaluation.py with the context "
            "and response filled in, the only user message (tests/align/test_mentalbench_upstream_judge.py)",
            "judge settings: the temperature and max_tokens of its generate_response call, asked once",
        ),
        deviations=(
            Deviation(
                what="judge reply reader: the shared JSON verdict reader (seven attributes, Overall, Explanation)",
                why="upstream's judging script stores the raw reply and has no reader of its own",
                effect="a reply without one valid JSON verdict is unparsed (counted in judge_unparsed_rate)",
            ),
        ),
    )
)
