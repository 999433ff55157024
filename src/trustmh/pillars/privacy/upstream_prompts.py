"""Benchmark-mode requests of the Privacy pillar, built exactly as TrustMH-Bench builds them.

No upstream sentence is written here: the templates are read at run time from the pinned
``privacy.zip`` (:mod:`trustmh.data.upstream`) with ``ast`` (:mod:`trustmh.data.upstream_code`),
and filled the way upstream's code fills them:

* tiers 1/2: each benchmark line ``strip()``-ed (its literal ``\\n`` kept, as upstream reads it)
  into ``privacy1.py``'s ``PrivacyTierDataset`` template (tier 1) or ``privacy2.py``'s
  ``_build_repeated_inputs`` f-string with an empty ``prompt_header`` (tiers 2a/2b);
* PsyLeak (``privacy3.py``): the story lines of a scenario joined with spaces and the last
  sentence split off, as ``EvalAgent.load_dataset`` does, then the instruction, the question of
  each type and, for questions without ``": "``, the ``Answer:`` suffix of ``PrivacyTierDataset``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from trustmh.data.upstream import upstream_zip_member
from trustmh.data.upstream_code import (
    assigned_strings,
    attribute_defaults,
    dict_entry,
    dict_literals,
    format_receiver,
    format_receivers,
    string_template,
)

PRIVACY_ZIP = "trustmh/release/privacy.zip"
CODE = {"1": "privacy/task1/privacy1.py", "2": "privacy/task2/privacy2.py", "3": "privacy/task3/privacy3.py"}
QUESTION_TYPES = ("free-response", "info-accessibility", "privacy-sharing", "control")


def _code(tier: str, data_dir: str | Path | None) -> str:
    return upstream_zip_member(PRIVACY_ZIP, CODE[tier[0]], data_dir).decode("utf-8")


def rating_prompt(tier: str, line: str, data_dir: str | Path | None) -> str:
    """Upstream's tier 1/2a/2b request for one benchmark line (as read from the file)."""
    source = _code(tier, data_dir)
    if tier == "1":
        (template,) = format_receivers(source, "PrivacyTierDataset.__init__")
        return template.format(line.strip())
    return string_template(source, "_build_repeated_inputs", variable="model_input").render(
        {"prompt_header": "", "text": line.strip()}
    )


def rating_generation(tier: str, data_dir: str | Path | None) -> dict[str, object]:
    """The sampling settings upstream's ``EvalAgent.load_model`` passes for tiers 1/2."""
    (settings,) = dict_literals(_code(tier, data_dir), "EvalAgent.load_model", "temperature")
    return settings


def psyleak_generation(data_dir: str | Path | None) -> dict[str, object]:
    """``privacy3.py``'s ``APIAgent`` defaults (PsyLeak calls it with the model name only)."""
    return attribute_defaults(_code("3", data_dir), "APIAgent._set_default_args")


@dataclass(frozen=True)
class PsyLeakTemplates:
    instruction: str
    with_colon: str  # question already ends with "Answer: ..." or "Name: ..."
    without_colon: str
    questions: dict[str, str]


@lru_cache(maxsize=4)
def psyleak_templates(data_dir: str | Path | None) -> PsyLeakTemplates:
    source = _code("3", data_dir)
    instruction = next(text for text in assigned_strings(source, "PrivacyTierDataset.__init__", "instruction") if text)
    with_colon, without_colon = format_receivers(source, "PrivacyTierDataset.__init__")
    questions = {
        kind: format_receiver(dict_entry(source, "EvalAgent.load_dataset", "question", {"question_type": kind}))
        for kind in QUESTION_TYPES
    }
    return PsyLeakTemplates(instruction, with_colon, without_colon, questions)


@dataclass(frozen=True)
class UpstreamScenario:
    """One tier-3 scenario as upstream's loader sees it."""

    index: int
    story: str
    agents: dict[str, str]  # about, questionee, questioner, topic


def upstream_scenarios(story_lines: list[str]) -> list[UpstreamScenario]:
    """Upstream's block reading: story lines joined, line breaks as spaces, last sentence dropped.

    ``story_lines`` keep their line endings (``readlines()``). Scenarios whose header cannot be
    read are skipped but still counted, as upstream counts them.
    """
    scenarios: list[UpstreamScenario] = []
    info, collected, index = "", "", 0
    for line in story_lines:
        if line.startswith("<BEGIN>"):
            info = line.strip().removeprefix("<BEGIN>")
        elif line.startswith("<END>"):
            names = line.strip().removeprefix("<END>").split(info)[-1].removesuffix(">").removeprefix("<").strip()
            agents = {}
            for element in names.split(","):
                key, _, value = element.partition(": ")
                agents[key.lower()] = value.strip().strip(".")
            joined = collected.replace("\n", " ").replace("  ", " ")
            sentences = joined.split(". ")
            story = ". ".join(sentences[:-1]).replace("  ", " ") + "."
            if len(set(agents.values())) == 4:
                scenarios.append(UpstreamScenario(index, story, agents))
            collected = ""
            index += 1
        else:
            collected += line
    return scenarios


def upstream_agents(story_path: Path) -> dict[int, dict[str, str]]:
    """``{scenario index: its names and topic}`` as upstream's loader reads them (about, questionee,
    questioner, topic): the values its proxy judge and string matches use."""
    with story_path.open(encoding="utf-8") as handle:
        return {scenario.index: scenario.agents for scenario in upstream_scenarios(handle.readlines())}


def psyleak_question(templates: PsyLeakTemplates, kind: str, agents: dict[str, str], control: str) -> str:
    template = templates.questions[kind]
    if kind == "free-response":
        return template.format(agents["questionee"], agents["questionee"])
    if kind == "info-accessibility":
        return template.format(agents["about"], agents["topic"].lower())
    if kind == "privacy-sharing":
        return template.format(agents["about"])
    return template.format(control.strip())


def psyleak_prompt(templates: PsyLeakTemplates, story: str, question: str) -> str:
    template = templates.with_colon if ": " in question else templates.without_colon
    return template.format(templates.instruction, story, question)


def psyleak_inputs(story_path: Path, control_path: Path, data_dir: str | Path | None) -> dict[tuple[int, str], str]:
    """``{(scenario index, question type): upstream's request}`` for every PsyLeak question."""
    templates = psyleak_templates(data_dir)
    with story_path.open(encoding="utf-8") as handle:
        story_lines = handle.readlines()
    with control_path.open(encoding="utf-8") as handle:
        controls = handle.readlines()
    inputs = {}
    for scenario in upstream_scenarios(story_lines):
        control = controls[scenario.index] if scenario.index < len(controls) else ""
        for kind in QUESTION_TYPES:
            question = psyleak_question(templates, kind, scenario.agents, control)
            inputs[(scenario.index, kind)] = psyleak_prompt(templates, scenario.story, question)
    return inputs
