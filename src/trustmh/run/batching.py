"""``trustmh run --batch SPEC``: inspect's provider batch mode, per role.

SPEC is a comma-separated list of ``ROLE`` or ``ROLE=SIZE`` items, ROLE being ``model`` (the
models under test), ``judge`` or ``all``; a bare number is ``all=SIZE``. Examples:
``--batch all``, ``--batch 1000``, ``--batch judge``, ``--batch model=200,judge=500``.

Batch APIs exist for OpenAI, Anthropic, Google, Grok and Together (inspect's batchers:
requests are grouped, submitted to the provider's batch service, polled, typically at half the
price and hours of latency). Every other provider — vLLM, Ollama, Hugging Face, the embedded
model, ``openai-api/...`` servers and ``openai/...`` pointed at a non-OpenAI ``OPENAI_BASE_URL``
(an OpenAI-compatible server has no ``/v1/batches``) — gets no batching: the run says so at
start and sends those requests one by one. A batched role has no per-call timeout by default
(a batch may take hours): ``--timeout`` / ``--attempt-timeout`` still apply when given.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from trustmh.core.errors import UserError

BATCH_PROVIDERS = ("openai", "anthropic", "google", "grok", "together")
ROLES = ("model", "judge")

Batch = bool | int  # inspect's GenerateConfig.batch: True (default size) or a batch size


def parse_batch(spec: str) -> dict[str, Batch]:
    """``--batch`` SPEC → the batch setting per role (see module docstring)."""
    chosen: dict[str, Batch] = {}
    for item in (part.strip() for part in spec.split(",")):
        role, sep, size_text = item.partition("=")
        if role.isdigit() and not sep:
            role, size_text, sep = "all", role, "="
        if role not in (*ROLES, "all"):
            raise UserError(f"--batch {spec!r}: expected model, judge, all or a size, e.g. --batch judge=500")
        size: Batch = True
        if sep:
            if not size_text.isdigit() or int(size_text) < 1:
                raise UserError(f"--batch {spec!r}: the size after {role}= must be a whole number >= 1")
            size = int(size_text)
        for name in ROLES if role == "all" else (role,):
            chosen[name] = size
    return chosen


def no_batch_reason(model: str) -> str | None:
    """Why ``model`` cannot use a batch API, or ``None`` if it can."""
    provider = model.split("/", 1)[0]
    if provider not in BATCH_PROVIDERS:
        return f"provider {provider!r} has no batch API"
    base_url = os.environ.get(f"{provider.upper()}_BASE_URL", "")
    if provider == "openai" and base_url and "api.openai.com" not in base_url:
        return "an OpenAI-compatible server (OPENAI_BASE_URL) has no batch API"
    return None


def goes_through_batch_api(model: str, batch: object) -> bool:
    """Whether inspect sends a call to ``model`` whose generate config has ``batch`` through a
    batch API: its config asks for batching (only the roles of a :class:`BatchPlan` do; the
    models under test share one setting) and its provider has one. inspect's batchers send
    every such call in a batch (no fallback to a direct request)."""
    return bool(batch) and no_batch_reason(model) is None


@dataclass
class BatchPlan:
    model: Batch | None = None  # for eval-set's generate config (the models under test)
    judges: dict[str, Batch] = field(default_factory=dict)  # per judge role of the panel (judge, judge_2, ...)
    notices: list[str] = field(default_factory=list)
    batched_models: frozenset[str] = frozenset()  # the models under test really batched

    @property
    def judge(self) -> Batch | None:
        """The first judge's batch setting."""
        return self.judges.get("judge")

    def batches(self, model: str, role: str) -> bool:
        """Whether ``model`` in ``role`` (``model`` = under test, a judge role) goes through a batch API."""
        return role in self.judges if role.startswith("judge") else role == "model" and model in self.batched_models


def plan_batch(spec: str | None, models: Sequence[str], judge: str | Sequence[str] | None) -> BatchPlan:
    """What to batch; every model that asked for batching and cannot gets a notice. ``judge``:
    the judge, or the panel's judges (each one that can is batched)."""
    from trustmh.scoring.panel import judge_roles

    plan = BatchPlan()
    if not spec:
        return plan
    judges = judge_roles([judge] if isinstance(judge, str) else list(judge or []))
    wanted = parse_batch(spec)
    if "model" in wanted:
        refused = {model: reason for model in models if (reason := no_batch_reason(model))}
        plan.notices += [
            f"{model}: no batching ({reason}); requests go one by one" for model, reason in refused.items()
        ]
        if len(refused) < len(models):
            if any(no_batch_reason(m) and m.startswith("openai/") for m in models):
                # one generate config serves every model under test: an openai/ model on a
                # compatible server would try /v1/batches, so nobody is batched
                plan.notices.append("models under test: not batched, since one of them cannot be")
            else:
                plan.model = wanted["model"]
                plan.batched_models = frozenset(m for m in models if m not in refused)
    if "judge" in wanted and judges:
        for role, name in judges.items():
            reason = no_batch_reason(name)
            if reason:
                plan.notices.append(f"judge {name}: no batching ({reason}); requests go one by one")
            else:
                plan.judges[role] = wanted["judge"]
    elif "judge" in wanted and set(wanted) == {"judge"}:
        plan.notices.append("--batch judge: no --judge given, nothing to batch")
    return plan
