"""``trustmh generate|judge --dry-run``: what the run would send, without sending anything.

The requests are built exactly as the run builds them (same messages, same parameters), so
their cache keys are the run's: requests already in the cache are counted as cached and cost
nothing. No backend is created (no API key needed) and the cache is opened read-only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

from trustmh.bulk.backends import REMOTE_PROVIDERS, ModelSpec
from trustmh.bulk.budget import Budget
from trustmh.bulk.generate import GenerationItem
from trustmh.bulk.judging import JUDGE_PARAMS, JudgeItem
from trustmh.bulk.request import ChatRequest, at_endpoint
from trustmh.cost.estimate import Estimate
from trustmh.cost.prices import PriceTable
from trustmh.mentalalign.rubric import MENTALALIGN_RUBRIC
from trustmh.scoring.judge_prompt import judge_prompt

_CHUNK = 500


def cached_keys(cache_path: Path | None, keys: Iterable[str]) -> set[str]:
    """The keys present in the cache file, read-only; none if there is no cache yet."""
    if cache_path is None or not cache_path.is_file():
        return set()
    try:
        db = sqlite3.connect(f"file:{cache_path}?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        return set()
    found: set[str] = set()
    key_list = list(keys)
    try:
        for start in range(0, len(key_list), _CHUNK):
            chunk = key_list[start : start + _CHUNK]
            rows = db.execute(f"SELECT key FROM completions WHERE key IN ({','.join('?' * len(chunk))})", chunk)
            found.update(key for (key,) in rows)
    except sqlite3.DatabaseError:
        return set()
    finally:
        db.close()
    return found


def batched_models(models: Iterable[str], batch: int | None) -> frozenset[str]:
    """The models a ``--batch`` run sends through a batch API: every remote one (``backends.py``)."""
    return frozenset(m for m in models if batch and m.split("/", 1)[0] in REMOTE_PROVIDERS)


def _estimate(
    requests: Sequence[tuple[ChatRequest, str]],
    prices: PriceTable,
    cache_path: Path | None,
    batch: int | None,
    endpoint: str = "",
) -> Estimate:
    has_cache = cache_path is not None and cache_path.is_file()
    # keyed as the engine keys them (bound to the run's OpenAI-compatible endpoint), so cached ones are seen
    keys = [
        at_endpoint(request, endpoint).cache_key() if has_cache else "" for request, _ in requests
    ]  # hashing costs ~0.1 ms each
    cached = cached_keys(cache_path, keys) if has_cache else set()
    batched = batched_models({request.model for request, _ in requests}, batch)
    estimate = Estimate(prices, lambda model, role: model in batched)
    for (request, role), key in zip(requests, keys, strict=True):
        estimate.add(request.model, role, request.messages, request.params.max_tokens, cached=key in cached)
    return estimate


def generation_estimate(
    items: Sequence[GenerationItem],
    prices: PriceTable,
    cache_path: Path | None,
    batch: int | None = None,
    endpoint: str = "",
) -> Estimate:
    requests = [(item.request, f"generate → {item.target.column}") for item in items]
    return _estimate(requests, prices, cache_path, batch, endpoint)


def judge_request(judge: ModelSpec, item: JudgeItem) -> ChatRequest:
    """The first ask of :func:`trustmh.bulk.judging.judge_one` for this item."""
    prompt = judge_prompt(MENTALALIGN_RUBRIC, item.context, item.response)
    return ChatRequest(judge.spec, ({"role": "user", "content": prompt},), JUDGE_PARAMS)


def judging_estimate(
    items: Sequence[JudgeItem],
    judge: ModelSpec,
    max_verdict_attempts: int,
    prices: PriceTable,
    cache_path: Path | None,
    batch: int | None = None,
    endpoint: str = "",
) -> Estimate:
    to_judge = [item for item in items if item.response.strip()]  # empty responses are never sent
    requests = [(judge_request(judge, item), "judge") for item in to_judge]
    estimate = _estimate(requests, prices, cache_path, batch, endpoint)
    row = estimate.row(judge.spec, "judge")
    skipped = len(items) - len(to_judge)
    if skipped:
        row.notes.append(f"{skipped:,} empty responses are not sent")
    if max_verdict_attempts > 1:
        row.notes.append(
            f"first asks only; an unusable verdict is re-asked, up to {max_verdict_attempts}x per response in all"
        )
    return estimate


def make_budget(
    specs: Sequence[ModelSpec],
    prices: PriceTable,
    max_cost: float | None,
    max_tokens_total: int | None,
    batch: int | None = None,
) -> Budget | None:
    """The caps of a run; a batched model's spending is counted at its batch price."""
    if max_cost is None and max_tokens_total is None:
        return None
    model_prices = {spec.spec: prices.price(spec.spec) for spec in specs}
    return Budget(max_cost, max_tokens_total, model_prices, batched_models(model_prices, batch))
