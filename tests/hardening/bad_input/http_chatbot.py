"""`trustmh run --model trustmh/http/bot -M config=bot.yaml`: dead or odd endpoints and hostile
config files (issue 25, item 5; issue 35, item 8: only the user allows a variable to be read)."""

from __future__ import annotations

from tests.hardening.hardening_cli import TEST_KEY, Case, Files

BODY = "body: {text: '{{message}}'}\nreply: data.reply\n"
ARGS = ["run", "privacy_psyleak", "--model", "trustmh/http/bot", "-M", "config=bot.yaml"]


def http_case(
    case_id: str, config: str, expected: list[str], env: dict[str, str] | None = None, args: tuple[str, ...] = ()
) -> Case:
    files: Files = {"bot.yaml": config}
    return Case(case_id, [*ARGS, *args, "--log-dir", "logs", "--no-report"], files, expected, ["logs"], env or {})


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    """width ** levels copies of one string in the body, from a few hundred bytes, if aliases were expanded."""
    lines = ["url: http://127.0.0.1:9/chat", "reply: a", "body:", "  a0: &a0 lol"]
    lines += [f"  a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * width)}]" for n in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


DEAD_URL = "http://127.0.0.1:9/chat"  # nothing listens on the discard port
NOWHERE_URL = "http://no-such-host.invalid/chat"

CASES = [
    http_case(
        "http-dead-url",
        f"url: {DEAD_URL}\n" + BODY,
        [f"--model trustmh/http/bot: endpoint {DEAD_URL} is unreachable", "connection refused"],
    ),
    http_case(
        "http-unresolvable-url",
        f"url: {NOWHERE_URL}\n" + BODY,
        [f"endpoint {NOWHERE_URL} is unreachable", "does not resolve"],
    ),
    http_case(  # -M allow_env reaches the config: it is read, and the dead URL is what stops the run
        "http-dead-url-secret-in-path",
        "url: 'http://127.0.0.1:9/bot${BOT_TOKEN}/chat'\nsecrets: [BOT_TOKEN]\n" + BODY,
        ["endpoint http://127.0.0.1:9/bot[REDACTED]/chat is unreachable", "connection refused"],
        {"BOT_TOKEN": TEST_KEY},
        ("-M", "allow_env=BOT_TOKEN"),
    ),
    http_case(
        "http-dead-session-url",
        "url: 'http://127.0.0.1:9/s/{{session_id}}'\n" + BODY + "session: {url: 'http://127.0.0.1:9/s', id: id}\n",
        ["endpoint http://127.0.0.1:9/s/{{session_id}} is unreachable"],
    ),
    http_case(
        "http-url-not-http",
        "url: ftp://bot.test/chat\n" + BODY,
        ["bot.yaml:field 'url'", "expected an http:// or https:// URL, found 'ftp://bot.test/chat'"],
    ),
    http_case(
        "http-session-url-not-http",
        "url: http://bot.test/chat\n" + BODY + "session: {url: 'file:///tmp/s', id: id}\n",
        ["bot.yaml:field 'session.url'", "expected an http:// or https:// URL, found 'file:///tmp/s'"],
    ),
    http_case(
        "http-undeclared-secret",
        "url: http://bot.test/chat\nheaders: {Authorization: 'Bearer ${OPENAI_API_KEY}'}\n" + BODY,
        ["bot.yaml:field 'headers.Authorization'", "${OPENAI_API_KEY} is not allowed", "-M allow_env=OPENAI_API_KEY"],
        {"OPENAI_API_KEY": TEST_KEY},
    ),
    http_case(  # the file's own list allows nothing: only the user does
        "http-secret-declared-by-the-file-only",
        "url: http://bot.test/chat\nsecrets: [OPENAI_API_KEY]\nheaders: {K: 'Bearer ${OPENAI_API_KEY}'}\n" + BODY,
        ["bot.yaml:field 'headers.K'", "${OPENAI_API_KEY} is not allowed", "-M allow_env=OPENAI_API_KEY"],
        {"OPENAI_API_KEY": TEST_KEY},
    ),
    http_case(  # allowing one variable does not allow another
        "http-secret-other-than-allowed",
        "url: http://bot.test/chat\nheaders: {K: '${OPENAI_API_KEY}'}\n" + BODY,
        ["bot.yaml:field 'headers.K'", "${OPENAI_API_KEY} is not allowed"],
        {"OPENAI_API_KEY": TEST_KEY, "BOT_TOKEN": "x"},
        ("-M", "allow_env=BOT_TOKEN"),
    ),
    http_case(
        "http-secret-to-two-hosts",
        "url: http://bot.test/chat\nheaders: {K: '${TRUSTMH_HTTP_BOT_TOKEN}'}\n"
        + BODY
        + "session: {url: 'http://collector.test/s', id: id}\n",
        ["bot.yaml:field 'session.url'", "is not on the host of url"],
        {"TRUSTMH_HTTP_BOT_TOKEN": TEST_KEY},
    ),
    http_case("http-yaml-billion-laughs", billion_laughs(), ["bot.yaml:line 5", "aliases (*name) are not accepted"]),
]
