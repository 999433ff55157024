"""MindEval's own prompts, read from a clone of SWORDHealth/mind-eval that the user points to.

MindEval's repository has no licence, so trustmh neither ships nor downloads its text: with
``-T mindeval_clone=PATH`` the task reads, at run time, from that clone (nothing is executed):

* ``mindeval/prompts.py``: the clinician (model under test) and member (simulated user) system
  prompts, ``string.Template`` objects named by ``INTERACTION_CLINICIAN_VERSION_DICT[version]`` and
  ``INTERACTION_MEMBER_VERSION_DICT[version]``, filled with the profile (its ``member_attributes``
  plus ``member_narrative``), as ``generate_interactions.py`` does;
* ``mindeval/judge_prompts.py``: the judge prompt ``JUDGE_PROMPT_TEMPLATE_VERSION_DICT[version]``,
  filled with the profile and the conversation as ``<member>`` / ``<therapist>`` blocks;
* ``mindeval/utils.py``: the criteria names ``parse_judge_scores`` looks for (``criteria``).

The judge's reply is read as ``parse_judge_scores`` does with ``parser=upstream`` (``<criterion>: N``;
a criterion not found scores 3), or, by default (``corrected``), only when every criterion is
found once with a score from 1 to 6 (a missing one leaves the verdict unparsed, never 3).
Each clone file's sha256 and the clone's commit (when it is a git checkout) go into the log.
"""

from __future__ import annotations

import ast
import hashlib
import re
import string
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from trustmh.conversation.record import Turn
from trustmh.core.errors import UserError
from trustmh.data.upstream_code import UpstreamCodeError, literal_value
from trustmh.scoring.rubric import JudgeField, Rubric, VerbatimProtocol
from trustmh.scoring.verbatim import check_parser
from trustmh.scoring.verdict import Verdict, VerdictError

FILES = {"prompts": "mindeval/prompts.py", "judge": "mindeval/judge_prompts.py", "utils": "mindeval/utils.py"}
DICTS = {
    "clinician": ("prompts", "INTERACTION_CLINICIAN_VERSION_DICT"),
    "member": ("prompts", "INTERACTION_MEMBER_VERSION_DICT"),
    "judge": ("judge", "JUDGE_PROMPT_TEMPLATE_VERSION_DICT"),
}
# The versions MindEval's run_benchmark.sh / README use for its published setting.
DEFAULT_VERSIONS = {"clinician": "v0_1", "member": "v0_2", "judge": "v0_1"}
OPENING = "Hello"  # generate_interactions.py: the member side's first message, fixed
LOW, HIGH = 1, 6
UPSTREAM_MISSING = 3  # parse_judge_scores: a criterion not found scores 3


@dataclass(frozen=True)
class MindEvalClone:
    root: Path
    templates: dict[str, str]  # "clinician" / "member" / "judge" -> string.Template text
    criteria: tuple[str, ...]
    files: dict[str, str]  # relative path -> sha256
    commit: str | None
    versions: dict[str, str]

    def log_metadata(self) -> dict[str, Any]:
        return {
            "clone": str(self.root),
            "commit": self.commit,
            "files": self.files,
            "versions": self.versions,
            "criteria": list(self.criteria),
            "templates": self.templates,
        }

    def fill(self, which: str, profile: Mapping[str, Any], **extra: str) -> str:
        try:
            return string.Template(self.templates[which]).substitute({**profile, **extra})
        except KeyError as missing:
            raise UserError(
                f"{self.root / FILES[DICTS[which][0]]}: the {which} template needs ${{{missing.args[0]}}}, "
                "which the profile does not have"
            ) from None


def _read(root: Path, name: str) -> str:
    path = root / FILES[name]
    if not path.is_file():
        raise UserError(f"mindeval_clone {root}: no {FILES[name]} (expected a clone of SWORDHealth/mind-eval)")
    return path.read_text(encoding="utf-8")


def _module_assignments(source: str, origin: str) -> dict[str, ast.expr]:
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise UserError(f"{origin}: not valid Python ({error.msg}, line {error.lineno})") from None
    return {
        target.id: node.value
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name)
    }


def versioned_template(source: str, dict_name: str, version: str, origin: str) -> str:
    """The text of ``Template("...")`` that module-level ``dict_name[version]`` names."""
    assigned = _module_assignments(source, origin)
    table = assigned.get(dict_name)
    if not isinstance(table, ast.Dict):
        raise UserError(f"{origin}: no module-level dict {dict_name}")
    entry = next(
        (
            v
            for k, v in zip(table.keys, table.values, strict=True)
            if isinstance(k, ast.Constant) and k.value == version
        ),
        None,
    )
    if entry is None:
        raise UserError(f"{origin}: {dict_name} has no version {version!r}")
    if isinstance(entry, ast.Name):
        entry = assigned.get(entry.id, entry)
    if isinstance(entry, ast.Call) and entry.args and isinstance(entry.args[0], ast.Constant):
        text = entry.args[0].value
        if isinstance(text, str):
            return text
    raise UserError(f"{origin}: {dict_name}[{version!r}] is not a Template of a string constant")


