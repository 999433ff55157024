"""Fail fast on an endpoint nobody answers at.

A connection refused or a host that does not resolve will not heal by retrying: without this
check a run spends its whole retry budget (per call, per sample, per eval-set attempt: about
20 minutes) before saying anything. One TCP connection before the run settles it within
seconds and names the endpoint. Timeouts, 5xx and 429 are still retried as before.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Sequence
from urllib.parse import urlsplit

from trustmh.core.errors import UserError, redact

CONNECT_TIMEOUT_S = 10.0
DEFAULT_BASE_URLS = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}
_PROXY_VARIABLES = ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "https_proxy", "http_proxy", "all_proxy")


def check_reachable(url: str, who: str, timeout: float = CONNECT_TIMEOUT_S, secrets: Sequence[str] = ()) -> None:
    """Raise a one-line :class:`UserError` if nothing accepts a TCP connection at ``url``'s host and port.

    Skipped behind a proxy (the client reaches the host through it, we cannot tell). ``secrets``:
    values to redact from the URL shown, besides the usual key shapes.
    """
    if any(os.environ.get(name) for name in _PROXY_VARIABLES):
        return
    parts = urlsplit(url)
    host = parts.hostname
    if not host:
        raise UserError(
            f"{who}: endpoint {redact(url, tuple(secrets))!r} is not a URL (expected e.g. http://127.0.0.1:8000/v1)"
        )
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise UserError(f"{who}: endpoint {redact(url, tuple(secrets))!r} has an invalid port") from None
    where = f"{who}: endpoint {redact(url, tuple(secrets))} is unreachable"
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return
    except socket.gaierror:
        raise UserError(f"{where}: host {host!r} does not resolve (check the URL and the network)") from None
    except ConnectionRefusedError:
        raise UserError(f"{where}: connection refused at {host}:{port} (is the server running?)") from None
    except TimeoutError:
        raise UserError(f"{where}: no answer from {host}:{port} within {timeout:g} s") from None
    except OSError as error:
        raise UserError(f"{where}: {error.strerror or error}") from None


def model_endpoint(name: str, base_url: str | None) -> str | None:
    """The URL an API model is served from (``None`` for in-process and unknown providers):
    its base URL, else inspect's ``<PROVIDER>_BASE_URL`` variable, else the provider's default."""
    provider = name.partition("/")[0]
    if provider not in DEFAULT_BASE_URLS and not base_url:
        return None
    return base_url or os.environ.get(f"{provider.upper()}_BASE_URL") or DEFAULT_BASE_URLS[provider]
