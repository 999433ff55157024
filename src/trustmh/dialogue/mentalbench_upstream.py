"""MentalBench-Align's own seven-attribute judge (benchmark mode of the MentalBench judge).

Upstream's ``Codes/evaluation/llm_judge_evaluation.py`` (pinned in the data catalogue) builds the
prompt in ``create_evaluation_prompt(context, response)`` (an f-string) and sends it as the only user
message through ``generate_response`` (``client.chat.completions.create(..., temperature=..,
max_tokens=..)``); that script produced the released judge files. trustmh reads the template and
both settings from the file at run time (:mod:`trustmh.data.upstream_code`; none of its text is in
trustmh) and judges through the shared judge with a :class:`~trustmh.scoring.verbatim.VerbatimProtocol`.

The script keeps the judge's raw reply in its CSV; it has no reader of its own. trustmh reads the
reply with the shared JSON verdict reader (the seven attributes, ``Overall`` and ``Explanation``;
exactly one verdict of the judge's own), the one reader there is (``parser=corrected``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from trustmh.data.upstream import upstream_text
from trustmh.data.upstream_code import (
    Template,
    UpstreamCodeError,
    call_keyword,
    literal_value,
    string_template,
    template_text,
)
from trustmh.mentalalign.rubric import MENTALALIGN_RUBRIC
from trustmh.scoring.rubric import Rubric, VerbatimProtocol
from trustmh.scoring.verdict import Verdict, parse_verdict

UPSTREAM_KEY = "mentalalign70k/upstream/llm_judge_evaluation.py"
GENERATION_KEY = "mentalalign70k/upstream/generate_responses.py"
ORIGIN = f"{UPSTREAM_KEY}:create_evaluation_prompt:return"


def _read(reply: str, rubric: Rubric, judged: Sequence[str]) -> Verdict:
    # A published judge's prompt is sent unredacted: a verdict restating planted ratings may be a copy.
    return parse_verdict(reply, rubric, judged, saw_plants=True)


def judge_settings(source: str) -> tuple[float, int]:
    """The temperature and max_tokens upstream's ``generate_response`` sends to the judge."""
    temperature = call_keyword(source, "generate_response", "create", "temperature")
    max_tokens = call_keyword(source, "generate_response", "create", "max_tokens")
    return float(temperature), int(max_tokens)


def upstream_rubric(data_dir: str | None) -> tuple[Rubric, Template]:
    """The verbatim seven-attribute rubric (upstream's prompt and settings) and its template."""
    source = upstream_text(UPSTREAM_KEY, data_dir)
    template = string_template(source, "create_evaluation_prompt")
    if set(template.fields) != {"context", "response"}:
        raise UpstreamCodeError(f"{ORIGIN}: expected fields context, response; found {', '.join(template.fields)}")
    temperature, max_tokens = judge_settings(source)

    def build(context: str, response: str) -> str:
        return template.render({"context": context, "response": response})

    protocol = VerbatimProtocol(
        template=template_text(template),
        origin=ORIGIN,
        read_reply=_read,
        parser="corrected",
        temperature=temperature,
        max_tokens=max_tokens,
        build=build,
    )
    rubric = Rubric(
        name="mentalbench_seven_attributes_upstream",
        instructions=template_text(template),
        fields=MENTALALIGN_RUBRIC.fields,
        extra_fields=(),
        verbatim=protocol,
    )
    return rubric, template


def log_metadata(template: Template) -> dict[str, object]:
    text = template_text(template)
    return {"origin": ORIGIN, "template": text, "sha256": hashlib.sha256(text.encode()).hexdigest()}


def upstream_generation_prompt(data_dir: str | None) -> str:
    """MentalBench's generation prompt (``MENTAL_HEALTH_PROMPT`` of the pinned
    ``generate_responses.py``, hash-checked), with ``{user_concern}`` where the context goes."""
    prompt = literal_value(upstream_text(GENERATION_KEY, data_dir), None, "MENTAL_HEALTH_PROMPT")
    if not isinstance(prompt, str) or "{user_concern}" not in prompt or prompt.count("{") != 1:
        raise UpstreamCodeError(f"{GENERATION_KEY}: MENTAL_HEALTH_PROMPT is not a template with one {{user_concern}}")
    return prompt
