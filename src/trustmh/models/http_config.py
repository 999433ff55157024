"""The configuration file of ``trustmh/http``: how to talk to a deployed chatbot.

A small YAML (or JSON) file, e.g. for a session-based product::

    url: https://bot.example.org/api/sessions/{{session_id}}/messages
    secrets: [BOT_API_KEY]          # the environment variables this endpoint may read
    headers:
      Authorization: "Bearer ${BOT_API_KEY}"
    body:
      text: "{{message}}"
    reply: data.reply.text
    session:                        # optional: create a session per conversation
      url: https://bot.example.org/api/sessions
      body: {}
      id: data.id

``${NAME}`` is replaced by the environment variable ``NAME`` when the file is loaded (in any
string: url, headers, body), and only for a ``NAME`` the file declares under ``secrets:``: a
config cannot send another variable of the environment (an OpenAI key, a cloud token) to its
host. Any other ``${...}`` is an error. Secrets go to one host: a ``session.url`` on another
host than ``url`` is refused while secrets are declared. Their values are kept in memory only
and redacted from every error. YAML aliases (``*name``) are refused: an alias expanding an
anchor many times over (the "billion laughs") would cost memory and time at every request. ``{{name}}`` is replaced per request by a request variable (:data:`VARIABLES`):
a string that is exactly ``"{{name}}"`` becomes the variable's JSON value (a list of
messages, a number), one that merely contains it gets the value as text.
``reply`` (and the optional ``usage`` paths and ``session.id``) are dotted JSON paths:
``choices.0.message.content``; a leading ``$.`` is accepted.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError, ValidationInfo, field_validator

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_yaml_mapping

# Request variables a template may use.
VARIABLES = {
    "messages": "the whole conversation as [{role, content}], system messages included",
    "history": "the conversation without system messages",
    "message": "the last user message (text)",
    "system": "the system prompt (text, empty if none)",
    "session_id": "the conversation's session id (created by `session`, else a random id per conversation)",
    "conversation_id": "a random id per conversation (one per sample and epoch)",
    "max_tokens": "the run's max completion tokens (null if unset)",
    "temperature": "the run's temperature (null if unset)",
}
_PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")
_ENV = re.compile(r"\$\{([^}]*)\}")
_ENV_NAME = re.compile(r"\w+")
DEFAULT_MAX_RESPONSE_BYTES = 4_000_000  # far above any chat reply; bounds memory against a huge or gzip-bomb body
DEFAULT_CONNECT_TIMEOUT = 10.0


def _check_http_url(url: str, info: ValidationInfo) -> str:
    """An http(s) URL with a host; before ``${NAME}`` expansion only what is already written is
    checked (and named in the error: it holds no secret yet)."""
    expanded = (info.context or {}).get("expanded", True)
    if not expanded and "${" in url:
        return url  # checked again once the variables are in
    found = "" if expanded else f", found {url.split('?')[0][:100]!r}"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise ValueError(f"expected an http:// or https:// URL{found}")
    if not parts.netloc:
        raise ValueError(f"expected a host after http:// or https://{found}")
    return url


class UsagePaths(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input_tokens: str | None = None
    output_tokens: str | None = None


class SessionConfig(BaseModel):
    """How to open a session for each conversation."""

    model_config = ConfigDict(extra="forbid")
    url: str
    method: Literal["POST", "PUT", "GET"] = "POST"
    body: Any = None
    id: str = Field(description="JSON path of the new session's id in the reply")

    @field_validator("url")
    @classmethod
    def _http_url(cls, url: str, info: ValidationInfo) -> str:
        return _check_http_url(url, info)


class HttpConfig(BaseModel):
    """One chatbot endpoint (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")
    url: str
    method: Literal["POST", "PUT"] = "POST"
    secrets: list[str] = Field(default_factory=list, description="environment variables ${NAME} may read")
    headers: dict[str, str] = Field(default_factory=dict)
    body: Any
    reply: str
    usage: UsagePaths | None = None
    session: SessionConfig | None = None
    timeout: float = Field(default=120.0, gt=0, description="seconds one HTTP request and its whole reply may take")
    connect_timeout: float = Field(default=DEFAULT_CONNECT_TIMEOUT, gt=0, description="seconds to connect")
    max_response_bytes: int = Field(default=DEFAULT_MAX_RESPONSE_BYTES, ge=1, description="reply size, decompressed")
    max_connections: int = Field(default=8, ge=1, description="concurrent conversations")
    # Resolved ${NAME} values: secrets, never written anywhere (filled by load_config; not a field,
    # so a config file cannot set it).
    _secret_values: tuple[str, ...] = PrivateAttr(default=())

    @field_validator("url")
    @classmethod
    def _http_url(cls, url: str, info: ValidationInfo) -> str:
        return _check_http_url(url, info)

    @field_validator("secrets")
    @classmethod
    def _names(cls, names: list[str]) -> list[str]:
        for name in names:
            if not _ENV_NAME.fullmatch(name):
                raise ValueError(f"{name!r} is not an environment variable name (letters, digits, _)")
        return names

    @property
    def secret_values(self) -> tuple[str, ...]:
        """The values the declared ``secrets`` resolved to, longest first (for redaction)."""
        return self._secret_values

    @property
    def uses_sessions(self) -> bool:
        """One session per conversation: the product keeps the history, we send each new user turn."""
        return self.session is not None or "session_id" in template_variables([self.url, self.body, self.headers])


def template_variables(template: Any) -> set[str]:
    """The ``{{name}}`` variables used anywhere in a (nested) template."""
    if isinstance(template, str):
        return set(_PLACEHOLDER.findall(template))
    if isinstance(template, dict):
        return set().union(*(template_variables(v) for v in template.values()), set())
    if isinstance(template, list):
        return set().union(*(template_variables(v) for v in template), set())
    return set()


def render(template: Any, variables: dict[str, Any]) -> Any:
    """``template`` with each ``{{name}}`` replaced (see module docstring)."""
    if isinstance(template, str):
        whole = _PLACEHOLDER.fullmatch(template.strip())
        if whole:
            return variables[whole.group(1)]
        return _PLACEHOLDER.sub(lambda m: _as_text(variables[m.group(1)]), template)
    if isinstance(template, dict):
        return {key: render(value, variables) for key, value in template.items()}
    if isinstance(template, list):
        return [render(value, variables) for value in template]
    return template


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


class JsonPathError(LookupError):
    """A JSON path does not lead to a value in a reply."""


def json_path(document: Any, path: str) -> Any:
    """The value at a dotted path (``choices.0.message.content``) of a parsed JSON document."""
    current = document
    steps = [step for step in path.removeprefix("$").strip(".").split(".") if step]
    for depth, step in enumerate(steps):
        if isinstance(current, list) and step.lstrip("-").isdigit() and -len(current) <= int(step) < len(current):
            current = current[int(step)]
        elif isinstance(current, dict) and step in current:
            current = current[step]
        else:
            where = ".".join(steps[:depth]) or "the top level"
            found = sorted(current)[:8] if isinstance(current, dict) else type(current).__name__
            raise JsonPathError(f"reply path {path!r}: no {step!r} at {where} (found {found})")
    return current


def _resolve_env(value: Any, field: str, path: Path, declared: set[str], secrets: list[str]) -> Any:
    """``${NAME}`` → the environment variable's value, for a declared ``NAME`` only (recorded in ``secrets``)."""
    if isinstance(value, str):

        def substitute(match: re.Match[str]) -> str:
            name = match.group(1)
            if not _ENV_NAME.fullmatch(name):
                shown = match.group(0) if len(match.group(0)) <= 40 else match.group(0)[:40] + "…"
                raise DataFormatError(path, f"field {field!r}", f"{shown} is not a ${{NAME}} reference")
            if name not in declared:
                raise DataFormatError(
                    path,
                    f"field {field!r}",
                    f"${{{name}}} is not declared under `secrets:` (only declared environment variables are "
                    f"read; add `secrets: [{name}]` if this endpoint may receive it)",
                )
            if name not in os.environ:
                raise DataFormatError(path, f"field {field!r}", f"environment variable {name} is not set")
            if os.environ[name]:
                secrets.append(os.environ[name])
            return os.environ[name]

        return _ENV.sub(substitute, value)
    if isinstance(value, dict):
        resolved = {}
        for key, item in value.items():
            where = f"{field}.{key}".lstrip(".")
            if "${" in str(key):
                raise DataFormatError(path, f"field {where!r}", "${NAME} is expanded in values only, not in keys")
            resolved[key] = _resolve_env(item, where, path, declared, secrets)
        return resolved
    if isinstance(value, list):
        return [
            _resolve_env(item, f"{field}.{index}".lstrip("."), path, declared, secrets)
            for index, item in enumerate(value)
        ]
    return value


def _validated(raw: dict[str, Any], path: Path, expanded: bool) -> HttpConfig:
    try:
        return HttpConfig.model_validate(raw, context={"expanded": expanded})
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise DataFormatError(path, f"field {field!r}", first["msg"].removeprefix("Value error, ")) from None


def _check_templates(config: HttpConfig, path: Path) -> None:
    templates = {"url": config.url, "headers": config.headers, "body": config.body}
    if config.session is not None:
        templates |= {"session.url": config.session.url, "session.body": config.session.body}
    for field, template in templates.items():
        unknown = template_variables(template) - set(VARIABLES)
        if field.startswith("session") and "session_id" in template_variables(template):
            unknown.add("session_id")
        if unknown:
            raise DataFormatError(
                path,
                f"field {field!r}",
                f"unknown variable {{{{{sorted(unknown)[0]}}}}} (known: {', '.join(VARIABLES)})",
            )


def _origin(url: str) -> tuple[str, str, int | None]:
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    return parts.scheme, parts.hostname or "", port or (443 if parts.scheme == "https" else 80)


def _check_one_host(config: HttpConfig, written: HttpConfig, path: Path) -> None:
    """Declared secrets travel in every request's headers: both requests must go to one host."""
    if config.session is None or not config.secrets or written.session is None:
        return
    if _origin(config.session.url) != _origin(config.url):
        raise DataFormatError(
            path,
            "field 'session.url'",
            f"{written.session.url.split('?')[0]} is not on the host of url {written.url.split('?')[0]}; "
            "the declared secrets would be sent to both (put both on one host)",
        )


def load_config(path: str | Path) -> HttpConfig:
    """Read and check a config file; a mistake is one line naming the file and field."""
    path = Path(path)
    raw = read_yaml_mapping(path, "expected a YAML or JSON mapping (url, headers, body, reply)")
    written = _validated(raw, path, expanded=False)
    _check_templates(written, path)
    secrets: list[str] = []
    resolved = {
        key: value if key == "secrets" else _resolve_env(value, key, path, set(written.secrets), secrets)
        for key, value in raw.items()
    }
    config = _validated(resolved, path, expanded=True)
    _check_one_host(config, written, path)
    config._secret_values = tuple(sorted(set(secrets), key=len, reverse=True))
    return config
