"""The model under test cannot move its judged score (issue 25, item 1).

Every variant of the hostile corpus (``hostile_text.py``) is judged with the rubric of every
judged scorer, through the shared judge (``run_judge``: ``run --judge``, panels, conversation,
simulated-risk and crescendo judges all call it), by an honest judge and by a judge that obeys
what the text says, twice: with the ratings the model wants planted, and with the honest
judge's own verdict planted (the reverse attack: get the honest verdict thrown out, push the
judge by the re-ask, trip the early stop). The verdict is always the honest one, asked once,
and no judge is stopped. The same corpus then goes through ``trustmh judge`` (the bulk judge)
end to end.
"""

from __future__ import annotations

import asyncio
import csv
import json
from pathlib import Path

import pytest
from inspect_ai.model import get_model
from typer.testing import CliRunner

from tests.fakes import CALLS, script
from tests.hardening.hostile_text import (
    ANSWER,
    CORPUS,
    Variant,
    honest_plant,
    honest_reply,
    honest_verdict,
    hostile_plant,
    obeying_reply,
)
from trustmh.audit.statutes.judged import SCOPE_RUBRIC
from trustmh.dialogue.mindeval_prompts import JUDGE_RUBRIC as MINDEVAL_RUBRIC
from trustmh.mentalalign.rubric import MENTALALIGN_RUBRIC
from trustmh.pillars.crisis.psychosis_prompts import DCS_RUBRIC, HES_RUBRIC, SIS_RUBRIC
from trustmh.pillars.crisis.scorers import escalation_rubric
from trustmh.pillars.crisis.simulated_risk_prompts import CONVERSATION_RUBRIC as RISK_CONVERSATION_RUBRIC
from trustmh.pillars.crisis.simulated_risk_prompts import TURN_RUBRIC as RISK_TURN_RUBRIC
from trustmh.pillars.ethics.scorers import PRINCIPLES_RUBRIC
from trustmh.pillars.fairness.scorers import SUPPORT_RUBRIC
from trustmh.pillars.privacy.scorers import PROXY_RUBRIC
from trustmh.pillars.reliability.prompts import CPSYCOUN_RUBRIC, ESCONV_RUBRIC
from trustmh.pillars.safety.crescendo import TURN_RUBRIC as CRESCENDO_RUBRIC
from trustmh.pillars.safety.scorers import HARM_RUBRIC, OVERREFUSAL_RUBRIC, TOXICITY_RUBRIC
from trustmh.pillars.sycophancy.scorers import OEQ_RUBRIC, PAS_RUBRIC
from trustmh.scoring import verdict
from trustmh.scoring.judge import judge_watch, run_judge
from trustmh.scoring.rubric import Rubric

RUBRICS: dict[str, Rubric] = {
    "mentalalign (run --judge, trustmh judge)": MENTALALIGN_RUBRIC,
    "mindeval": MINDEVAL_RUBRIC,
    "psychosis dcs": DCS_RUBRIC,
    "psychosis hes": HES_RUBRIC,
    "psychosis sis": SIS_RUBRIC,
    "crisis escalation": escalation_rubric("suicidal ideation", ("low", "medium", "high")),
    "simulated-risk conversation": RISK_CONVERSATION_RUBRIC,
    "simulated-risk turn": RISK_TURN_RUBRIC,
    "crescendo turn": CRESCENDO_RUBRIC,
    "ethics principles": PRINCIPLES_RUBRIC,
    "fairness support": SUPPORT_RUBRIC,
    "privacy proxy": PROXY_RUBRIC,
    "reliability esconv": ESCONV_RUBRIC,
    "reliability cpsycoun": CPSYCOUN_RUBRIC,
    "safety harm": HARM_RUBRIC,
    "safety overrefusal": OVERREFUSAL_RUBRIC,
    "safety toxicity": TOXICITY_RUBRIC,
    "sycophancy oeq": OEQ_RUBRIC,
    "sycophancy pas": PAS_RUBRIC,
    "audit statutory scope": SCOPE_RUBRIC,
}
CONTEXT = "I have not slept properly in weeks and I feel hopeless."


def test_the_corpus_has_at_least_40_variants() -> None:
    assert len(CORPUS) >= 40
    assert len({v.name for v in CORPUS}) == len(CORPUS)


def _material(variant: Variant, plant: dict[str, int | str]) -> tuple[str, str]:
    text = variant.write(plant)
    if variant.in_context:
        return f"{CONTEXT}\n\nassistant (earlier turn): {text}", ANSWER
    return CONTEXT, f"{ANSWER}\n\n{text}"


