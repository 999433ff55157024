"""Reading a chatbot's reply body with a bound on its size, counted after decompression.

httpx decompresses a ``Content-Encoding: gzip`` body as it reads it, a chunk at a time and
without limit: a 100 KB gzip bomb becomes 100 MB in memory before anyone counts. Here the raw
(still compressed) bytes are read and inflated by us with ``max_length``, so no more than the
bound (plus one byte, to know it was crossed) is ever produced, and the read stops there.
The time bound is the caller's (:meth:`trustmh.models.http_chatbot.HttpChatbot._request`).
"""

from __future__ import annotations

import zlib

import httpx

ACCEPT_ENCODING = "gzip, deflate"  # what we can inflate with a bound (no brotli, no zstd)


class BodyError(Exception):
    """The body is larger than allowed or in an encoding we do not read (the message says which)."""


class _Inflater:
    """Raw body bytes in, at most ``room + 1`` decoded bytes out per call."""

    def __init__(self, encoding: str) -> None:
        name = encoding.strip().lower()
        if name in ("", "identity"):
            self._inflate: zlib._Decompress | None = None
        elif name in ("gzip", "x-gzip", "deflate"):
            # 32 + MAX_WBITS: a gzip or zlib header, detected (servers label deflate either way)
            self._inflate = zlib.decompressobj(32 + zlib.MAX_WBITS)
        else:
            raise BodyError(f"the reply is compressed as {encoding!r}, which trustmh does not read (it asks for gzip)")

    def feed(self, data: bytes, room: int) -> bytes:
        if self._inflate is None:
            return data[: room + 1]
        try:
            return self._inflate.decompress(data, room + 1)
        except zlib.error as error:
            raise BodyError(f"the reply's compressed body is corrupt ({error})") from None

    def finish(self, room: int) -> bytes:
        return self._inflate.flush(room + 1) if self._inflate is not None else b""


async def read_bounded(response: httpx.Response, max_bytes: int) -> bytes:
    """The decoded body of a streamed ``response``; :class:`BodyError` once it passes ``max_bytes``."""
    inflater = _Inflater(response.headers.get("content-encoding", ""))
    parts: list[bytes] = []
    size = 0
    async for chunk in response.aiter_raw():
        size = _keep(parts, inflater.feed(chunk, max_bytes - size), size, max_bytes)
    _keep(parts, inflater.finish(max_bytes - size), size, max_bytes)
    return b"".join(parts)


def _keep(parts: list[bytes], decoded: bytes, size: int, max_bytes: int) -> int:
    size += len(decoded)
    if size > max_bytes:
        raise BodyError(f"the reply is larger than {max_bytes:,} bytes (max_response_bytes in the config)")
    parts.append(decoded)
    return size
