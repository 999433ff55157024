"""``trustmh judge-check --qualify`` end to end, offline, on the OpenAI-compatible test server:
the MentalAlign-70k set built at run time from the real human ratings (response texts
synthetic: MentalAlign-70k has none), a judge that copies the humans against one that does
not (drift), a team's own set, and one line with exit 2 on bad input."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from tests.doubles.openai_double import OpenAIDouble
from trustmh.cli.judgecheck import register
from trustmh.judgecheck.qualification import mentalalign_set
from trustmh.judgecheck.qualify import Drift, drift
from trustmh.mentalalign.schema import ATTRIBUTES, EXPLANATION, HUMAN_FILE, OVERALL

KEYS = ("original", "claude", "ds_llama", "ds_qwen", "gemini", "gpt4o", "gpt4omini", "llama_3", "qwen_2", "qwen_3")


@pytest.fixture(scope="module")
def app() -> typer.Typer:
    application = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    register(application)

    @application.callback()
    def _root() -> None:
        pass

    return application


def invoke(app: typer.Typer, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["judge-check", *args])
    return result.exit_code, " ".join(result.output.split())


def marker(conv: str, key: str) -> str:
    return f"[reply {conv} by {key}]"


@pytest.fixture(scope="module")
def conversations(tmp_path_factory: pytest.TempPathFactory, shared_data: Path) -> Path:
    """A MentalBench-style responses file for every ConvID of the real human file: synthetic texts."""
    from trustmh.data.loaders.mentalalign import read_ratings
    from trustmh.mentalalign.schema import HUMAN_PREFIX

    human = read_ratings(shared_data / "mentalalign70k" / HUMAN_FILE, HUMAN_PREFIX)
    columns = ["ConvID", "context", "response", *KEYS[1:]]
    lines = [",".join(columns)]
    for conv in human.conv_ids:
        lines.append(",".join([conv, f"synthetic concern {conv}", *(marker(conv, key) for key in KEYS)]))
    path = tmp_path_factory.mktemp("texts") / "mentalbench.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def copying_judge(labels: dict[str, dict[str, float]]) -> Any:
    """A judge that gives the human scores of the response it is shown (found by its marker)."""

    def respond(messages: list[dict[str, Any]]) -> str:
        prompt = messages[-1]["content"]
        found = re.search(r"\[reply (\S+) by (\S+)\]", prompt)
        assert found, prompt[:200]
        scores = labels[f"{found.group(1)}/{found.group(2)}"]
        return json.dumps({**{k: int(v) for k, v in scores.items()}, OVERALL: 3, EXPLANATION: "as the humans"})

    return respond


def test_qualify_and_drift_end_to_end(
    app: typer.Typer, conversations: Path, shared_data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-qualify")
    ratings = shared_data / "mentalalign70k" / HUMAN_FILE
    qset = mentalalign_set(ratings, conversations, per_model=3)
    assert len(qset.items) == 30 and len({item.id.split("/")[1] for item in qset.items}) == 10  # stratified
    assert mentalalign_set(ratings, conversations, per_model=3).fingerprint == qset.fingerprint  # fixed sample
    labels = {item.id: dict(item.labels) for item in qset.items}
    common = ["--qualify", "--conversations", str(conversations), "--mentalalign-ratings", str(ratings)]
    common += ["--per-model", "3", "--bootstrap", "300", "--no-progress", "--cache", str(tmp_path / "c.sqlite")]
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    with OpenAIDouble(responder=copying_judge(labels)) as server:
        code, output = invoke(
            app, *common, "--judge", "openai/copier", "--base-url", server.base_url, "--json", str(good)
        )
    assert code == 0, output
    record = json.loads(good.read_text())
    assert record["format"] == "trustmh-judge-qualification/1" and record["judge"] == "openai/copier"
    assert record["set"]["fingerprint"] == qset.fingerprint and record["set"]["items"] == 30
    assert len(record["rubric_hash"]) == 12
    fields = {f["field"]: f for f in record["fields"]}
    assert set(fields) == set(ATTRIBUTES)
    for f in fields.values():
        assert f["n"] == 30 and f["agreement"] == "icc_a1" and f["value"] == pytest.approx(1.0)
    assert "qualification of judge openai/copier on mentalalign70k (30 items" in output
    assert "sk-test-qualify" not in output and "sk-test-qualify" not in good.read_text()

    with OpenAIDouble() as server:  # the default double: scores unrelated to the response's quality
        code, output = invoke(
            app,
            *common,
            "--judge",
            "openai/other",
            "--base-url",
            server.base_url,
            "--previous",
            str(good),
            "--json",
            str(bad),
        )
    assert code == 0, output
    record = json.loads(bad.read_text())
    assert record["drift"]["previous_judge"] == "openai/copier"
    worse = [d for d in record["drift"]["fields"] if d["worse_beyond_ci"]]
    assert len(worse) == 7 and all(d["ci"][1] < 0 and d["previous"] == pytest.approx(1.0) for d in worse)
    assert "drift: worse beyond the CI on" in output


def test_own_set_and_bad_input_are_one_line(app: typer.Typer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-qualify")
    own = tmp_path / "own.jsonl"
    items = [
        {
            "id": f"i{n}",
            "context": f"concern {n}",
            "response": f"reply {n}",
            "labels": {"Empathy": 1 + n % 5, "Safety": 5},
        }
        for n in range(8)
    ]
    own.write_text("\n".join(json.dumps(i) for i in items) + "\n", encoding="utf-8")
    args = ["--qualify", "--qualification-set", str(own), "--no-progress", "--cache", str(tmp_path / "c.sqlite")]
    with OpenAIDouble() as server:
        code, output = invoke(app, *args, "--judge", "openai/j", "--base-url", server.base_url, "--json", "-")
    assert code == 0, output
    assert '"format": "trustmh-judge-qualification/1"' in output and '"field": "Empathy"' in output

    code, output = invoke(app, "--qualify", "--qualification-set", str(own))
    assert code == 2 and output.count("\n") == 0 and "--qualify needs --judge MODEL" in output
    code, output = invoke(app, "--qualify", "--judge", "openai/j")
    assert code == 2 and "needs --conversations FILE" in output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "context": "c", "response": "r", "labels": {"Mood": 3}}\n', encoding="utf-8")
    code, output = invoke(app, "--qualify", "--judge", "openai/j", "--qualification-set", str(bad))
    assert code == 2 and re.search(r"bad\.jsonl:line 1: label 'Mood' is not a field of the rubric", output), output
    code, output = invoke(app)
    assert code == 2 and "give --human FILE" in output


def test_drift_needs_the_same_set(tmp_path: Path) -> None:
    from trustmh.core.errors import UserError
    from trustmh.judgecheck.qualification import QualificationItem, QualificationSet

    items = tuple(QualificationItem(f"i{n}", "c", "r", {"Empathy": float(1 + n % 5)}) for n in range(12))
    qset = QualificationSet("own", "mentalalign", items, "own.jsonl")
    perfect = {i.id: {"Empathy": i.labels["Empathy"]} for i in items}
    shuffled = {i.id: {"Empathy": float(1 + (n * 3) % 5)} for n, i in enumerate(items)}
    previous = {"set": {"fingerprint": qset.fingerprint, "name": "own"}, "scores": perfect}
    [found] = drift(qset, shuffled, previous, tmp_path / "p.json", n_boot=500)
    assert isinstance(found, Drift) and found.previous == pytest.approx(1.0) and found.worse
    [same] = drift(qset, perfect, previous, tmp_path / "p.json", n_boot=500)
    assert not same.worse and same.difference == pytest.approx(0.0)
    other = {"set": {"fingerprint": "x", "name": "other", "items": 5}, "scores": perfect}
    with pytest.raises(UserError, match=r"p\.json: qualified on set 'other' \(5 items, another fingerprint\)"):
        drift(qset, perfect, other, tmp_path / "p.json")