def _commit(root: Path) -> str | None:
    head = root / ".git" / "HEAD"
    if not head.is_file():
        return None
    ref = head.read_text(encoding="utf-8").strip()
    if ref.startswith("ref: "):
        target = root / ".git" / ref[5:]
        return target.read_text(encoding="utf-8").strip() if target.is_file() else None
    return ref or None


def load_clone(path: str | Path, versions: Mapping[str, str] | None = None) -> MindEvalClone:
    """Read MindEval's prompts and criteria from a clone (one-line errors naming file and what is missing)."""
    root = Path(path).expanduser()
    if not root.is_dir():
        raise UserError(f"mindeval_clone {root}: not a folder")
    chosen = {**DEFAULT_VERSIONS, **(versions or {})}
    sources = {name: _read(root, name) for name in FILES}
    templates = {
        which: versioned_template(sources[file], dict_name, chosen[which], str(root / FILES[file]))
        for which, (file, dict_name) in DICTS.items()
    }
    try:
        criteria = literal_value(sources["utils"], "parse_judge_scores", "criteria")
    except UpstreamCodeError as error:
        raise UserError(f"{root / FILES['utils']}: {error}") from None
    if not isinstance(criteria, list) or not criteria or not all(isinstance(c, str) for c in criteria):
        raise UserError(f"{root / FILES['utils']}: parse_judge_scores's criteria is not a list of names")
    files = {rel: hashlib.sha256((root / rel).read_bytes()).hexdigest() for rel in FILES.values()}
    return MindEvalClone(root, templates, tuple(criteria), files, _commit(root), chosen)


def profile_values(attributes: Mapping[str, Any], narrative: str) -> dict[str, Any]:
    """What MindEval fills its templates with: the attributes plus ``member_narrative``."""
    return {**attributes, "member_narrative": narrative}


def conversation_text(turns: Sequence[Turn]) -> str:
    """The conversation as MindEval's ``messages_to_convo_str`` lays it out (member = user side)."""
    blocks = "".join(f"<member>\n{t.user}\n</member>\n<therapist>\n{t.assistant}\n</therapist>\n" for t in turns)
    return blocks.strip()


def judge_reader(criteria: Sequence[str], fields: Sequence[str], parser: str) -> Any:
    """Read ``<criterion>: N`` for each criterion into the rubric's field of the same position."""
    check_parser(parser)

    def read(reply: str, rubric: Rubric, judged: Sequence[str]) -> Verdict:
        verdict: dict[str, int | str] = {}
        for criterion, field in zip(criteria, fields, strict=True):
            if parser == "upstream":  # parse_judge_scores: the first match, the name as a regex, else 3
                match = re.search(rf"{criterion}:\s*(\d+\.?\d*)", reply or "")
                verdict[field] = float(match.group(1)) if match else UPSTREAM_MISSING  # type: ignore[assignment]
                continue
            found = {float(v) for v in re.findall(rf"{re.escape(criterion)}:\s*(\d+\.?\d*)", reply or "")}
            if len(found) != 1:
                raise VerdictError(f"expected one score for {criterion!r}, found {len(found)}")
            value = found.pop()
            if not value.is_integer() or not LOW <= value <= HIGH:
                raise VerdictError(f"{criterion!r}: {value:g} is not an integer from {LOW} to {HIGH}")
            verdict[field] = int(value)
        return verdict

    return read


def clone_rubric(clone: MindEvalClone, fields: Sequence[str], parser: str) -> Rubric:
    """The verbatim judge: the clone's prompt (built by the caller), read as chosen."""
    if len(clone.criteria) != len(fields):
        raise UserError(
            f"{clone.root / FILES['utils']}: {len(clone.criteria)} criteria, trustmh's MindEval task has {len(fields)}"
        )
    protocol = VerbatimProtocol(
        template=clone.templates["judge"],
        origin=f"{FILES['judge']}:{DICTS['judge'][1]}[{clone.versions['judge']}]",
        read_reply=judge_reader(clone.criteria, fields, parser),
        parser=parser,
        temperature=None,
        max_tokens=None,
    )
    return Rubric(
        name="mindeval_conversation_clone",
        instructions=clone.templates["judge"],
        fields=tuple(
            JudgeField(field, criterion, low=LOW, high=HIGH)
            for field, criterion in zip(fields, clone.criteria, strict=True)
        ),
        extra_fields=(),
        verbatim=protocol,
    )
