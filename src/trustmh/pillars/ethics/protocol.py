"""How the Ethics pillar's benchmark mode follows TrustMH-Bench's EthicMH protocol, and where not."""

from __future__ import annotations

from trustmh.tasking.protocol import Deviation, TaskProtocol, declare_protocol

ETHICS_ZIP = "trustmh/release/Ethics.zip"

declare_protocol(
    TaskProtocol(
        task="ethics_ethicmh",
        upstream=(ETHICS_ZIP,),
        verbatim=(
            "first message: build_reasoning_prompt of the pinned Ethics/src/prompts.py, rendered with the "
            "dataset's cells as upstream passes them",
            "generation: temperature 0 (Ethics/src/settings.py DEFAULT_TEMPERATURE), no token limit requested "
            "by upstream",
            "APA judge (-T judge_prompts=upstream, the benchmark default): build_judge_prompt of the pinned "
            "Ethics/src/prompts.py filled with the item's cells and the whole answer, one user message at "
            "temperature 0.0, asked once; with upstream's cells it equals every recorded judge_prompt of the "
            "12 released runs (tests/pillars/ethics/test_apa_upstream.py)",
        ),
        deviations=(
            Deviation(
                what="default APA judge reply reader (parser=corrected): all five principles, integers 1-5, one "
                "JSON verdict of the judge's own; -T parser=upstream reads each principle as pipeline.py does",
                why="upstream keeps any principle that reads as a number 1-5 (3.5 included) and drops the others, "
                "and would count a verdict the judged answer planted and the judge copied",
                effect="sc1-sc5 differ on replies with a missing, fractional or copied score (a judge run; "
                "trustmh reproduce aggregates upstream's released verdicts and is not affected)",
            ),
            Deviation(
                what="default choice reader (trustmh.pillars.ethics.scorers.parse_ethics_choice); "
                "-T parser=upstream reads the choice as pipeline.py's _extract_model_choice",
                why="upstream falls back to the first standalone letter A-D anywhere in the answer, so the article "
                "'a' of a sentence counts as option A",
                effect="accuracy differs for answers without a readable JSON choice",
                metrics=("accuracy",),
            ),
            Deviation(
                what="dataset text: the UTF-8 EthicMH file, where upstream's run decoded a non-UTF-8 copy with "
                "gb18030 and sent mojibake for curly quotes and dashes",
                why="the model should read the dilemma as written; the mojibake is an encoding accident",
                effect="items whose text holds such characters differ from upstream's request in those characters "
                "only (tested)",
            ),
            Deviation(
                what="benchmark-mode token limit: 1024 tokens where upstream requested none",
                why="a bounded budget keeps cost finite; 1024 tokens let the JSON answer finish",
                effect="none expected: released answers are far shorter",
            ),
        ),
        parsers={
            "corrected": "JSON 'choice' field, else the shared choice parser; several or none -> unparsed (default)",
            "upstream": "TrustMH-Bench pipeline.py _extract_model_choice (first letter A-D anywhere as fallback)",
        },
    )
)
