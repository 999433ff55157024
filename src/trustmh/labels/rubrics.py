"""The rubrics a run was judged with, found by name and hash among trustmh's own.

A judged sample's fingerprint names each rubric with the hash of its wording
(:func:`trustmh.scoring.judge_record.rubric_hash`). The labelling set shows the clinician the
same question and scale the judge was given, so the rubric itself is needed, not a copy: every
:class:`~trustmh.scoring.rubric.Rubric` defined at module level in trustmh's task modules is a
candidate, and a rubric is used only when its name *and* hash match the run's. A rubric that
changed since the run (another hash), or one built per item at run time, is a one-line error:
labelling it with today's wording would validate a judge against a question it was not asked.
"""

from __future__ import annotations

import importlib
import sys

from trustmh.core.errors import UserError
from trustmh.scoring.judge_record import rubric_hash
from trustmh.scoring.rubric import Rubric


def known_rubrics() -> dict[tuple[str, str], Rubric]:
    """Every module-level rubric of the task modules, by ``(name, hash)``."""
    importlib.import_module("trustmh._registry")  # imports every task module (and so their rubrics)
    found: dict[tuple[str, str], Rubric] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("trustmh.") or module is None:
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Rubric):
                found.setdefault((value.name, rubric_hash(value)), value)
    return found


def run_rubric(name: str, digest: str, source: str) -> Rubric:
    """The rubric ``name`` whose hash is ``digest``; a UserError naming ``source`` when there is none."""
    known = known_rubrics()
    if (name, digest) in known:
        return known[(name, digest)]
    others = sorted(h for n, h in known if n == name)
    if others:
        raise UserError(
            f"{source}: the run's rubric {name!r} has fingerprint {digest}, this trustmh's has {', '.join(others)}: "
            "the wording changed since the run; label it with the trustmh version that ran it"
        )
    raise UserError(
        f"{source}: rubric {name!r} (fingerprint {digest}) is not a fixed rubric of this trustmh "
        "(built per item at run time, or from another version); it cannot be shown to clinicians as the judge saw it"
    )
