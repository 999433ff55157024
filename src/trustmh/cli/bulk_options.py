"""The options ``trustmh generate`` and ``trustmh judge`` share, declared once.

Each is a typed ``Annotated`` typer option; :class:`CallOptions` gathers those that configure
the calls (endpoint, rate limits, retries, cache, prices, caps, limit, dry run), and
:func:`with_call_options` adds them all to a command, which receives one ``options`` object.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, get_type_hints

import typer

from trustmh.bulk.backends import DEFAULT_API_KEY_ENV, EndpointSettings
from trustmh.bulk.budget import Budget
from trustmh.bulk.retry import RetryPolicy
from trustmh.bulk.session import RunSettings, default_cache_path
from trustmh.cli.common import usd_amount
from trustmh.core.errors import UserError

Output = Annotated[Path, typer.Option("--output", "-o", help="Output table (.csv or .xlsx), written atomically.")]
BaseUrl = Annotated[
    list[str] | None,
    typer.Option(
        help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (default: the SDK's, or $OPENAI_BASE_URL);"
        " repeat for replicas of the same models: calls are spread over them, a failing one is skipped."
    ),
]
Rpm = Annotated[int | None, typer.Option(min=1, help="Requests per minute to the endpoint (all models, all asks).")]
Tpm = Annotated[
    int | None, typer.Option(min=1, help="Tokens per minute to the endpoint (prompt estimate + max tokens).")
]
ProviderConnections = Annotated[
    int | None, typer.Option(min=1, help="Calls in flight to the endpoint at once (the embedded model is apart).")
]
# The batch size of a bare `--batch all` here: inspect's own default (what `trustmh run --batch all` uses).
DEFAULT_BATCH_SIZE = 100


def batch_size(value: str | None) -> int | None:
    """``--batch`` means what it means in ``trustmh run`` (:mod:`trustmh.run.batching`): ``all``,
    a SIZE, or ``ROLE[=SIZE]``; a generate or judge command has one role, so the spec gives its
    batch size (``all``: :data:`DEFAULT_BATCH_SIZE`)."""
    if value is None:
        return None
    from trustmh.run.batching import parse_batch

    try:
        sizes = set(parse_batch(value).values())
    except UserError as error:
        raise typer.BadParameter(str(error).removeprefix("--batch ")) from None
    if len(sizes) != 1:
        raise typer.BadParameter(f"{value!r}: one size for this command's calls, e.g. --batch 2000 or --batch all")
    (size,) = sizes
    chosen = DEFAULT_BATCH_SIZE if size is True else int(size)
    if chosen > 50_000:
        raise typer.BadParameter(f"{value!r}: at most 50000 requests per batch (the providers' limit)")
    return chosen


BatchSize = Annotated[
    int | None,
    typer.Option(
        "--batch",
        metavar="all|SIZE",
        parser=str,
        callback=batch_size,
        help="Use the provider's batch API (OpenAI Batch, Anthropic Message Batches): all, or SIZE requests"
        " per batch, as in trustmh run --batch (resumable; docs/batch.md).",
    ),
]
BatchPoll = Annotated[float, typer.Option(min=0.05, help="Seconds between polls of a submitted batch.")]
ApiKeyEnv = Annotated[str, typer.Option(help="Environment variable holding the API key.")]
MaxConnections = Annotated[int, typer.Option(min=1, max=4096, help="Calls in flight at once.")]
Timeout = Annotated[float, typer.Option(min=0.1, help="Seconds before a call is abandoned and retried.")]
MaxAttempts = Annotated[
    int, typer.Option(min=1, max=50, help="Attempts per call (429/5xx/timeouts/malformed bodies are retried).")
]
CachePath = Annotated[
    Path | None,
    typer.Option("--cache", help="SQLite cache file (default: ~/.cache/trustmh/bulk.sqlite or $TRUSTMH_CACHE_DIR)."),
]
NoCache = Annotated[bool, typer.Option("--no-cache", help="Neither read nor write the cache.")]
PriceIn = Annotated[
    float | None,
    typer.Option(min=0, callback=usd_amount, help="Price per 1M input tokens, for the cost summary."),
]
PriceOut = Annotated[
    float | None,
    typer.Option(min=0, callback=usd_amount, help="Price per 1M output tokens, for the cost summary."),
]
Progress = Annotated[bool, typer.Option("--progress/--no-progress", help="Show a progress bar on stderr.")]
DryRun = Annotated[
    bool, typer.Option("--dry-run", help="Print requests, tokens and estimated cost per model; send nothing.")
]
Prices = Annotated[
    Path | None,
    typer.Option(
        "--prices",
        help="YAML/JSON {MODEL: {input: N, output: N}} in USD per 1M tokens "
        "(optional batch: SHARE charged with --batch; docs/cost.md).",
    ),
]
MaxCost = Annotated[
    float | None,
    typer.Option(min=0, callback=usd_amount, help="Stop before the run's cost (USD) could cross this; rerun resumes."),
]
MaxTokensTotal = Annotated[
    int | None, typer.Option(min=1, help="Stop before prompt + completion tokens could cross this; rerun resumes.")
]
Limit = Annotated[
    int | None,
    typer.Option(min=1, help="Only the first N rows (a trial run; the cache makes the full run reuse them)."),
]


@dataclasses.dataclass(frozen=True)
class CallOptions:
    """How a bulk command calls its models; one command-line option per field."""

    base_url: BaseUrl = None
    api_key_env: ApiKeyEnv = DEFAULT_API_KEY_ENV
    max_connections: MaxConnections = 64
    timeout: Timeout = 120.0
    max_attempts: MaxAttempts = 6
    cache: CachePath = None
    no_cache: NoCache = False
    price_in: PriceIn = None
    price_out: PriceOut = None
    progress: Progress = True
    limit: Limit = None
    dry_run: DryRun = False
    prices: Prices = None
    max_cost: MaxCost = None
    max_tokens_total: MaxTokensTotal = None
    rpm: Rpm = None
    tpm: Tpm = None
    provider_connections: ProviderConnections = None
    batch: BatchSize = None
    batch_poll: BatchPoll = 30.0

    @property
    def cache_path(self) -> Path | None:
        return None if self.no_cache else (self.cache or default_cache_path())

    def run_settings(self, description: str, budget: Budget | None = None) -> RunSettings:
        urls: list[str | None] = list(dict.fromkeys(self.base_url or [])) or [None]
        max_connections = self.max_connections
        if self.batch:  # every call waiting at once (up to 100,000), so no batch waits for another to end
            max_connections = max(max_connections, 100_000)
            if len(urls) > 1:
                raise UserError("--batch and several --base-url: batches go to one endpoint")
        endpoint = EndpointSettings(
            base_url=urls[0],
            api_key_env=self.api_key_env,
            timeout=self.timeout,
            max_connections=max_connections,
            replica_urls=tuple(u for u in urls[1:] if u),
            provider_connections=self.provider_connections,
            rpm=self.rpm,
            tpm=self.tpm,
            batch_size=self.batch,
            batch_poll=self.batch_poll,
            batch_store=self.cache_path,
        )
        retry = RetryPolicy(max_attempts=self.max_attempts)
        return RunSettings(endpoint, self.cache_path, retry, self.progress, description, budget)


_CALL_FIELDS = [field.name for field in dataclasses.fields(CallOptions)]


def with_call_options(command: Callable[..., None]) -> Callable[..., None]:
    """``command(..., options: CallOptions)`` as typer sees it: its own parameters, then every call option."""
    own_hints = get_type_hints(command, include_extras=True)
    call_hints = get_type_hints(CallOptions, include_extras=True)
    own = [
        parameter.replace(annotation=own_hints[parameter.name])
        for parameter in inspect.signature(command).parameters.values()
        if parameter.name != "options"
    ]
    defaults = CallOptions()
    shared = [
        inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY, default=getattr(defaults, name), annotation=call_hints[name]
        )
        for name in _CALL_FIELDS
    ]

    @functools.wraps(command)
    def run(**arguments: Any) -> None:
        options = CallOptions(**{name: arguments.pop(name) for name in _CALL_FIELDS})
        command(**arguments, options=options)

    parameters = own + shared
    run.__signature__ = inspect.Signature(parameters, return_annotation=None)  # type: ignore[attr-defined]
    run.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return run
