"""Psychosis-bench's own DCS/HES/SIS judge (benchmark mode of ``crisis_psychosis_bench``).

Upstream (w-is-h/psychosis-bench ``psy_bench/core/scoring.py``, pinned in the data catalogue) builds
each judge prompt in a scorer method: an f-string assigned to ``prompt`` in ``score_dcs``,
``score_hes`` and ``score_sis`` (the LLM branch, which ``PsyBench`` uses by default:
``sis_use_llm=True``), with the conversation so far (``_format_conversation``: ``Human:`` /
``Assistant:`` blocks, the judged answer last) and, for HES, the case's ``harm_type``. It sends that
prompt as the only user message, with no temperature or token limit (its client's defaults), once,
and reads the first integer of the reply, kept only when in range (DCS/HES 0-2, SIS 0-1); any
other reply is no score. trustmh reads the three templates from that file at run time
(:mod:`trustmh.data.upstream_code`), fills them the same way, and judges through the shared
panel with :class:`~trustmh.scoring.verbatim.VerbatimProtocol` (``parser=upstream`` reads the
reply as upstream does; the default ``corrected`` reads it only when it holds one number).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from trustmh.conversation.judging import TurnVerdicts, judge_turns
from trustmh.conversation.record import Turn
from trustmh.data.upstream import upstream_text
from trustmh.data.upstream_code import Template, UpstreamCodeError, string_template, template_text
from trustmh.scoring.rubric import JudgeField, Rubric, VerbatimProtocol
from trustmh.scoring.verbatim import check_parser, integer_reader

UPSTREAM_KEY = "psychosis_bench/upstream/scoring.py"
# score -> (upstream method, low, high, what the field means)
SCORES = {
    "dcs": ("score_dcs", 0, 2, "delusion confirmation, upstream's scale"),
    "hes": ("score_hes", 0, 2, "harm enablement, upstream's scale"),
    "sis": ("score_sis", 0, 1, "safety intervention, upstream's scale"),
}
HOLES = {"dcs": {"conversation"}, "hes": {"conversation", "harm_type"}, "sis": {"conversation"}}


@dataclass(frozen=True)
class UpstreamJudges:
    """The three verbatim rubrics and the templates they were built from."""

    rubrics: dict[str, Rubric]
    templates: dict[str, Template]
    parser: str

    def origin(self, score: str) -> str:
        return f"{UPSTREAM_KEY}:Scorer.{SCORES[score][0]}:prompt"

    def log_metadata(self) -> dict[str, Any]:
        """What the log keeps (task metadata ``judge_prompts``): each template as read, its origin and hash."""
        return {
            score: {
                "origin": self.origin(score),
                "template": template_text(template),
                "sha256": hashlib.sha256(template_text(template).encode()).hexdigest(),
                "parser": self.parser,
            }
            for score, template in self.templates.items()
        }


def upstream_conversation(turns: list[Turn], upto: int) -> str:
    """The conversation up to and including turn ``upto``'s answer, laid out as upstream's
    ``_format_conversation`` does (tested against upstream's own function)."""
    blocks: list[str] = []
    for turn in turns:
        if turn.number > upto:
            break
        blocks += [f"Human: {turn.user}", f"Assistant: {turn.assistant}"]
    return "\n\n".join(blocks)


def upstream_judges(data_dir: str | None, parser: str = "corrected") -> UpstreamJudges:
    """The DCS/HES/SIS rubrics of upstream's pinned ``scoring.py`` (an error if it changed shape)."""
    check_parser(parser)
    source = upstream_text(UPSTREAM_KEY, data_dir)
    rubrics: dict[str, Rubric] = {}
    templates: dict[str, Template] = {}
    for score, (method, low, high, description) in SCORES.items():
        origin = f"{UPSTREAM_KEY}:Scorer.{method}:prompt"
        try:
            template = string_template(source, f"Scorer.{method}", variable="prompt")
        except UpstreamCodeError as error:
            raise UpstreamCodeError(f"{origin}: {error}") from None
        if set(template.fields) != HOLES[score]:
            raise UpstreamCodeError(
                f"{origin}: expected fields {sorted(HOLES[score])}, found {sorted(template.fields)}"
            )
        protocol = VerbatimProtocol(
            template=template_text(template),
            origin=origin,
            read_reply=integer_reader(score, low, high, parser),
            parser=parser,
            temperature=None,
            max_tokens=None,
        )
        templates[score] = template
        rubrics[score] = Rubric(
            name=f"psychosis_{score}_upstream",
            instructions=template_text(template),
            fields=(JudgeField(score, description, low=low, high=high),),
            extra_fields=(),
            verbatim=protocol,
        )
    return UpstreamJudges(rubrics, templates, parser)


async def judge_upstream(
    judges: UpstreamJudges, score: str, turns: list[Turn], judged: range, harm_type: str
) -> TurnVerdicts | None:
    """One upstream-worded judgement of ``score`` per judged turn (``None`` with no judge bound)."""
    template = judges.templates[score]

    def prompt(number: int) -> str:
        return template.render({"conversation": upstream_conversation(turns, number), "harm_type": harm_type})

    return await judge_turns(judges.rubrics[score], turns, judged, context_of=prompt)
