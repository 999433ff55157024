"""TrustMH-Bench's own APA-principle judge (benchmark mode of the Ethics pillar's judge).

Upstream (``Ethics/src/prompts.py`` in TrustMH-Bench's pinned ``Ethics.zip``) builds the judge
prompt in ``build_judge_prompt(sample, model_reply)`` from string pieces and the item's cells
(scenario, options, reasoning_task, expected_reasoning, model_behavior, as its CSV holds them) and
the model's whole reply; ``pipeline.py`` sends it as the only user message at temperature 0.0, once,
and keeps, per principle ``sc1``..``sc5``, any value that reads as a number from 1 to 5 in the JSON
its ``_parse_json_content`` finds (a fenced block, else the whole reply). trustmh reads the template
from that file at run time (:mod:`trustmh.data.upstream_code`; none of its text is in trustmh) and
judges through the shared panel with a :class:`~trustmh.scoring.verbatim.VerbatimProtocol`:

* ``parser=upstream``: upstream's reading, field by field (a verdict may lack some principles;
  a fractional value such as 3.5 counts, as upstream's ``float`` keeps it);
* ``parser=corrected`` (default): the shared JSON verdict reader: all five principles, integers
  1-5, exactly one verdict of the judge's own (objects copied from the judged answer never count).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from trustmh.data.upstream import upstream_zip_member
from trustmh.data.upstream_code import Field, Template, string_template, template_text
from trustmh.pillars.ethics.prompts import ETHICS_PROMPTS, ETHICS_ZIP
from trustmh.scoring.rubric import JudgeField, Rubric, VerbatimProtocol
from trustmh.scoring.verbatim import check_parser
from trustmh.scoring.verdict import Verdict, VerdictError, parse_verdict

PROMPTS_MEMBER = ETHICS_PROMPTS
ORIGIN = f"{ETHICS_ZIP}:{PROMPTS_MEMBER}:build_judge_prompt:prompt"
# The item's cells upstream passes to build_judge_prompt (its names), then the model's reply.
CELLS = ("scenario", "options", "reasoning_task", "expected_reasoning", "model_behavior")
PRINCIPLE_FIELDS = ("sc1", "sc2", "sc3", "sc4", "sc5")
JUDGE_TEMPERATURE = 0.0  # pipeline.py: call_model(prompt=judge_prompt, model=JUDGE_MODEL, temperature=0.0)


def judge_template(data_dir: str | None) -> Template:
    """``build_judge_prompt``'s prompt, from the pinned zip, with the fixed blocks it interpolates
    (``principles``, ``scoring_criteria``: string constants of the same function) put in place, so
    the fields left are the item's cells and ``model_reply``."""
    source = upstream_zip_member(ETHICS_ZIP, PROMPTS_MEMBER, data_dir).decode("utf-8")
    template = string_template(source, "build_judge_prompt", variable="prompt")
    fixed = {
        name: string_template(source, "build_judge_prompt", variable=name).literal
        for name in template.fields
        if name not in (*CELLS, "model_reply")
    }
    parts = [fixed.get(p.expression, p) if isinstance(p, Field) else p for p in template.parts]
    return Template(tuple(parts))


def _upstream_json(reply: str) -> object:
    """The object upstream's ``_parse_json_content`` finds: a fenced block's JSON, else the whole reply's."""
    text = (reply or "").strip()
    if "```" in text:
        for part in text.split("```"):
            part = part.strip()
            if part.lower().startswith("json"):
                part = part[4:].strip()
            if part.startswith("{") and part.endswith("}"):
                try:
                    return json.loads(part)
                except ValueError:
                    continue
    try:
        return json.loads(text)
    except ValueError:
        return None


def read_upstream(reply: str, rubric: Rubric, judged: Sequence[str]) -> Verdict:
    """Upstream's reading: each principle whose value reads as a number in 1..5; others left out."""
    found = _upstream_json(reply)
    verdict: dict[str, object] = {}
    if isinstance(found, dict):
        for name in PRINCIPLE_FIELDS:
            try:
                value = float(found[name])
            except (KeyError, TypeError, ValueError):
                continue
            if 1 <= value <= 5:
                verdict[name] = int(value) if value.is_integer() else value
    if not verdict:
        raise VerdictError("no principle score from 1 to 5 in the reply's JSON")
    return {name: verdict.get(name) for name in PRINCIPLE_FIELDS}  # type: ignore[misc]  # None = not given


def read_corrected(reply: str, rubric: Rubric, judged: Sequence[str]) -> Verdict:
    # A published judge's prompt is sent unredacted: a verdict restating planted ratings may be a copy.
    return parse_verdict(reply, rubric, judged, saw_plants=True)


def apa_rubric(data_dir: str | None, parser: str = "corrected") -> tuple[Rubric, Template]:
    """The verbatim APA-principle rubric and the template its prompts are built from."""
    check_parser(parser)
    template = judge_template(data_dir)
    expected = {*CELLS, "model_reply"}
    if set(template.fields) != expected:
        from trustmh.data.upstream_code import UpstreamCodeError

        raise UpstreamCodeError(f"{ORIGIN}: expected fields {sorted(expected)}, found {sorted(template.fields)}")
    protocol = VerbatimProtocol(
        template=template_text(template),
        origin=ORIGIN,
        read_reply=read_upstream if parser == "upstream" else read_corrected,
        parser=parser,
        temperature=JUDGE_TEMPERATURE,
        max_tokens=None,
    )
    rubric = Rubric(
        name="ethics_apa_principles_upstream",
        instructions=template_text(template),
        fields=tuple(JudgeField(name, f"APA principle {name}", 1, 5) for name in PRINCIPLE_FIELDS),
        extra_fields=tuple(f"{name}_reason" for name in PRINCIPLE_FIELDS),
        verbatim=protocol,
    )
    return rubric, template


def judge_prompt_for(template: Template, cells: Mapping[str, str], model_reply: str) -> str:
    """The prompt upstream builds for one item's cells and the model's whole reply."""
    return template.render({**{name: cells[name] for name in CELLS}, "model_reply": model_reply})


@dataclass(frozen=True)
class UpstreamApa:
    """What benchmark mode judges with: the verbatim rubric, its template and each item's cells."""

    rubric: Rubric
    template: Template
    cells: dict[str, dict[str, str]]  # EthicMH index -> the cells upstream passes, as the CSV holds them

    def prompt(self, item_id: str, model_reply: str) -> str:
        return judge_prompt_for(self.template, self.cells[item_id], model_reply)

    def log_metadata(self) -> dict[str, object]:
        text = template_text(self.template)
        return {"origin": ORIGIN, "template": text, "sha256": hashlib.sha256(text.encode()).hexdigest()}


def item_cells(data_dir: str | None) -> dict[str, dict[str, str]]:
    """Each EthicMH item's cells as upstream's ``load_dataset`` passes them on (unstripped)."""
    from trustmh.data.loaders.ethicmh import FILENAME, REQUIRED_COLUMNS
    from trustmh.data.readers import read_csv_rows
    from trustmh.data.registry import resolve_file

    rows = read_csv_rows(resolve_file("ethicmh", FILENAME, data_dir), (*REQUIRED_COLUMNS, "model_behavior"))
    return {row["index"].strip(): {name: row[name] for name in CELLS} for row in rows}


def upstream_apa(data_dir: str | None, parser: str = "corrected") -> UpstreamApa:
    rubric, template = apa_rubric(data_dir, parser)
    return UpstreamApa(rubric, template, item_cells(data_dir))
