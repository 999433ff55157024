"""The configuration file of ``trustmh/http``: how to talk to a deployed chatbot.

A small YAML (or JSON) file, e.g. for a session-based product::

    url: https://bot.example.org/api/sessions/{{session_id}}/messages
    secrets: [BOT_API_KEY]          # what it expects; the user allows it: -M allow_env=BOT_API_KEY
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
string: url, headers, body), and only for a ``NAME`` the *user* allowed: on the command line
(``-M allow_env=NAME[,NAME...]``) or by naming the variable with the prefix
:data:`ALLOWED_ENV_PREFIX` (``TRUSTMH_HTTP_``). A config file comes from a stranger as often
as not: alone it can never choose which variables of the environment (an OpenAI key, a cloud
token) are sent to its host. ``secrets:`` in the file only lists what it expects; it allows
nothing. Any other ``${...}`` is an error. Secrets go to one host: a ``session.url`` on another
host than ``url`` is refused while the file reads any. Their values are kept in memory only
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

from trustmh.core.errors import DataFormatError, UserError
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
# Variables named so were set for trustmh/http by the user: a config may read them unasked.
ALLOWED_ENV_PREFIX = "TRUSTMH_HTTP_"
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
    secrets: list[str] = Field(
        default_factory=list, description="the environment variables the file expects (allows none)"
    )
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
        """The values the ``${NAME}`` references resolved to, longest first (for redaction)."""
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


def allowed_env_names(allow_env: object, where: str = "-M allow_env") -> frozenset[str]:
    """The variable names the user allowed (``-M allow_env=A,B``: a comma-separated string or a
    list), each checked to be a name (a value pasted there by mistake is not echoed)."""
    if allow_env is None or allow_env == "":
        return frozenset()
    items = allow_env if isinstance(allow_env, list | tuple) else str(allow_env).split(",")
    names = [str(item).strip() for item in items if str(item).strip()]
    for name in names:
        if not _ENV_NAME.fullmatch(name):
            raise UserError(f"{where}: expected environment variable names (letters, digits, _) separated by commas")
    return frozenset(names)


def is_allowed(name: str, allowed: frozenset[str]) -> bool:
    """May a config read ``${name}``? Only if the user allowed it (see the module docstring)."""
    return name in allowed or (name.startswith(ALLOWED_ENV_PREFIX) and len(name) > len(ALLOWED_ENV_PREFIX))


def _not_allowed(name: str) -> str:
    return (
        f"${{{name}}} is not allowed: a config file cannot choose which environment variables are sent "
        f"to its host; allow it with -M allow_env={name} or name the variable {ALLOWED_ENV_PREFIX}..."
    )


def _resolve_env(value: Any, field: str, path: Path, allowed: frozenset[str], secrets: list[str]) -> Any:
    """``${NAME}`` → the environment variable's value, for an allowed ``NAME`` only (recorded in ``secrets``)."""
    if isinstance(value, str):

        def substitute(match: re.Match[str]) -> str:
            name = match.group(1)
            if not _ENV_NAME.fullmatch(name):
                shown = match.group(0) if len(match.group(0)) <= 40 else match.group(0)[:40] + "…"
                raise DataFormatError(path, f"field {field!r}", f"{shown} is not a ${{NAME}} reference")
            if not is_allowed(name, allowed):
                raise DataFormatError(path, f"field {field!r}", _not_allowed(name))
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
            resolved[key] = _resolve_env(item, where, path, allowed, secrets)
        return resolved
    if isinstance(value, list):
        return [
            _resolve_env(item, f"{field}.{index}".lstrip("."), path, allowed, secrets)
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
    """Secrets travel in every request's headers: both requests must go to one host."""
    if config.session is None or not config.secret_values or written.session is None:
        return
    if _origin(config.session.url) != _origin(config.url):
        raise DataFormatError(
            path,
            "field 'session.url'",
            f"{written.session.url.split('?')[0]} is not on the host of url {written.url.split('?')[0]}; "
            "the secrets the file reads would be sent to both (put both on one host)",
        )


def load_config(path: str | Path, allow_env: object = None) -> HttpConfig:
    """Read and check a config file; a mistake is one line naming the file and field.
    ``allow_env``: the environment variables the user allows it to read (``-M allow_env``)."""
    path = Path(path)
    allowed = allowed_env_names(allow_env)
    raw = read_yaml_mapping(path, "expected a YAML or JSON mapping (url, headers, body, reply)")
    written = _validated(raw, path, expanded=False)
    _check_templates(written, path)
    secrets: list[str] = []
    resolved = {
        key: value if key == "secrets" else _resolve_env(value, key, path, allowed, secrets)
        for key, value in raw.items()
    }
    config = _validated(resolved, path, expanded=True)
    config._secret_values = tuple(sorted(set(secrets), key=len, reverse=True))
    _check_one_host(config, written, path)
    return config
