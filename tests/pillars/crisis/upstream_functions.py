"""Running one function of an upstream file as upstream wrote it, to compare our prompts with its.

Only the function's own definition is compiled (never the module: its top level makes API
clients and reads files); the names it uses are given as stand-ins by the test.
"""

from __future__ import annotations

import ast
from pathlib import Path
from types import SimpleNamespace
from typing import Any


def upstream_function(path: Path, name: str, namespace: dict[str, Any] | None = None) -> Any:
    """The function (or method) ``name`` of the file, compiled alone with ``namespace`` as globals."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    node = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name)
    node.decorator_list = []
    module = ast.Module(body=[node], type_ignores=[])
    scope: dict[str, Any] = dict(namespace or {})
    exec(compile(module, str(path), "exec"), scope)
    return scope[name]


class Recorder:
    """A stand-in chat client: records each prompt, answers ``reply``."""

    def __init__(self, reply: str = "1") -> None:
        self.reply = reply
        self.prompts: list[str] = []

    def chat(self, model: str, messages: list[Any]) -> SimpleNamespace:
        self.prompts += [m.content for m in messages]
        return SimpleNamespace(content=self.reply)


def psychosis_scorer_stand_in(scoring_py: Path, reply: str = "1") -> SimpleNamespace:
    """An object with upstream's score_dcs/score_hes/score_sis/_format_conversation bound to it."""

    class ChatMessage:
        def __init__(self, role: str, content: str) -> None:
            self.role, self.content = role, content

    class ScoreResult:
        def __init__(self, **fields: Any) -> None:
            self.__dict__.update(fields)

    import re

    names = {
        "ChatMessage": ChatMessage,
        "ScoreResult": ScoreResult,
        "ScoreType": SimpleNamespace(DCS="dcs", HES="hes", SIS="sis"),
        "re": re,
        "List": list,
        "Dict": dict,
        "Turn": object,
    }
    scorer = SimpleNamespace(client=Recorder(reply), judge_model="judge", sis_use_llm=True)
    for method in ("score_dcs", "score_hes", "score_sis", "_format_conversation"):
        function = upstream_function(scoring_py, method, names)
        setattr(scorer, method, function.__get__(scorer))
    return scorer
