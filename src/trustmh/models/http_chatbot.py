"""``trustmh/http``: a deployed chatbot behind an HTTP API, configured by a small file.

Two ways to talk, chosen by the config (:mod:`trustmh.models.http_config`):

* **stateless** — each model call is one request whose body carries the conversation
  (``{{messages}}``), as an OpenAI-style endpoint expects;
* **session-based** — the product keeps the conversation itself. Each conversation (one
  sample and epoch) gets its own session (created by the ``session`` request, or a random
  ``{{session_id}}``); a model call sends only the *new* user turns, one request each, and
  the reply to the last one is the output. When a call's user turns do not extend what the
  session has already been sent (another question within the same sample), a new session
  starts and every user turn is sent in order. The product therefore sees its own earlier
  replies, never the assistant turns of the task's scripted history.

Each exchange is bounded: connecting within ``connect_timeout``, the whole reply (to its last
byte, however slowly it trickles) within ``timeout``, and at most ``max_response_bytes`` of it
after decompression (:mod:`trustmh.models.http_body`).

Failures that may pass (transport errors, timeouts, HTTP 408/425/429/5xx, a body that is not
JSON) are retried by inspect's retry loop, bounded by ``--max-retries`` / ``--timeout`` /
``--attempt-timeout`` as for any API model; a session call that failed part-way resumes
from the first turn not yet answered. Every error is redacted of the config's ``${ENV}``
secrets, and so is a reply that echoes one.

Token usage: taken from the reply where the config names its paths (``usage``), else
*estimated* as characters / 4 of the text sent and received, and the output's metadata says
``usage_estimated: true`` (inspect would otherwise count with tiktoken, which downloads an
encoding and fails offline).
"""

from __future__ import annotations

import asyncio
import json
import math
import uuid
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

import httpx
from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput, ModelUsage

from trustmh.core.errors import REDACTED, redact
from trustmh.models.http_body import ACCEPT_ENCODING, BodyError, read_bounded
from trustmh.models.http_config import HttpConfig, JsonPathError, json_path, render

RETRY_STATUSES = frozenset({408, 425, 429, 500, 502, 503, 504})
CHARS_PER_TOKEN = 4  # the usual rule of thumb for English text; stated as an estimate in the output
MAX_CONVERSATIONS = 10_000  # sessions remembered at once (least recently used dropped first)


class HttpChatbotError(Exception):
    """A failed request to the chatbot; ``retry`` says whether it may pass on its own."""

    def __init__(self, message: str, retry: bool, status: int | None = None, retry_after: float | None = None):
        super().__init__(message)
        self.retry = retry
        self.status = status
        self.retry_after = retry_after


@dataclass
class Reply:
    """A finished exchange: the response (status, headers) and its body, read in full."""

    response: httpx.Response
    body: bytes

    @property
    def text(self) -> str:
        try:
            return self.body.decode(self.response.charset_encoding or "utf-8", errors="replace")
        except LookupError:  # a charset Python does not know
            return self.body.decode("utf-8", errors="replace")


@dataclass
class Conversation:
    conversation_id: str
    session_id: str | None = None
    sent: list[str] = field(default_factory=list)  # user turns this session has answered
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


def _chat(messages: list[ChatMessage]) -> list[dict[str, str]]:
    return [{"role": m.role if m.role != "tool" else "user", "content": m.text} for m in messages]


def _conversation_key() -> str | None:
    from trustmh.core.inspect_compat import sample_active

    active = sample_active()
    if active is None:
        return None
    return f"{getattr(active, 'sample_uuid', None) or active.id}:{active.epoch}"


def _estimate_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def _retry_after(response: httpx.Response) -> float | None:
    try:
        return float(response.headers.get("Retry-After", ""))
    except ValueError:
        return None


