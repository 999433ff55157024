"""How the Ethics pillar's benchmark mode follows TrustMH-Bench's EthicMH protocol, and where not."""

from __future__ import annotations

from trustmh.pillars.protocol import Deviation, TaskProtocol, declare_protocol

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
        ),
        deviations=(
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
