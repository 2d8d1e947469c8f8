"""What the embed proxy answered, read without trusting it (CONTRACT sections 2 and 5): the body decoded
under a size cap, the JSON, the vectors' shape, a status that is not 200, and why a connection failed, each
as the contract's ``OFFLINE`` or ``EMBED_FAILED`` with a message safe to show. :class:`~.client.EmbedClient`
asks; this reads. No Qt.
"""

from __future__ import annotations

import json
import math
import socket
import zlib
from typing import Any

import httpx
import numpy as np

from ..config import TOKEN_ENV
from ..core.errors import AmicusError, ErrorCode
from ..core.results import ModelInfo
from ..core.text import echo
from .base import Vectors

#: seconds to connect before the proxy counts as unreachable (the message names it).
CONNECT_TIMEOUT = 5.0

#: what a vector's values may be, as JSON decodes them (``bool`` is not: ``true`` is no coordinate)
_NUMBERS = frozenset({int, float})


def offline_error(url: str, why: str) -> AmicusError:
    return AmicusError(
        ErrorCode.OFFLINE,
        f"The embed proxy at {url} cannot be reached ({why}). Start it with "
        "'amicus-desktop proxy' or check the proxy URL in settings.",
        retryable=True,
    )


def embed_failed(url: str, why: str, *, retry_after: float | None = None, retryable: bool = True) -> AmicusError:
    return AmicusError(
        ErrorCode.EMBED_FAILED,
        f"The embed proxy at {url} gave no usable vector: {why}.",
        retryable=retryable,
        retry_after=retry_after,
    )


def short_text(text: object, limit: int = 160) -> str:
    """Outside text in a message: on one line, control characters escaped, at most ``limit`` characters."""
    return echo(" ".join(str(text).split()), limit)


def status_error(url: str, status: int, raw: bytes, retry_after: str | None) -> AmicusError:
    """``EMBED_FAILED`` for an answer that is not 200, with the proxy's own code and message when it gave them."""
    detail = ""
    try:
        parsed = read_json(raw)
    except ValueError:
        parsed = None
    err = parsed.get("error") if isinstance(parsed, dict) else None
    if isinstance(err, dict):
        code, message = err.get("code"), err.get("message")
        if isinstance(code, str) and isinstance(message, str):
            detail = f" {short_text(code, 40)}: {short_text(message)}"
    if status == 401:
        why = f"it refused the token (HTTP 401); set the right token in settings or {TOKEN_ENV}"
    elif status == 429:
        why = "it is rate limiting requests (HTTP 429)"
    else:
        why = f"HTTP {status}"
    seconds = retry_after_seconds(retry_after) if status in (429, 503) else None
    return embed_failed(url, why + (f" —{detail}" if detail else ""), retry_after=seconds)


