"""The turn store: a killed conversation resumes without requesting a completed turn again.

inspect does not persist a sample until it finishes and restarts an unfinished one from its
start. So every model call of a conversation (the model under test and the simulated user) is
written here when it returns, and a restarted conversation finds its completed calls here and
replays them (a ``ModelEvent`` with ``cache="read"`` in the transcript, as inspect's own cache
writes) instead of calling the model.

A call's key is a hash of who is asked (role, model, base URL, its model arguments ``-M`` with
the content of any file they name, e.g. a chatbot's config, and the generate settings that can
change an answer, as inspect's cache key sees them), of the sample, epoch and log folder, and of
the conversation so far. (Without the model arguments, chatbot B run into the folder of chatbot A
got A's answers replayed and was never called: issue 25.) The conversation part is incremental (:class:`CallKey`): one hash update
per message, not a serialisation of the whole transcript per call. Entries expire after a week,
like inspect's cache, which the first version used: its per-call cost (path checks, folder
creation, trace lines and one pickle file per call) was +12% CPU per turn on
``benchmarks/conversation_bench.py``; here it is one indexed lookup and, for a new answer, one
small SQLite commit.

Durability: one connection per process, WAL, ``synchronous=NORMAL``: a committed turn survives
a killed process (it reaches the OS on commit); only an OS crash can lose the last commits,
which then re-pays those turns. Each answer is committed before the conversation goes on, so a
kill loses nothing that had completed. A store that cannot be opened or written is a warning,
not an error: the run goes on, it just cannot skip turns on resume.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from inspect_ai.event import ModelEvent
from inspect_ai.model import ChatMessage, GenerateConfig, Model, ModelOutput

from trustmh.bulk.cache import create_private
from trustmh.core.inspect_compat import cache_key_config, record_event, resolved_generate_config, sample_active
from trustmh.data.registry import cache_dir

logger = logging.getLogger(__name__)

FILE_NAME = "conversation_turns.sqlite"
EXPIRY_SECONDS = 7 * 24 * 3600  # inspect's default cache expiry ("1W")
_SCHEMA = "CREATE TABLE IF NOT EXISTS turns (key TEXT PRIMARY KEY, output TEXT NOT NULL, created REAL NOT NULL)"


class TurnStore:
    """Model outputs by call key, in one SQLite file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        create_private(path)
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA busy_timeout=30000")  # another trustmh process may be writing
        self._db.execute(_SCHEMA)
        self._db.execute("DELETE FROM turns WHERE created < ?", (time.time() - EXPIRY_SECONDS,))

    def get(self, key: str) -> ModelOutput | None:
        row = self._db.execute(
            "SELECT output FROM turns WHERE key = ? AND created >= ?", (key, time.time() - EXPIRY_SECONDS)
        ).fetchone()
        if row is None:
            return None
        try:
            return ModelOutput.model_validate_json(row[0])
        except ValueError as error:  # pydantic's ValidationError: a row corrupted on disk or by hand
            # One bad row costs its one call again, not every resume of the run (issue 25).
            reason = " ".join(str(error).split())[:120]
            logger.warning(f"{self.path}: turn {key[:12]}… is corrupt and is asked again ({reason})")
            self._db.execute("DELETE FROM turns WHERE key = ?", (key,))
            return None

    def put(self, key: str, output: ModelOutput) -> None:
        """Write and commit one output (autocommit: it is durable when this returns)."""
        self._db.execute("INSERT OR REPLACE INTO turns VALUES (?, ?, ?)", (key, output.model_dump_json(), time.time()))

    def count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM turns").fetchone()[0])

    def close(self) -> None:
        self._db.close()


_open: list[tuple[Path, TurnStore | None]] = []  # the store of this process (at most one)
_lock = threading.Lock()


def turn_store() -> TurnStore | None:
    """This process's store under trustmh's cache folder, or ``None`` (warned once) when unusable.

    One connection per process; if the cache folder changes (tests), the old one is closed.
    """
    path = cache_dir() / FILE_NAME
    with _lock:
        if _open and _open[0][0] == path:
            return _open[0][1]
        for _, old in _open:
            if old is not None:
                old.close()
        _open.clear()
        store: TurnStore | None
        try:
            store = TurnStore(path)
        except (sqlite3.Error, OSError) as error:
            logger.warning(f"{path}: conversation turns are not stored ({error}); a resumed run repeats them")
            store = None
        _open.append((path, store))
        return store


class CallKey:
    """The incremental key of one party's calls in one conversation.

    ``identity`` (who is asked, with what settings, in which sample) is hashed once; each message
    is then added as it is appended to the conversation, and :meth:`key` is the digest so far.
    Every part is length-prefixed, so no two different conversations hash the same bytes.
    """

    def __init__(self, *identity: str) -> None:
        self._hash = hashlib.sha256()
        for part in identity:
            self._feed(part)

    def _feed(self, text: str) -> None:
        data = text.encode("utf-8")
        self._hash.update(len(data).to_bytes(8, "big"))
        self._hash.update(data)

    def add(self, role: str, text: str) -> None:
        self._feed(role)
        self._feed(text)

    def key(self) -> str:
        return self._hash.copy().hexdigest()


def log_folder() -> str:
    """The folder the running sample's log is written to ('' outside a sample).

    Part of every key: a resumed run writes to the same folder and finds its turns, while a run
    into another folder (a fresh evaluation of the same model) holds its conversations anew
    instead of replaying last week's.
    """
    active = sample_active()
    location = str(active.log_location) if active is not None and active.log_location else ""
    return location.replace("\\", "/").rpartition("/")[0]


def call_identity(party: str, model: Model, config: GenerateConfig, sample_id: object, epoch: int) -> tuple[str, ...]:
    """What, besides the conversation, decides a call's answer: the party, the model and where it is
    served, the settings it would be called with (runtime knobs such as timeouts left out), the sample,
    and the log folder (:func:`log_folder`)."""
    settings = cache_key_config(resolved_generate_config(model, config))
    identity = (party, str(model), str(model.api.base_url), repr(sorted(settings.items())), str(sample_id), str(epoch))
    return (*identity, log_folder(), model_args_identity(getattr(model, "model_args", None) or {}))


def model_args_identity(model_args: Mapping[str, Any]) -> str:
    """The model arguments as text, each naming a file followed by the sha256 of its content.

    Only hashed into keys, never stored or shown (an argument may be an API key)."""
    parts = []
    for name in sorted(model_args):
        value = model_args[name]
        text = json.dumps(value, sort_keys=True, default=str)
        if isinstance(value, (str, Path)) and str(value) and len(str(value)) < 4096:
            try:
                path = Path(value).expanduser()
                if path.is_file():
                    text += "#" + hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError:
                pass  # not a readable file: the value itself is the identity
        parts.append(f"{name}={text}")
    return "\n".join(parts)


def replay(model: Model, messages: list[ChatMessage], config: GenerateConfig, output: ModelOutput) -> None:
    """Put a stored answer in the transcript as inspect does a cache hit: a model event read from cache."""
    record_event(
        ModelEvent(
            model=str(model),
            role=model.role,
            input=list(messages),
            tools=[],
            tool_choice="none",
            config=resolved_generate_config(model, config),
            output=output,
            cache="read",
        )
    )
