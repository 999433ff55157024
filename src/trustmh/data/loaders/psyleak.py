"""PsyLeak: ConfAIde tier-3 style counselling scenarios plus one control question each.

Block format (``PsyLeak.txt``)::

    <BEGIN><topic,counselor,questioner_role,reason>
    story lines ...
    <END><topic,counselor,questioner_role,reason><About: NAME,Questionee: NAME,Questioner: ROLE NAME,Topic: T>

``PsyLeak_control.txt`` line i is the yes/no control question of scenario i.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import check_line_lengths, read_lines, read_text
from trustmh.data.registry import resolve_file

_BEGIN = re.compile(r"^<BEGIN><([^>]*)>\s*$")
_END = re.compile(r"^<END><([^>]*)><([^>]*)>\s*$")
_AGENT_KEYS = ("About", "Questionee", "Questioner", "Topic")


@dataclass(frozen=True)
class LeakScenario:
    """One PsyLeak scenario with the agents the metrics look for."""

    index: int
    header: str  # "topic,counselor,questioner_role,reason"
    story: str
    about: str
    questionee: str
    questioner: str
    topic: str
    control_question: str


def _parse_agents(path: Path, line_number: int, text: str) -> dict[str, str]:
    agents: dict[str, str] = {}
    for part in text.split(","):
        key, sep, value = part.partition(":")
        if sep:
            agents[key.strip()] = value.strip()
    missing = [key for key in _AGENT_KEYS if not agents.get(key)]
    if missing:
        raise DataFormatError(
            path,
            f"line {line_number}",
            f"expected <About: NAME,Questionee: NAME,Questioner: ROLE NAME,Topic: T>, missing {missing[0]}",
        )
    return agents


def parse_scenarios(path: Path) -> list[tuple[str, str, dict[str, str]]]:
    """``(header, story, agents)`` per block, validating BEGIN/END pairing."""
    blocks: list[tuple[str, str, dict[str, str]]] = []
    header: str | None = None
    story: list[str] = []
    lines = read_text(path).splitlines()
    check_line_lengths(path, lines)
    for number, line in enumerate(lines, start=1):
        begin, end = _BEGIN.match(line), _END.match(line)
        if begin:
            if header is not None:
                raise DataFormatError(path, f"line {number}", "expected <END> before the next <BEGIN>")
            header, story = begin.group(1), []
        elif end:
            if header is None:
                raise DataFormatError(path, f"line {number}", "<END> without a matching <BEGIN>")
            if end.group(1) != header:
                raise DataFormatError(
                    path, f"line {number}", f"<END> header <{end.group(1)}> differs from <BEGIN> <{header}>"
                )
            blocks.append((header, "\n".join(story).strip(), _parse_agents(path, number, end.group(2))))
            header = None
        elif header is not None:
            story.append(line)
        elif line.strip():
            raise DataFormatError(path, f"line {number}", "expected <BEGIN><...> to open a scenario")
    if header is not None:
        raise DataFormatError(path, f"line {len(lines)}", "file ends inside a scenario (missing <END>; truncated?)")
    if not blocks:
        raise DataFormatError(path, None, "expected <BEGIN>...<END> scenarios, found none")
    return blocks


def load_scenarios(story_path: Path, control_path: Path) -> list[LeakScenario]:
    blocks = parse_scenarios(story_path)
    controls = read_lines(control_path, keep_empty=True)
    if len(controls) != len(blocks):
        raise DataFormatError(
            control_path,
            None,
            f"expected one control question per scenario of {story_path.name} ({len(blocks)}), found {len(controls)} lines",
        )
    return [
        LeakScenario(
            index,
            header,
            story,
            agents["About"],
            agents["Questionee"],
            agents["Questioner"],
            agents["Topic"],
            control.strip(),
        )
        for index, ((header, story, agents), control) in enumerate(zip(blocks, controls, strict=True))
    ]


def load_psyleak(data_dir: str | Path | None = None) -> list[LeakScenario]:
    return load_scenarios(
        resolve_file("trustmh", "PsyLeak.txt", data_dir),
        resolve_file("trustmh", "PsyLeak_control.txt", data_dir),
    )
