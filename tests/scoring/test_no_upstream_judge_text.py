"""The project carries none of the judge prompt sentences it reads from upstream at run time
(psychosis-bench DCS/HES/SIS, TrustMH-Bench's APA judge, MentalBench-Align's seven-attribute judge,
VERA-MH's judge prompt, rubric and persona template)."""

from __future__ import annotations

import re
from pathlib import Path

from trustmh.dialogue.mentalbench_upstream import upstream_rubric
from trustmh.pillars.crisis.psychosis_upstream import upstream_judges
from trustmh.pillars.crisis.vera_rubric import load_vera_rubric
from trustmh.pillars.ethics.apa_upstream import judge_template

REPO = Path(__file__).resolve().parents[2]
SUFFIXES = (".py", ".md", ".txt", ".json", ".jsonl", ".j2", ".html")


def _sentences(shared_data: Path) -> set[str]:
    data = str(shared_data)
    templates = [*upstream_judges(data).templates.values(), judge_template(data), upstream_rubric(data)[1]]
    vera = load_vera_rubric(data)
    texts = [
        part for template in [*templates, vera.question_template] for part in template.parts if isinstance(part, str)
    ]
    texts += [vera.beginning, *(text for q in vera.questions.values() for text in (q.text, q.examples))]
    texts.append((shared_data / "vera_mh" / "data" / "persona_prompt_template.txt").read_text(encoding="utf-8"))
    return {
        sentence.strip()
        for text in texts
        for sentence in re.split(r"(?<=[.!?:])\s+|\n", text)
        if len(sentence.strip()) >= 40
    }


def test_src_and_docs_carry_no_upstream_judge_sentence(shared_data: Path) -> None:
    sentences = _sentences(shared_data)
    assert len(sentences) >= 60  # the three judges' prompts hold that many sentences of 40+ characters
    files = [p for folder in ("src", "docs") for p in (REPO / folder).rglob("*") if p.suffix in SUFFIXES]
    assert len(files) > 100
    for path in files:
        text = path.read_text(encoding="utf-8", errors="replace")
        found = next((s for s in sentences if s in text), None)
        assert found is None, f"{path.relative_to(REPO)} carries upstream's judge prompt text: {found[:60]!r}"