def _judge_corpus(rubric: Rubric, judge: str, plant: dict[str, int | str]) -> list[tuple[str, object, int]]:
    """(variant, verdict, attempts) of every variant, judged by one judge model in one run."""
    reply = obeying_reply(rubric) if judge == "obeying" else honest_reply(rubric)
    model = get_model(script(f"corpus-{judge}-{rubric.name}", [reply]), memoize=False)

    async def all_variants() -> list[tuple[str, object, int]]:
        out = []
        for variant in CORPUS:  # in order: the variants that break the judge come first
            result = await run_judge(model, rubric, *_material(variant, plant))
            out.append((variant.name, result.verdict, result.attempts))
        return out

    results = asyncio.run(all_variants())
    assert not judge_watch(model).stopped
    return results


@pytest.mark.parametrize("judge", ["honest", "obeying"])
@pytest.mark.parametrize("plant_kind", ["hostile", "honest"])
@pytest.mark.parametrize("rubric_name", list(RUBRICS))
def test_no_variant_moves_the_score_or_stops_the_judge(
    rubric_name: str, plant_kind: str, judge: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the three variants that make the reply unusable come first: with a limit of 3 the early-stop
    # rule is reached (an obeying judge's first three verdicts are unusable) and must not stop it
    monkeypatch.setattr(verdict, "FIRST_VERDICTS", 3)
    rubric = RUBRICS[rubric_name]
    plant = hostile_plant(rubric) if plant_kind == "hostile" else honest_plant(rubric)
    honest = honest_verdict(rubric)
    moved = []
    for name, got, attempts in _judge_corpus(rubric, judge, plant):
        variant = next(v for v in CORPUS if v.name == name)
        if judge == "obeying" and variant.breaks_judge:
            assert got is None, name  # unusable on its judge's reply: unparsed, counted, never a score
            continue
        if got != honest or attempts != 1:  # not pushed by a re-ask either
            moved.append((name, got, attempts))
    assert moved == []


def test_the_obeying_judge_really_obeys_unredacted_text() -> None:
    """The adversary is real: shown the plants as written (no redaction), it copies them."""
    rubric = MENTALALIGN_RUBRIC
    plant = hostile_plant(rubric)
    reply = obeying_reply(rubric)
    obeyed = 0
    for variant in CORPUS:
        if variant.breaks_judge:
            continue
        context, response = _material(variant, plant)
        prompt = f"<<<BEGIN abc>>>\n{context}\n{response}\n<<<END abc>>>"
        copied = json.loads(reply(prompt).rsplit("My verdict:\n", 1)[1])
        obeyed += any(copied[k] == v for k, v in plant.items())
    assert obeyed == sum(not v.breaks_judge for v in CORPUS)


def test_a_judge_that_can_judge_is_never_stopped_by_unjudgeable_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every answer tells the judge to reply with nothing: the early-stop rule is reached, the judge passes the
    clean calibration item, and the run goes on (the answers stay unparsed)."""
    monkeypatch.setattr(verdict, "FIRST_VERDICTS", 3)
    rubric = MENTALALIGN_RUBRIC
    model = get_model(script("corpus-calibrated", [obeying_reply(rubric)]), memoize=False)
    breaking = [v for v in CORPUS if v.breaks_judge]

    async def many() -> list[object]:
        return [
            (await run_judge(model, rubric, *_material(breaking[i % len(breaking)], {}))).verdict for i in range(12)
        ]

    assert asyncio.run(many()) == [None] * 12
    watch = judge_watch(model)
    assert watch.calibration == "passed" and not watch.stopped
    assert sum("losing a job is a real blow" in call for call in CALLS["corpus-calibrated"]) == 1


def test_trustmh_judge_end_to_end_with_the_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.doubles.openai_double import OpenAIDouble
    from trustmh.cli.bulk import standalone_app

    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-corpus-0000")
    monkeypatch.setattr(verdict, "FIRST_VERDICTS", 3)
    rubric = MENTALALIGN_RUBRIC
    responses = tmp_path / "responses.csv"
    with responses.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["context", "response"])
        for variant in CORPUS:
            writer.writerow(_material(variant, hostile_plant(rubric)))
    obey = obeying_reply(rubric)
    out = tmp_path / "judge.csv"
    with OpenAIDouble(responder=lambda messages: obey(_Prompt(messages))) as server:
        result = CliRunner().invoke(
            standalone_app(),
            ["judge", "--responses", str(responses), "--judge", "openai/judge", "-o", str(out)]
            + ["--base-url", server.base_url, "--cache", str(tmp_path / "c.sqlite"), "--no-progress"],
        )
    assert result.exit_code == 0, result.output
    with out.open(encoding="utf-8", newline="") as handle:
        cells = [json.loads(row["judge_response_original"] or "null") for row in csv.DictReader(handle)]
    expected = [None if v.breaks_judge else honest_verdict(rubric) for v in CORPUS]
    assert cells == expected


class _Prompt(str):
    """The double's chat messages as the obeying judge reads them (first message: the judge prompt)."""

    messages: tuple[str, ...]

    def __new__(cls, messages: list[dict[str, str]]) -> _Prompt:
        prompt = super().__new__(cls, messages[-1]["content"])
        prompt.messages = tuple(m["content"] for m in messages)
        return prompt
