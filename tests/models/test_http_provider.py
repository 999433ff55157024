"""``trustmh/http``: config checks, stateless and session-based calls, retries, secrets."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path

import pytest
from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageUser, GenerateConfig, get_model

from tests.doubles.chatbot_double import ChatbotDouble
from tests.doubles.openai_double import OpenAIDouble
from trustmh.core.errors import REDACTED, UserError
from trustmh.models.http_chatbot import HttpChatbot, HttpChatbotError
from trustmh.models.http_config import json_path, load_config, render

KEY = "bot-key-5e1f0c9a7d3b"

SESSION_CONFIG = """\
url: "{base}/api/sessions/{{{{session_id}}}}/messages"
secrets: [TRUSTMH_HTTP_BOT_KEY]
headers:
  X-Api-Key: "${{TRUSTMH_HTTP_BOT_KEY}}"
body:
  text: "{{{{message}}}}"
reply: data.reply.text
usage:
  input_tokens: usage.in
  output_tokens: usage.out
session:
  url: "{base}/api/sessions"
  body: {{}}
  id: data.id
"""

OPENAI_STYLE_CONFIG = """\
url: "{base}/chat/completions"
secrets: [TRUSTMH_HTTP_BOT_KEY]
headers:
  Authorization: "Bearer ${{TRUSTMH_HTTP_BOT_KEY}}"
body:
  model: my-bot
  messages: "{{{{messages}}}}"
  max_tokens: "{{{{max_tokens}}}}"
