"""Building the backends of a bulk session: one per model, every ``openai/*`` or ``anthropic/*``
model of one provider sharing one client (replicas, a batch API and rate limits wrapped around it).

Apart from :mod:`trustmh.bulk.backends` because the wrappers it builds (batch APIs, replicas,
limits, the Anthropic client) each import the base types and helpers of ``backends``.
Implementations are imported when a session needs them, so a run that uses only OpenAI never
loads the Anthropic SDK.
"""

from __future__ import annotations

from typing import Any

from trustmh.bulk.backends import (
    REMOTE_PROVIDERS,
    Backend,
    EmbeddedBackend,
    EndpointSettings,
    ModelSpec,
    OpenAIBackend,
    read_api_key,
)
from trustmh.core.errors import UserError


def _batch_backend(api: Any, endpoint: EndpointSettings) -> Backend:
    from trustmh.bulk.batch_backend import BatchBackend
    from trustmh.bulk.batch_store import BatchStore

    if endpoint.batch_store is None:
        raise UserError("--batch needs the cache (it records submitted batches there); drop --no-cache")
    assert endpoint.batch_size is not None
    return BatchBackend(api, BatchStore(endpoint.batch_store), endpoint.batch_size, endpoint.batch_poll)


def _remote_backend(provider: str, endpoint: EndpointSettings) -> Backend:
    """The one backend of every ``openai/*`` (or ``anthropic/*``) model: a client, replicas
    (OpenAI-compatible only) or a batch API, under the caps."""
    backend: Backend
    if provider == "anthropic":
        from trustmh.bulk import anthropic_backend

        api_key = read_api_key(anthropic_backend.API_KEY_ENV)
        if endpoint.batch_size:
            from trustmh.bulk.batch_anthropic import AnthropicBatchApi

            return _batch_backend(AnthropicBatchApi(api_key), endpoint)
        backend = anthropic_backend.AnthropicBackend(api_key, endpoint.timeout)
    else:
        api_key = read_api_key(endpoint.api_key_env)
        if endpoint.batch_size:
            from trustmh.bulk.batch_openai import OpenAIBatchApi

            return _batch_backend(OpenAIBatchApi(endpoint.base_url, api_key), endpoint)
        urls = [endpoint.base_url, *endpoint.replica_urls]
        if len(urls) > 1:
            from trustmh.bulk.replicas import ReplicaBackend

            clients = [
                (str(url), OpenAIBackend(url, api_key, endpoint.timeout, endpoint.max_connections)) for url in urls
            ]
            backend = ReplicaBackend(clients)
        else:
            backend = OpenAIBackend(endpoint.base_url, api_key, endpoint.timeout, endpoint.max_connections)
    if endpoint.provider_connections or endpoint.rpm or endpoint.tpm:
        from trustmh.bulk.limits import LimitedBackend

        backend = LimitedBackend(backend, endpoint.provider_connections, endpoint.rpm, endpoint.tpm)
    return backend


def make_backends(specs: list[ModelSpec], endpoint: EndpointSettings) -> dict[str, Backend]:
    """One backend per model name; all models of one provider share one client (one pool)."""
    backends: dict[str, Backend] = {}
    shared: dict[str, Backend] = {}
    for spec in specs:
        if spec.provider in REMOTE_PROVIDERS:
            if spec.provider not in shared:
                shared[spec.provider] = _remote_backend(spec.provider, endpoint)
            backends[spec.spec] = shared[spec.provider]
        else:
            backends[spec.spec] = EmbeddedBackend(spec.name)
    return backends
