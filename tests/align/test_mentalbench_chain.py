"""The MentalBench chain end to end, as docs/running.md shows it: generate -> judge -> align.

Your own responses (``trustmh generate``), judged (``trustmh judge``), aligned with human
ratings of those same responses (``trustmh align``). The models and the judge are the
OpenAI-compatible test double; the human ratings are written here. They copy the judge's
scores, so the agreement must come out perfect: the chain joins the right cells.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.doubles.openai_double import OpenAIDouble
from trustmh.cli.main import app
from trustmh.mentalalign.schema import ATTRIBUTES

CONTEXTS = [
    "I have not slept properly for weeks and I feel numb at work.",
    "My sister stopped talking to me after an argument and I miss her.",
    "Exams start on Monday and my chest gets tight whenever I open a book.",
    "Since the move I have no friends here and the evenings are long.",
    "I keep checking the stove again and again before I can leave home.",
    "My manager criticises me in front of everyone and I dread Mondays.",
]


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def _read(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def _human_ratings(judged: list[dict[str, str]], keys: list[str], path: Path) -> None:
    """Human ratings of the first five conversations: the judge's seven scores, copied."""
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["ConvID", *(f"human_response_{key}" for key in keys)])
        for row in judged[:5]:
            cells = [json.loads(row[f"judge_response_{key}"]) for key in keys]
            writer.writerow([row["ConvID"], *(json.dumps({a: cell[a] for a in ATTRIBUTES}) for cell in cells)])


def test_generate_judge_align_on_your_own_responses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-chain")
    conversations = tmp_path / "conversations.csv"
    with conversations.open("w", encoding="utf-8", newline="") as handle:
        csv.writer(handle).writerows([["ConvID", "context"], *([str(i), c] for i, c in enumerate(CONTEXTS, 1))])
    with OpenAIDouble() as server:
        common = ["--base-url", server.base_url, "--cache", str(tmp_path / "cache.sqlite"), "--no-progress"]
        _cli(
            "generate", "--conversations", str(conversations), "--model", "mine=openai/mine",
            "--model", "other=openai/other", "-o", str(tmp_path / "responses.csv"), *common,
        )  # fmt: skip
        _cli("judge", "--responses", str(tmp_path / "responses.csv"), "--judge", "openai/judge",
             "-o", str(tmp_path / "judged.csv"), *common)  # fmt: skip
    judged = _read(tmp_path / "judged.csv")
    assert list(judged[0]) == ["ConvID", "context", "judge_response_mine", "judge_response_other"]
    _human_ratings(judged, ["mine", "other"], tmp_path / "human.csv")

    output = _cli(
        "align", "--human", str(tmp_path / "human.csv"), "--judge-ratings", f"judge={tmp_path / 'judged.csv'}",
        "--bootstrap", "50", "--json", str(tmp_path / "align.json"),
    )  # fmt: skip
    # The sixth conversation has no human rating: compared where both rated, and said so.
    assert "note: judge judge: compared on 2 response models x 5 conversations" in output
    assert "1 conversations not in" in output
    result = json.loads((tmp_path / "align.json").read_text(encoding="utf-8"))
    (judge,) = result["judges"]
    assert judge["keys"] == ["mine", "other"] and judge["coverage"]["judge_only_conversations"] == 1
    rows = {row["attribute"]: row for row in result["rows"]}
    for name in ("CSS", "ARS"):
        assert rows[name]["n_pairs"] == 10 and rows[name]["unparsed"] == 0
        assert rows[name]["icc_a1"] == pytest.approx(1.0) and rows[name]["bias"] == pytest.approx(0.0)
    # Human ratings of other responses only (MentalAlign-70k rates MentalBench's ten models):
    # nothing to align, and the one line says what align needs.
    (tmp_path / "theirs.csv").write_text(
        "ConvID,human_response_original\n" + "".join(f'{i},"{{}}"\n' for i in range(1, 7)), encoding="utf-8"
    )
    refused = CliRunner().invoke(
        app, ["align", "--human", str(tmp_path / "theirs.csv"), "--judge-ratings", f"judge={tmp_path / 'judged.csv'}"]
    )
    message = " ".join(refused.output.split())
    assert refused.exit_code == 2 and "rates responses mine, other but" in message
    assert "align needs human ratings of the same responses: a human_response_mine column" in message