reply: choices.0.message.content
"""


def write_config(tmp_path: Path, template: str, base: str) -> Path:
    path = tmp_path / "bot.yaml"
    path.write_text(template.format(base=base))
    return path


def test_render_whole_placeholder_keeps_json_type_and_inline_becomes_text():
    variables = {"messages": [{"role": "user", "content": "hi"}], "max_tokens": 5, "message": "hi"}
    body = render({"m": "{{messages}}", "n": "{{ max_tokens }}", "t": "say: {{message}}", "k": [1]}, variables)
    assert body == {"m": [{"role": "user", "content": "hi"}], "n": 5, "t": "say: hi", "k": [1]}


def test_json_path_walks_lists_and_names_what_it_found():
    document = {"choices": [{"message": {"content": "ok"}}]}
    assert json_path(document, "$.choices.0.message.content") == "ok"
    with pytest.raises(LookupError, match=r"no 'text' at choices.0.message \(found \['content'\]\)"):
        json_path(document, "choices.0.message.text")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("url: ftp://x\nbody: {}\nreply: a\n", "field 'url': expected an http:// or https:// URL"),
        ("url: http://x\nbody: {}\n", "field 'reply': Field required"),
        ("url: http://x\nbody: {t: '{{prompt}}'}\nreply: a\n", "field 'body': unknown variable {{prompt}}"),
        ("url: http://x\nbody: {}\nreply: a\nretries: 3\n", "field 'retries': Extra inputs are not permitted"),
        (
            "url: http://x\nsecrets: [TRUSTMH_HTTP_NOT_SET_ANYWHERE]\nheaders: {A: '${TRUSTMH_HTTP_NOT_SET_ANYWHERE}'}\nbody: {}\nreply: a\n",
            "TRUSTMH_HTTP_NOT_SET_ANYWHERE is not set",
        ),
        ("url: [unclosed\n", ":line 2: invalid YAML or JSON"),
        ("- a list\n", "expected a YAML or JSON mapping"),
    ],
)
def test_bad_config_is_one_line_naming_file_and_field(tmp_path, text, expected):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(UserError) as error:
        load_config(path)
    assert str(path) in str(error.value) and expected in str(error.value), str(error.value)


def test_provider_requires_config():
    with pytest.raises(UserError, match="config=FILE"):
        get_model("trustmh/http/none-given", memoize=False)


def test_openai_style_endpoint_gets_history_and_key(tmp_path, monkeypatch):
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    with OpenAIDouble() as double:
        path = write_config(tmp_path, OPENAI_STYLE_CONFIG, double.base_url)
        model = get_model("trustmh/http/style", http_config=str(path), memoize=False)
        messages = [ChatMessageSystem(content="Be kind."), ChatMessageUser(content="I feel low today")]
        output = asyncio.run(model.generate(messages, config=GenerateConfig(max_tokens=32)))
        headers = double.state.headers_seen
    assert output.completion == "I hear you. You said: I feel low today"
    assert headers[0]["Authorization"] == f"Bearer {KEY}"
    # no usage paths configured: estimated, and said so
    assert output.metadata["usage_estimated"] is True
    assert output.usage.input_tokens == math.ceil(len("Be kind.I feel low today") / 4)


def _chatbot(tmp_path: Path, base: str) -> HttpChatbot:
    return HttpChatbot(load_config(write_config(tmp_path, SESSION_CONFIG, base)), "http/bot")


def test_session_sends_only_new_user_turns_and_restarts_on_a_new_question(tmp_path, monkeypatch):
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    key = "sample-1:1"
    monkeypatch.setattr("trustmh.models.http_chatbot._conversation_key", lambda: key)
    with ChatbotDouble(api_key=KEY) as bot:
        chatbot = _chatbot(tmp_path, bot.base_url)

        async def conversation() -> list:
            first = [ChatMessageSystem(content="sys"), ChatMessageUser(content="u1")]
            second = [*first, ChatMessageAssistant(content="scripted reply"), ChatMessageUser(content="u2")]
            other = [ChatMessageUser(content="a different question")]
            return [await chatbot.generate(m, GenerateConfig()) for m in (first, second, other)]

        outputs = asyncio.run(conversation())
        sessions = bot.sessions
    assert sessions == {"s-1": ["u1", "u2"], "s-2": ["a different question"]}
    assert [o.metadata["http_new_session"] for o in outputs] == [True, False, True]
    assert outputs[1].completion == "I hear you. You said: u2"
    assert outputs[1].metadata["usage_estimated"] is False and outputs[1].usage.input_tokens == 1


def test_session_retry_resumes_and_errors_are_classified(tmp_path, monkeypatch):
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    monkeypatch.setattr("trustmh.models.http_chatbot._conversation_key", lambda: "s")
    with ChatbotDouble(api_key=KEY, fail_first=1) as bot:
        chatbot = _chatbot(tmp_path, bot.base_url)
        messages = [ChatMessageUser(content="u1")]
        with pytest.raises(HttpChatbotError) as error:
            asyncio.run(chatbot.generate(messages, GenerateConfig()))
        assert error.value.status == 503 and chatbot.should_retry(error.value)
        output = asyncio.run(chatbot.generate(messages, GenerateConfig()))  # what inspect's retry does
        sessions = bot.sessions
    assert output.completion.endswith("u1")
    assert sessions == {"s-1": ["u1"]}  # the retry continued the session, no second one opened


def test_refused_key_is_not_retried_and_never_shown(tmp_path, monkeypatch):
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    with ChatbotDouble(api_key="another-key", echo_key=True) as bot:
        chatbot = _chatbot(tmp_path, bot.base_url)
        with pytest.raises(HttpChatbotError) as error:
            asyncio.run(chatbot.generate([ChatMessageUser(content="hi")], GenerateConfig()))
    assert error.value.status == 401 and not chatbot.should_retry(error.value)
    assert KEY not in str(error.value) and REDACTED in str(error.value)


def test_reply_echoing_the_key_is_scrubbed(tmp_path, monkeypatch):
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    with ChatbotDouble(api_key=KEY, echo_key=True) as bot:
        chatbot = _chatbot(tmp_path, bot.base_url)
        output = asyncio.run(chatbot.generate([ChatMessageUser(content="hi")], GenerateConfig()))
    assert KEY not in output.completion and f"(your key: {REDACTED})" in output.completion


def test_unreachable_endpoint_is_retryable(tmp_path, monkeypatch):
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    chatbot = _chatbot(tmp_path, "http://127.0.0.1:9")
    with pytest.raises(HttpChatbotError) as error:
        asyncio.run(chatbot.generate([ChatMessageUser(content="hi")], GenerateConfig()))
    assert chatbot.should_retry(error.value)


def test_config_secrets_are_not_in_the_models_args(tmp_path, monkeypatch):
    monkeypatch.setenv("TRUSTMH_HTTP_BOT_KEY", KEY)
    config = load_config(write_config(tmp_path, SESSION_CONFIG, "http://127.0.0.1:1"))
    assert config.secret_values == (KEY,)
    assert KEY not in json.dumps(config.model_dump(exclude={"headers"}))