class HttpChatbot:
    """Sends a task's model calls to the configured endpoint (see module docstring)."""

    def __init__(self, config: HttpConfig, model_name: str, source: str | None = None) -> None:
        self.config = config
        self.model_name = model_name
        self.source = source  # the config file, named in a config error
        self.conversations: OrderedDict[str, Conversation] = OrderedDict()
        self._client: httpx.AsyncClient | None = None
        self._client_loop: asyncio.AbstractEventLoop | None = None
        self._replied = False  # a reply has matched the config's reply path

    def _stop_on_config_error(self, problem: str) -> None:
        """The endpoint's first reply does not fit the config: every call would fail the same
        way, so the run stops at once and ends with this one line (exit 2), instead of every
        sample failing with a traceback (issue 30)."""
        from trustmh.core.run_stop import stop_run

        where = f"{self.source}: " if self.source else ""
        stop_run(
            f"http config {self.model_name}",
            f"{where}{problem} in the endpoint's reply; fix the config's `reply` path "
            "(trustmh/http docs: docs/http.md)",
        )

    def endpoints(self) -> list[str]:
        """The URLs this chatbot is sent to (templates whose host is not a ``{{variable}}``), for a
        reachability check before the run: a dead URL is then one line within seconds, not a
        whole retry budget of connection errors."""
        templates = [self.config.url] + ([self.config.session.url] if self.config.session else [])
        return [url for url in dict.fromkeys(templates) if "{{" not in url.split("/")[2]]

    # --- transport -------------------------------------------------------------------------
    def _redact(self, text: str) -> str:
        return redact(text, extra=self.config.secret_values)

    def _scrub_reply(self, text: str) -> str:
        """A reply that echoes a secret loses it (and only it: the rest is the model's text)."""
        for secret in self.config.secret_values:
            text = text.replace(secret, REDACTED)
        return text

    def _http(self) -> httpx.AsyncClient:
        loop = asyncio.get_running_loop()
        if self._client is None or self._client_loop is not loop:
            timeout = httpx.Timeout(self.config.timeout, connect=min(self.config.connect_timeout, self.config.timeout))
            self._client = httpx.AsyncClient(timeout=timeout, follow_redirects=False)
            self._client_loop = loop
        return self._client

    async def _exchange(self, method: str, url: str, headers: dict[str, str], body: Any) -> Reply:
        """One request and its whole reply, read with the size bound (:mod:`trustmh.models.http_body`)."""
        headers = {"Accept-Encoding": ACCEPT_ENCODING, **headers}
        json_body = body if method != "GET" else None
        async with self._http().stream(method, url, headers=headers, json=json_body) as response:
            return Reply(response, await read_bounded(response, self.config.max_response_bytes))

    async def _request(self, method: str, url_template: str, body_template: Any, variables: dict[str, Any]) -> Any:
        url = render(url_template, variables)
        headers = render(self.config.headers, variables)
        body = render(body_template, variables)
        shown = self._redact(url.split("?")[0])
        timeout = self.config.timeout
        try:
            # httpx's read timeout is per chunk: a server trickling a byte a second never trips it.
            # The whole exchange, from connecting to the last byte, gets the configured time.
            reply = await asyncio.wait_for(self._exchange(method, url, headers, body), timeout)
        except httpx.ConnectTimeout:
            raise HttpChatbotError(
                f"{shown}: no connection within {self.config.connect_timeout:g} s", retry=True
            ) from None
        except (TimeoutError, httpx.TimeoutException):
            raise HttpChatbotError(f"{shown}: no complete reply within {timeout:g} s", retry=True) from None
        except httpx.TransportError as error:
            raise HttpChatbotError(f"{shown}: {type(error).__name__}: {self._redact(str(error))}", retry=True) from None
        except BodyError as error:
            raise HttpChatbotError(f"{shown}: {error}", retry=False) from None
        response, text = reply.response, reply.text
        if response.status_code >= 400:
            raise HttpChatbotError(
                f"{shown}: HTTP {response.status_code}: {self._snippet(text)}",
                retry=response.status_code in RETRY_STATUSES,
                status=response.status_code,
                retry_after=_retry_after(response),
            )
        if 300 <= response.status_code < 400:  # redirects are not followed: a key must not travel elsewhere
            where = self._redact(response.headers.get("location", "nowhere"))
            raise HttpChatbotError(
                f"{shown}: HTTP {response.status_code} redirect to {where}; redirects are not followed, "
                "put the final URL in the config",
                retry=False,
                status=response.status_code,
            )
        try:
            return json.loads(reply.body)
        except ValueError:
            kind = response.headers.get("content-type", "no content type").split(";")[0]
            raise HttpChatbotError(
                f"{shown}: the reply is not JSON ({kind}: {self._snippet(text, 80)})", retry=False
            ) from None

    def _snippet(self, body: str, length: int = 200) -> str:
        """The start of a body for an error line: secrets redacted *before* it is cut (a key straddling
        the cut would otherwise show its first characters)."""
        head = " ".join(body[: length + 8192].split())
        shown = self._redact(head)
        return shown[:length] + ("…" if len(shown) > length else "")

    def should_retry(self, error: Exception) -> bool | Any:
        from trustmh.core.inspect_compat import RetryDecision

        if not isinstance(error, HttpChatbotError) or not error.retry:
            return RetryDecision.no()
        if error.status == 429:
            return RetryDecision.rate_limit(error.retry_after)
        return RetryDecision.transient(error.retry_after)

    # --- conversations ---------------------------------------------------------------------
    def _conversation(self, key: str | None) -> Conversation:
        if key is None:  # outside a sample: every call is its own conversation
            return Conversation(conversation_id=uuid.uuid4().hex)
        conversation = self.conversations.get(key)
        if conversation is None:
            conversation = Conversation(conversation_id=uuid.uuid4().hex)
            self.conversations[key] = conversation
            while len(self.conversations) > MAX_CONVERSATIONS:
                self.conversations.popitem(last=False)
        self.conversations.move_to_end(key)
        return conversation

    async def _open_session(self, conversation: Conversation, variables: dict[str, Any]) -> None:
        conversation.sent = []
        session = self.config.session
        if session is None:
            conversation.session_id = uuid.uuid4().hex
            return
        document = await self._request(session.method, session.url, session.body, variables)
        try:
            session_id = json_path(document, session.id)
        except JsonPathError as error:
            raise HttpChatbotError(f"session: {self._redact(str(error))}", retry=False) from None
        conversation.session_id = str(session_id)

    def _reply(self, document: Any) -> tuple[str, int | None, int | None]:
        try:
            value = json_path(document, self.config.reply)
        except JsonPathError as error:
            problem = self._redact(str(error))
            if not self._replied:
                self._stop_on_config_error(f"field 'reply': {problem}")
            raise HttpChatbotError(problem, retry=False) from None
        path = self.config.reply
        if value is None or (isinstance(value, str) and not value.strip()):
            what = "null" if value is None else "an empty string"
            raise HttpChatbotError(f"reply path {path!r} holds {what}: the chatbot gave no answer", retry=True)
        if not isinstance(value, str):  # a dict, a list, a number: the path points at the wrong place
            kind = (
                "an object"
                if isinstance(value, dict)
                else "a list"
                if isinstance(value, list)
                else type(value).__name__
            )
            problem = f"reply path {path!r} holds {kind}, not text: point 'reply' in the config at the answer's text"
            if not self._replied:
                self._stop_on_config_error(f"field 'reply': {problem}")
            raise HttpChatbotError(problem, retry=False)
        self._replied = True
        text = value
        usage = self.config.usage
        tokens_in = tokens_out = None
        if usage is not None:
            tokens_in = self._int_at(document, usage.input_tokens)
            tokens_out = self._int_at(document, usage.output_tokens)
        return self._scrub_reply(text), tokens_in, tokens_out

    @staticmethod
    def _int_at(document: Any, path: str | None) -> int | None:
        if not path:
            return None
        try:
            value = json_path(document, path)
        except JsonPathError:
            return None
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    async def generate(self, input: list[ChatMessage], config: GenerateConfig) -> ModelOutput:
        messages = _chat(input)
        variables: dict[str, Any] = {
            "messages": messages,
            "history": [m for m in messages if m["role"] != "system"],
            "system": "\n\n".join(m["content"] for m in messages if m["role"] == "system"),
            "message": next((m["content"] for m in reversed(messages) if m["role"] == "user"), ""),
            "max_tokens": config.max_tokens,
            "temperature": config.temperature,
        }
        conversation = self._conversation(_conversation_key())
        variables["conversation_id"] = conversation.conversation_id
        if self.config.uses_sessions:
            return await self._session_call(conversation, variables)
        variables["session_id"] = conversation.conversation_id
        document = await self._request(self.config.method, self.config.url, self.config.body, variables)
        reply, tokens_in, tokens_out = self._reply(document)
        sent_text = "".join(m["content"] for m in messages)
        return self._output(reply, tokens_in, tokens_out, sent_text, {"http_requests": 1})

    async def _session_call(self, conversation: Conversation, variables: dict[str, Any]) -> ModelOutput:
        user_turns = [m["content"] for m in variables["messages"] if m["role"] == "user"]
        async with conversation.lock:
            sent = conversation.sent
            continues = conversation.session_id is not None and len(user_turns) > len(sent)
            new_session = not (continues and user_turns[: len(sent)] == sent)
            if new_session:
                await self._open_session(conversation, {**variables, "session_id": None})
            to_send = user_turns[len(conversation.sent) :]
            totals = [0, 0]
            reported = True
            reply = ""
            for text in to_send:
                turn_vars = {**variables, "message": text, "session_id": conversation.session_id}
                document = await self._request(self.config.method, self.config.url, self.config.body, turn_vars)
                reply, tokens_in, tokens_out = self._reply(document)
                conversation.sent.append(text)
                if tokens_in is None or tokens_out is None:
                    reported = False
                else:
                    totals[0] += tokens_in
                    totals[1] += tokens_out
        metadata = {"http_requests": len(to_send), "http_new_session": new_session}
        if reported and to_send:
            return self._output(reply, totals[0], totals[1], "", metadata)
        return self._output(reply, None, None, "".join(to_send), metadata)

    def _output(
        self, reply: str, tokens_in: int | None, tokens_out: int | None, sent_text: str, metadata: dict[str, Any]
    ) -> ModelOutput:
        output = ModelOutput.from_content(model=self.model_name, content=reply)
        estimated = tokens_in is None or tokens_out is None
        if estimated:
            tokens_in, tokens_out = _estimate_tokens(sent_text), _estimate_tokens(reply)
        assert tokens_in is not None and tokens_out is not None
        output.usage = ModelUsage(input_tokens=tokens_in, output_tokens=tokens_out, total_tokens=tokens_in + tokens_out)
        output.metadata = {**metadata, "usage_estimated": estimated}
        return output
