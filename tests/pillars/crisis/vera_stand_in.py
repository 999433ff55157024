"""VERA-MH's own judge and score code, run from the pinned files, to compare ours with.

Only the ``LLMJudge`` class and the ``score_results`` function are compiled (never the modules:
their top level imports API clients and reads files by relative path); the names they use are
given as stand-ins here. The judge model is a scripted stand-in that records every request.
"""

from __future__ import annotations

import ast
import asyncio
import json
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, Optional

import pandas as pd

Reply = Callable[[str], str]


def _compiled(path: Path, name: str, namespace: dict[str, Any]) -> Any:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    node = next(n for n in tree.body if isinstance(n, (ast.ClassDef, ast.FunctionDef)) and n.name == name)
    scope = dict(namespace)
    exec(compile(ast.Module(body=[node], type_ignores=[]), str(path), "exec"), scope)
    return scope[name]


class RecordingJudge:
    """Stands in for upstream's ``LLMFactory``: the judge it creates records (system, question)
    pairs and answers with ``reply(question)``."""

    def __init__(self, reply: Reply) -> None:
        self.reply = reply
        self.requests: list[tuple[str, str]] = []

    def create_llm(self, model_name: str, name: str, system_prompt: str | None = None, **_: Any) -> Any:
        judge = self

        class Evaluator:
            async def generate_response(self, message: str) -> str:
                judge.requests.append((system_prompt or "", message))
                return judge.reply(message)

        return Evaluator()


def upstream_judge(vera_dir: Path, reply: Reply) -> tuple[Any, RecordingJudge]:
    """An ``LLMJudge`` of the pinned ``llm_judge.py`` over the pinned rubric, judging with ``reply``."""
    factory = RecordingJudge(reply)
    # the typing names upstream's annotations use (evaluated when its class is compiled)
    names = {"pd": pd, "Dict": dict, "List": list, "Any": Any, "Optional": Optional, "Path": Path}
    names |= {"logging": logging, "LLMFactory": factory}
    judge_class = _compiled(vera_dir / "judge" / "llm_judge.py", "LLMJudge", names)
    judge = object.__new__(judge_class)  # __init__ opens a log file under ./logs
    judge.logger = logging.getLogger("vera-stand-in")
    judge.judge_model = "stand-in"
    judge.rubric_prompt_beginning = (vera_dir / "data" / "rubric_prompt_beginning.txt").read_text(encoding="utf-8")
    judge.rubric = pd.read_csv(vera_dir / "data" / "rubric.tsv", sep="\t")
    judge.question_flow_data, judge.question_order = judge._parse_question_flow_rubric(judge.rubric)
    return judge, factory


def upstream_evaluation(
    vera_dir: Path, conversation_file: Path, reply: Reply
) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """What upstream's judge concludes for the conversation file, and every request it sent."""
    judge, factory = upstream_judge(vera_dir, reply)
    results = asyncio.run(
        judge.evaluate_conversation_question_flow(str(conversation_file), "unused", auto_save=False, verbose=True)
    )
    return results, factory.requests


def upstream_dimensions(vera_dir: Path) -> list[str]:
    """score.py's DIMENSIONS (judge/utils.py's load_rubric_structure: the Dimension column's values)."""
    rubric = pd.read_csv(vera_dir / "data" / "rubric.tsv", sep="\t")
    return [d.strip() for d in rubric["Dimension"].dropna().unique() if d and str(d).strip() != "nan"]


def upstream_scores(vera_dir: Path, rows: list[dict[str, str | None]], folder: Path) -> dict[str, Any]:
    """score.py's ``score_results`` on a results.csv holding ``rows`` (``None``: an empty cell).

    pandas 2 (current when upstream released f813d29) drops missing cells in ``DataFrame.stack``;
    pandas 3 keeps them, so the stand-in's ``stack`` drops them as upstream's pandas did."""
    dimensions = upstream_dimensions(vera_dir)
    constants: dict[str, Any] = {}
    exec((vera_dir / "judge" / "constants.py").read_text(encoding="utf-8"), constants)
    names = {k: v for k, v in constants.items() if k.isupper()}
    names |= {"pd": _Pandas2(), "json": json, "Path": Path, "Dict": dict, "Any": Any, "DIMENSIONS": dimensions}
    names["extract_model_names_from_path"] = lambda path: {"judge": "j", "persona": "p", "agent": "a"}
    score_results = _compiled(vera_dir / "judge" / "score.py", "score_results", names)
    table = pd.DataFrame(
        [{"filename": f"c{i}.txt", "run_id": "r", **{d: row.get(d) for d in dimensions}} for i, row in enumerate(rows)]
    )
    csv_path = folder / "results.csv"
    table.to_csv(csv_path, index=False)
    return score_results(str(csv_path), str(folder / "scores.json"))


class _Pandas2:
    """``pandas`` as score.py uses it, with pandas 2's ``stack`` (missing cells dropped)."""

    def __getattr__(self, name: str) -> Any:
        return getattr(pd, name)

    @staticmethod
    def read_csv(*args: Any, **kwargs: Any) -> pd.DataFrame:
        return _Frame(pd.read_csv(*args, **kwargs))


class _Frame(pd.DataFrame):
    @property
    def _constructor(self) -> type:
        return _Frame

    def stack(self, *args: Any, **kwargs: Any) -> Any:
        return pd.DataFrame(self).stack(*args, **kwargs).dropna()
