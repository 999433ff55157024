"""The configuration file of ``trustmh/http``: how to talk to a deployed chatbot.

A small YAML (or JSON) file, e.g. for a session-based product::

    url: https://bot.example.org/api/sessions/{{session_id}}/messages
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
string: url, headers, body); such values are secrets, kept in memory only and redacted from
every error. ``{{name}}`` is replaced per request by a request variable (:data:`VARIABLES`):
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

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from trustmh.core.errors import DataFormatError
from trustmh.data.readers import read_text

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
_ENV = re.compile(r"\$\{(\w+)\}")


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


class HttpConfig(BaseModel):
    """One chatbot endpoint (see the module docstring)."""

    model_config = ConfigDict(extra="forbid")
    url: str
    method: Literal["POST", "PUT"] = "POST"
    headers: dict[str, str] = Field(default_factory=dict)
    body: Any
    reply: str
    usage: UsagePaths | None = None
    session: SessionConfig | None = None
    timeout: float = Field(default=120.0, gt=0, description="seconds one HTTP request may take")
    max_connections: int = Field(default=8, ge=1, description="concurrent conversations")
    # Resolved ${ENV} values: secrets, never written anywhere (filled by load_config).
    secrets: tuple[str, ...] = Field(default=(), exclude=True)

    @field_validator("url")
    @classmethod
    def _http_url(cls, url: str) -> str:
        if not url.startswith(("http://", "https://")):
            raise ValueError("expected an http:// or https:// URL")
        return url

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


def _resolve_env(value: Any, field: str, path: Path, secrets: list[str]) -> Any:
    """``${NAME}`` → the environment variable's value (recorded in ``secrets``)."""
    if isinstance(value, str):

        def substitute(match: re.Match[str]) -> str:
            name = match.group(1)
            if name not in os.environ:
                raise DataFormatError(path, f"field {field!r}", f"environment variable {name} is not set")
            if os.environ[name]:
                secrets.append(os.environ[name])
            return os.environ[name]

        return _ENV.sub(substitute, value)
    if isinstance(value, dict):
        return {key: _resolve_env(item, f"{field}.{key}".lstrip("."), path, secrets) for key, item in value.items()}
    if isinstance(value, list):
        return [_resolve_env(item, f"{field}.{index}".lstrip("."), path, secrets) for index, item in enumerate(value)]
    return value


def load_config(path: str | Path) -> HttpConfig:
    """Read and check a config file; a mistake is one line naming the file and field."""
    import yaml

    path = Path(path)
    try:
        raw = yaml.safe_load(read_text(path))
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else None
        problem = getattr(error, "problem", None) or "syntax error"
        raise DataFormatError(path, where, f"invalid YAML or JSON ({problem})") from None
    if not isinstance(raw, dict):
        raise DataFormatError(path, None, "expected a YAML or JSON mapping (url, headers, body, reply)")
    try:
        config = HttpConfig.model_validate(raw)
    except ValidationError as error:
        first = error.errors()[0]
        field = ".".join(str(part) for part in first["loc"]) or "(top level)"
        raise DataFormatError(path, f"field {field!r}", first["msg"].removeprefix("Value error, ")) from None
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
    secrets: list[str] = []
    resolved = _resolve_env(raw, "", path, secrets)
    config = HttpConfig.model_validate(resolved)
    return config.model_copy(update={"secrets": tuple(sorted(set(secrets), key=len, reverse=True))})
