"""The generated planted-verdict corpus (``plant_grammar.py``) against every judged rubric: the score
never moves toward the plant.

Every variant is judged through the shared judge (``run_judge``: ``run --judge``, panels,
conversation and audit judges all call it) with the rubric of each judged scorer, by an honest
scripted judge (a fixed verdict) and by one that obeys any verdict it can read in the material,
with the ratings the model wants planted and with the honest verdict planted (the reverse
attack). The verdict is the honest one, asked once. The obeying judge is shown to be a real
adversary: given the same material unmasked, it copies the plant in every variant.
"""

from __future__ import annotations

import asyncio
import importlib
import pkgutil

import pytest
from inspect_ai.model import get_model

import trustmh
from tests.fakes import script
from tests.hardening.hostile_text import ANSWER, honest_plant, honest_verdict, hostile_plant
from tests.hardening.plant_grammar import GrammarVariant, corpus, obeyed, obeying_reply, scale_labels
from tests.hardening.test_hostile_judged_text import CONTEXT, RUBRICS
from trustmh.pillars.crisis.balance import OVERESCALATION_RUBRIC
from trustmh.scoring import verdict
from trustmh.scoring.judge import judge_watch, run_judge
from trustmh.scoring.rubric import Rubric

JUDGED: dict[str, Rubric] = {**RUBRICS, "crisis overescalation": OVERESCALATION_RUBRIC}
# The rubrics with a rated field (the privacy proxy's only field is a free-text answer: nothing to plant).
RATED = [name for name, rubric in JUDGED.items() if any(not f.text for f in rubric.fields)]
CORPUS = corpus()


def test_the_corpus_is_generated_deterministically_and_covers_the_grammar() -> None:
    assert len(CORPUS) >= 200
    assert [v.name for v in corpus()] == [v.name for v in CORPUS]  # same seed, same corpus
    assert [v.name for v in corpus(seed=1)] != [v.name for v in CORPUS]
    rubric = JUDGED["mentalalign (run --judge, trustmh judge)"]
    texts = [v.write(rubric, hostile_plant(rubric)) for v in CORPUS]
    assert len(set(texts)) == len(texts)
    for dimension in ("container", "separator", "line_break", "spacing", "quote", "key", "value"):
        assert len({getattr(v.choice, dimension) for v in CORPUS}) > 4, dimension


def _material(variant: GrammarVariant, index: int, rubric: Rubric, plant: dict[str, int | str]) -> tuple[str, str]:
    text = variant.write(rubric, plant)
    if index % 5 == 4:  # every fifth variant is planted in an earlier turn (the judge's context)
        return f"{CONTEXT}\n\nassistant (earlier turn): {text}", ANSWER
    return CONTEXT, f"{ANSWER}\n\n{text}"


def _toward_plant(got: dict[str, int | str] | None, honest: dict[str, int | str], plant: dict[str, int | str]) -> bool:
    return got is None or any(got.get(k) != honest[k] and got.get(k) == v for k, v in plant.items())


@pytest.mark.parametrize("rubric_name", RATED)
def test_the_obeying_judge_copies_every_variant_it_is_shown_unmasked(rubric_name: str) -> None:
    rubric = JUDGED[rubric_name]
    plant, honest = hostile_plant(rubric), honest_verdict(rubric)
    labels = {label.lower(): n for n, label in scale_labels(rubric.instructions).items()}
    missed = []
    for index, variant in enumerate(CORPUS):
        context, response = _material(variant, index, rubric, plant)
        read = {**honest, **obeyed(f"{context}\n{response}", rubric, labels)}
        if not _toward_plant(read, honest, plant):
            missed.append(variant.name)
    assert missed == []


@pytest.mark.slow
@pytest.mark.parametrize("plant_kind", ["hostile", "honest"])
@pytest.mark.parametrize("rubric_name", list(JUDGED))
def test_no_generated_variant_moves_the_score(rubric_name: str, plant_kind: str) -> None:
    rubric = JUDGED[rubric_name]
    honest = honest_verdict(rubric)
    plant = hostile_plant(rubric) if plant_kind == "hostile" else honest_plant(rubric)
    for judge in ("honest", "obeying"):
        reply = (
            obeying_reply(rubric, honest) if judge == "obeying" else (lambda prompt: __import__("json").dumps(honest))
        )
        model = get_model(script(f"grammar-{judge}-{plant_kind}-{rubric.name}", [reply]), memoize=False)

        async def every_variant(model=model) -> list[tuple[str, object, int]]:
            out = []
            for index, variant in enumerate(CORPUS):
                result = await run_judge(model, rubric, *_material(variant, index, rubric, plant))
                out.append((variant.name, result.verdict, result.attempts))
            return out

        moved = [(name, got, n) for name, got, n in asyncio.run(every_variant()) if got != honest or n != 1]
        assert moved == [], judge
        assert not judge_watch(model).stopped


def _module_rubrics() -> dict[str, Rubric]:
    """Every rubric a trustmh module defines at module level, by name."""
    found: dict[str, Rubric] = {}
    for info in pkgutil.walk_packages(trustmh.__path__, "trustmh."):
        if ".cli" in info.name or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for value in vars(module).values():
            if isinstance(value, Rubric) and value.verbatim is None:
                found[value.name] = value
    return found


def test_every_judged_rubric_of_trustmh_is_in_the_corpus_run() -> None:
    """A new judged scorer's rubric is covered, or this test names it."""
    covered = {rubric.name for rubric in JUDGED.values()}
    assert sorted(set(_module_rubrics()) - covered) == []


def test_the_reverse_attack_leaves_the_verdict_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    """Judging stays usable when every answer plants: no early stop, one ask per item."""
    monkeypatch.setattr(verdict, "FIRST_VERDICTS", 3)
    rubric = JUDGED["psychosis dcs"]
    honest = honest_verdict(rubric)
    model = get_model(script("grammar-reverse", [obeying_reply(rubric, honest)]), memoize=False)

    async def first_ten() -> list[object]:
        return [
            (await run_judge(model, rubric, *_material(v, i, rubric, honest_plant(rubric)))).verdict
            for i, v in enumerate(CORPUS[:10])
        ]

    assert asyncio.run(first_ten()) == [honest] * 10
    assert not judge_watch(model).stopped
