"""``trustmh/http`` config files: ``${NAME}`` reads only the environment variables the *user*
allowed (``-M allow_env=NAME`` or the ``TRUSTMH_HTTP_`` prefix; a ``secrets:`` list in the file
allows nothing), both URLs must be http(s) with a host, secrets go to one host, and YAML
aliases are refused (issue 25, item 5; issue 35, item 8)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.hardening.bad_input.http_chatbot import billion_laughs
from trustmh.core.errors import UserError
from trustmh.models.http_config import load_config

KEY = "undeclared-value-4c1e9a07b2d3"
BODY = "body: {text: '{{message}}'}\nreply: data.reply\n"
HOW = "allow it with -M allow_env=OTHER_TOOL_KEY or name the variable TRUSTMH_HTTP_..."


def _error(tmp_path: Path, text: str, allow_env: object = None) -> str:
    path = tmp_path / "bot.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(UserError) as raised:
        load_config(path, allow_env)
    message = str(raised.value)
    assert "\n" not in message and str(path) in message
    return message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "url: http://bot.test/x\nheaders: {Authorization: 'Bearer ${OTHER_TOOL_KEY}'}\n" + BODY,
            "field 'headers.Authorization': ${OTHER_TOOL_KEY} is not allowed: a config file cannot choose",
        ),
        ("url: 'http://bot.test/x?k=${OTHER_TOOL_KEY}'\n" + BODY, "field 'url': ${OTHER_TOOL_KEY} is not allowed"),
        # the file's own `secrets:` list is no permission (it was, before issue 35)
        (
            "url: http://bot.test/x\nsecrets: [OTHER_TOOL_KEY]\nbody: {t: '${OTHER_TOOL_KEY}'}\nreply: a\n",
            "field 'body.t': ${OTHER_TOOL_KEY} is not allowed",
        ),
        (
            "url: http://bot.test/x\nheaders: {A: '${OTHER_TOOL_KEY:-x}'}\n" + BODY,
            "field 'headers.A': ${OTHER_TOOL_KEY:-x} is not a ${NAME} reference",
        ),
        (
            "url: http://bot.test/x\nheaders: {'${OTHER_TOOL_KEY}': a}\n" + BODY,
            "field 'headers.${OTHER_TOOL_KEY}': ${NAME} is expanded in values only",
        ),
        ("url: http://bot.test/x\nsecrets: ['A-B']\n" + BODY, "field 'secrets': 'A-B' is not an environment"),
    ],
)
def test_a_config_alone_reads_no_environment_variable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str
) -> None:
    monkeypatch.setenv("OTHER_TOOL_KEY", KEY)
    message = _error(tmp_path, text, allow_env="BOT_KEY")  # another name allowed: not this one
    assert expected in message and KEY not in message, message
    if "is not allowed" in expected:
        assert HOW in message, message


@pytest.mark.parametrize("allow_env", ["BOT_KEY", "OTHER,BOT_KEY", ["BOT_KEY"], " BOT_KEY , "])
def test_a_variable_the_user_allowed_is_read_and_kept_out_of_the_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, allow_env: object
) -> None:
    monkeypatch.setenv("BOT_KEY", KEY)
    path = tmp_path / "bot.yaml"
    path.write_text("url: http://bot.test/x\nheaders: {K: '${BOT_KEY}'}\n" + BODY)
    config = load_config(path, allow_env)
    assert config.headers == {"K": KEY} and config.secret_values == (KEY,)
    assert KEY not in str(config.model_dump(exclude={"headers"}))


def test_the_trustmh_http_prefix_is_allowed_without_asking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    path = tmp_path / "bot.yaml"
    path.write_text("url: http://bot.test/x\nheaders: {K: 'Bearer ${TRUSTMH_HTTP_BOT_KEY}'}\n" + BODY)
    assert load_config(path).headers == {"K": f"Bearer {KEY}"}
    path.write_text("url: http://bot.test/x\nheaders: {K: '${TRUSTMH_HTTP_}'}\n" + BODY)
    monkeypatch.setenv("TRUSTMH_HTTP_", KEY)
    assert "is not allowed" in _error(tmp_path, path.read_text())  # the bare prefix names nothing


@pytest.mark.parametrize("allow_env", ["BOT-KEY", "sk-live-abc123,BOT_KEY", ["A B"]])
def test_allow_env_takes_names_only_and_never_echoes_the_value(tmp_path: Path, allow_env: object) -> None:
    path = tmp_path / "bot.yaml"
    path.write_text("url: http://bot.test/x\n" + BODY, encoding="utf-8")
    with pytest.raises(UserError) as raised:
        load_config(path, allow_env)
    message = str(raised.value)
    assert message.startswith("-M allow_env: expected environment variable names"), message
    assert "sk-live" not in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("url: http://bot.test/x\n" + BODY + "session: {url: 'ftp://bot.test/s', id: id}\n", "field 'session.url'"),
        ("url: 'file:///etc/passwd'\n" + BODY, "field 'url': expected an http:// or https:// URL"),
        ("url: 'http:///x'\n" + BODY, "field 'url': expected a host after http:// or https://"),
        (
            "url: https://bot.test/x\nheaders: {K: '${TRUSTMH_HTTP_BOT_KEY}'}\n"
            + BODY
            + "session: {url: 'https://elsewhere.test/s', id: id}\n",
            "field 'session.url': https://elsewhere.test/s is not on the host of url https://bot.test/x",
        ),
    ],
)
def test_urls_are_http_with_a_host_and_secrets_go_to_one_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: str, expected: str
) -> None:
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    message = _error(tmp_path, text)
    assert expected in message and KEY not in message, message


@pytest.mark.parametrize(
    "text", ["url: http://bot.test/x\nreply: a\nbody: {x: &b {t: '{{message}}'}, y: *b}\n", billion_laughs(5, 5)]
)
def test_yaml_aliases_are_refused_with_one_line(tmp_path: Path, text: str) -> None:
    message = _error(tmp_path, text)
    assert "line " in message and "aliases (*name) are not accepted" in message, message