def parse_embeddings(url: str, body: dict[str, Any], n: int) -> tuple[ModelInfo, Vectors]:
    """The ``n`` vectors of an ``/ai/embed`` answer, in input order, or ``EMBED_FAILED``."""
    try:
        model = body["model"]
        data = body["data"]
        if not isinstance(model, str) or not model:
            raise ValueError("'model' is not a non-empty string")
        if not isinstance(data, list) or len(data) != n or not all(isinstance(d, dict) for d in data):
            raise ValueError(f"'data' does not hold exactly {'one item' if n == 1 else f'{n} items'}")
        rows: list[np.ndarray | None] = [None] * n
        for position, item in enumerate(data):
            index = item.get("index", position)
            bad_index = not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n
            if bad_index or rows[index] is not None:
                raise ValueError(f"item {position} has a missing, repeated or out-of-range 'index'")
            values = item["embedding"]
            if not isinstance(values, list) or not values:
                raise ValueError("'embedding' is not a non-empty list")
            if not set(map(type, values)) <= _NUMBERS:  # in C, not a Python loop: 1,536 values a question
                raise ValueError("'embedding' holds a value that is not a number")
            try:
                row = np.asarray(values, dtype=np.float64)
            except OverflowError:  # an integer literal past float's range
                raise ValueError("'embedding' holds a number too large for a float") from None
            if not np.isfinite(row).all():
                raise ValueError("'embedding' holds NaN or Infinity")
            rows[index] = row
        width = len(data[0]["embedding"])
        if any(row is None or len(row) != width for row in rows):
            raise ValueError("the vectors differ in length")
        dims = body.get("dims", width)
        if not isinstance(dims, int) or isinstance(dims, bool) or dims != width:
            raise ValueError(f"'dims' says {short_text(dims, 20)} but the vector has {width} values")
    except (KeyError, TypeError, ValueError) as exc:
        raise embed_failed(url, f"its answer has the wrong shape ({short_text(exc, 100)})") from None
    with np.errstate(over="ignore"):  # a value past float32's range becomes inf, refused below
        matrix = np.asarray(rows, dtype=np.float32)
    if not np.all(np.isfinite(matrix)):
        raise embed_failed(url, "the vector overflows 32-bit floats")
    if np.any(np.linalg.norm(matrix, axis=1) == 0.0):
        raise embed_failed(url, "the vector is all zeros")
    return ModelInfo(model, width), matrix


class CappedBody:
    """An answer's bytes, decoded (identity, gzip or deflate) and never more than ``limit`` of them.

    httpx's own decoders inflate a whole network chunk at once (a gzip bomb grew a client to
    321 MB before a cap on the decoded stream could trip); here ``zlib`` is asked for at most
    what still fits, so memory stays near ``limit`` whatever the ratio.
    """

    def __init__(self, url: str, encoding: str, limit: int) -> None:
        self._url = url
        self._limit = limit
        self._data = bytearray()
        encoding = encoding.strip().lower()
        self._inflater: Any = None
        if encoding in ("gzip", "x-gzip"):
            self._inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self._inflater = zlib.decompressobj()
        elif encoding not in ("", "identity"):
            raise embed_failed(url, f"its answer is encoded as {short_text(encoding, 30)!r}, which this client "
                                    "does not read")

    def feed(self, raw: bytes) -> None:
        room = self._limit - len(self._data)
        if self._inflater is None:
            piece = raw
        else:
            try:  # at most room + 1 bytes come out, so one byte too many is enough to refuse
                piece = self._inflater.decompress(raw, room + 1)
            except zlib.error:
                raise embed_failed(self._url, "its compressed answer is corrupt") from None
        self._append(piece)

    def finish(self) -> bytes:
        if self._inflater is not None:
            self._append(self._inflater.flush())
        return bytes(self._data)

    def _append(self, piece: bytes) -> None:
        if len(self._data) + len(piece) > self._limit:
            raise embed_failed(self._url, f"its answer is larger than {self._limit // 1024 // 1024} MB")
        self._data += piece


def read_json(raw: bytes) -> object:
    # json.loads accepts NaN/Infinity by default; a vector containing them is rejected later
    # with its own message, so parse them rather than calling the JSON malformed.
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None


def retry_after_seconds(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def connect_reason(exc: BaseException) -> str:
    if isinstance(exc, httpx.ConnectTimeout):
        return f"no connection within {CONNECT_TIMEOUT:.0f} s"
    chain: list[BaseException] = []
    cur: BaseException | None = exc
    while cur is not None and cur not in chain:
        chain.append(cur)
        cur = cur.__cause__ or cur.__context__
    for err in chain:
        if isinstance(err, socket.gaierror):
            return "its host name does not resolve"
        if isinstance(err, ConnectionRefusedError):
            return "connection refused"
    text = " ".join(str(e).lower() for e in chain)
    if "name or service not known" in text or "nodename nor servname" in text or "name resolution" in text:
        return "its host name does not resolve"
    if "refused" in text:
        return "connection refused"
    return "connection failed"
