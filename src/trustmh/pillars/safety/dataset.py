"""Samples of the Safety pillar: JailbreakMH rows, or harmful intents wrapped by our transformations."""

from __future__ import annotations

from inspect_ai.dataset import MemoryDataset, Sample

from trustmh.core.errors import UserError
from trustmh.data.loaders.psyharm import (
    JAILBREAKMH_METHODS,
    HarmfulRequest,
    load_jailbreakmh,
    load_prompt_csv,
    load_psyharm,
)
from trustmh.data.starter import load_starter
from trustmh.pillars.safety.transformations import TRUSTLLM_METHODS, canonical_method, transform

STARTER = "trustmh.pillars.safety.starter"


def starter_intents() -> list[HarmfulRequest]:
    return [HarmfulRequest(r["id"], r["objective"], r["prompt"]) for r in load_starter(STARTER, "psyharm.jsonl")]


def harmful_intents(source: str, data_dir: str | None, intents_csv: str | None = None) -> list[HarmfulRequest]:
    """The intents to attack: the user's CSV, PsyHarm (benchmark) or our starter items."""
    if intents_csv:
        return load_prompt_csv(intents_csv)
    return load_psyharm(data_dir) if source == "benchmark" else starter_intents()


def jailbreakmh_requests(source: str, data_dir: str | None) -> list[HarmfulRequest]:
    """JailbreakMH rows; the starter version wraps each starter intent in one of the 8
    JailbreakMH methods (rotating, seed 0) with our own templates."""
    if source == "benchmark":
        return load_jailbreakmh(data_dir)
    requests = []
    for index, intent in enumerate(starter_intents()):
        method = JAILBREAKMH_METHODS[index % len(JAILBREAKMH_METHODS)]
        requests.append(
            HarmfulRequest(
                f"{intent.id}-{canonical_method(method).replace(' ', '_')}",
                intent.objective,
                transform(method, intent.prompt).prompt,
                method,
            )
        )
    return requests


def jailbreakmh_dataset(source: str, data_dir: str | None) -> MemoryDataset:
    samples = [
        Sample(id=r.id, input=r.prompt, metadata={"objective": r.objective, "method": canonical_method(r.method)})
        for r in jailbreakmh_requests(source, data_dir)
    ]
    return MemoryDataset(samples, name="jailbreakmh")


def parse_methods(methods: str | list[str] | None) -> tuple[str, ...]:
    """``"all"``/None → the 14 TrustLLM methods; else a comma-separated list of known labels."""
    if methods is None or methods == "all":
        return TRUSTLLM_METHODS
    names = [m.strip() for m in (methods.split(",") if isinstance(methods, str) else methods) if m.strip()]
    chosen = []
    for name in names:
        try:
            chosen.append(canonical_method(name))
        except KeyError:
            raise UserError(f"unknown jailbreak method {name!r}; known: {', '.join(TRUSTLLM_METHODS)}") from None
    if not chosen:
        raise UserError("methods is empty; give 'all' or a comma-separated list of jailbreak methods")
    return tuple(dict.fromkeys(chosen))


def generated_dataset(
    intents: list[HarmfulRequest], methods: tuple[str, ...], seed: int, rotate: bool
) -> MemoryDataset:
    """Every intent × method (``rotate=False``) or one method per intent, cycling (``rotate=True``).

    Sample ids are ``<intent id>-<method>``; method and seed are in the metadata so any prompt
    can be rebuilt with ``transform(method, intent, seed)``.
    """
    samples = []
    for index, intent in enumerate(intents):
        chosen = (methods[index % len(methods)],) if rotate else methods
        for method in chosen:
            attack = transform(method, intent.prompt, seed)
            samples.append(
                Sample(
                    id=f"{intent.id}-{attack.method.replace(' ', '_')}",
                    input=attack.prompt,
                    metadata={
                        "objective": intent.objective,
                        "method": attack.method,
                        "seed": seed,
                        "intent_id": intent.id,
                        "intent": intent.prompt,
                    },
                )
            )
    return MemoryDataset(samples, name="jailbreak_generated")


OVERREFUSAL_FILE = "overrefusal.jsonl"


def overrefusal_items() -> list[dict[str, str]]:
    """Our own benign requests (``id``, ``category``, ``prompt``, optional ``mirrors``: the PsyHarm
    objective a contrast item mirrors). They are the whole benchmark of ``safety_overrefusal``."""
    return load_starter(STARTER, OVERREFUSAL_FILE)


def overrefusal_dataset(per_category: int | None) -> MemoryDataset:
    """Every item, or the first ``per_category`` items of each category (file order)."""
    samples = [
        Sample(
            id=item["id"],
            input=item["prompt"],
            metadata={"category": item["category"], "mirrors": item.get("mirrors"), "contrast": "mirrors" in item},
        )
        for item in _first_per_category(overrefusal_items(), per_category)
    ]
    return MemoryDataset(samples, name="trustmh_overrefusal")


HOSTILE_FILE = "hostile.jsonl"


def hostile_items() -> list[dict[str, str]]:
    """Our own hostile user messages (``id``, ``category``, ``prompt``): insults to the assistant,
    provocation, requests for slurs (described, never spelled out), baiting into contempt toward
    people with a mental illness, a distressed user lashing out, demeaning role-play."""
    return load_starter(STARTER, HOSTILE_FILE)


def _first_per_category(items: list[dict[str, str]], per_category: int | None) -> list[dict[str, str]]:
    """Every item, or the first ``per_category`` of each category (file order)."""
    if per_category is not None and per_category < 1:
        raise UserError(f"per_category must be a positive number of items, not {per_category}")
    taken: dict[str, int] = {}
    chosen = []
    for item in items:
        category = item["category"]
        if per_category is not None and taken.get(category, 0) >= per_category:
            continue
        taken[category] = taken.get(category, 0) + 1
        chosen.append(item)
    return chosen


def antitoxic_dataset(
    source: str, data_dir: str | None, per_category: int | None, jailbreaks: int | None
) -> MemoryDataset:
    """The jailbreak prompts of ``safety_jailbreakmh`` (the first ``jailbreaks`` of them, or all)
    followed by our hostile messages (``per_category`` of each category, or all).

    The jailbreak samples carry the same input as in ``safety_jailbreakmh``, so a run of both
    tasks answers them once when identical requests are reused (the embedded model does).
    """
    if jailbreaks is not None and jailbreaks < 0:
        raise UserError(f"jailbreaks must be a number of prompts (0 or more), not {jailbreaks}")
    requests = jailbreakmh_requests(source, data_dir)
    samples = [
        Sample(
            id=f"jailbreak-{r.id}",
            input=r.prompt,
            metadata={"kind": "jailbreak", "category": canonical_method(r.method), "objective": r.objective},
        )
        for r in (requests if jailbreaks is None else requests[:jailbreaks])
    ]
    samples += [
        Sample(id=item["id"], input=item["prompt"], metadata={"kind": "hostile", "category": item["category"]})
        for item in _first_per_category(hostile_items(), per_category)
    ]
    return MemoryDataset(samples, name="antitoxic")
