"""The one client of the embed proxy (CONTRACT section 2), with the error rules of section 5.

:class:`EmbedClient` is asynchronous (the app's question and the connectivity probe);
:class:`ProxyEmbedder` is the same client behind the synchronous :class:`~amicus_desktop.embedding.Embedder`
interface (``build-db --proxy``), running it on a private event loop, so both follow one set of rules:

* the proxy cannot be reached (refused, DNS, connect timeout) → ``OFFLINE``;
* the proxy was reached but gave no usable vector (5xx, unexpected 4xx, malformed or absurdly
  nested JSON, NaN, wrong shape, a body over 4 MB *after decoding*, or no complete answer within
  the deadline) → ``EMBED_FAILED``.

The deadline covers the whole answer of one attempt — connecting, the status line, the headers
and every byte of the body — so a proxy that trickles a byte every few seconds cannot hold a
question for minutes (a per-read timeout alone restarts with every byte). Each failure is
retried once after 1 s (or the server's ``Retry-After`` when it asks for at most 10 s); the
error of the last attempt is the one raised. Query text, tokens and keys are never logged and
never put in an error message.

One ``httpx.AsyncClient`` lives as long as its :class:`EmbedClient` (creating one costs
60–120 ms; a loopback request about 7 ms).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import math
import socket
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self, TypeVar

import httpx
import numpy as np
import numpy.typing as npt

from ..config import PROXY_URL_ENV, TOKEN_ENV, token_problem
from ..core.errors import AmicusError, ErrorCode
from ..core.results import ModelInfo
from ..core.text import echo
from ..http.urls import redact_url, url_problem
from .base import BackendError, BackendUnavailable, UpstreamError, Vectors, l2_normalise

log = logging.getLogger("amicus.embedding")

CONNECT_TIMEOUT = 5.0
#: the deadline of one attempt's whole answer (CONTRACT: read ≤ 15 s; two attempts stay under 45 s).
READ_TIMEOUT = 15.0
RETRY_DELAY = 1.0
MAX_RETRY_AFTER = 10.0
#: A 1536-dim vector is ~30 KB of JSON and 64 of them ~2 MB; anything past this is not an answer.
MAX_BODY_BYTES = 4 * 1024 * 1024
#: texts per ``/ai/embed`` request (the proxy's own limit).
MAX_PER_REQUEST = 64
#: ``build-db`` sends 64 chunks a request; the local model can need more than a question's 15 s
#: for that on a busy 2-core machine.
BATCH_READ_TIMEOUT = 120.0

T = TypeVar("T")
Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Embedding:
    """One query vector and the model that made it; ``cached`` when it came from the session cache."""

    vector: Vector  # float32, shape (dims,)
    model: ModelInfo
    cached: bool = False


def mismatch_error(model: ModelInfo, expected: ModelInfo) -> AmicusError | None:
    """``DIMENSION_MISMATCH`` then ``MODEL_MISMATCH`` (contract order) between the proxy and the DB."""
    if model.dims != expected.dims:
        return AmicusError(
            ErrorCode.DIMENSION_MISMATCH,
            f"The proxy's model makes {model.dims}-dimensional vectors; the database holds {expected.dims}. "
            "Point the app at a proxy serving the database's model, or open a database built with this one.",
        )
    if model.id != expected.id:
        return AmicusError(
            ErrorCode.MODEL_MISMATCH,
            f"The proxy serves model '{echo(model.id)}'; the database was built with '{echo(expected.id)}'. "
            "Vectors of different models are not comparable: use a matching proxy or rebuild the database.",
        )
    return None


def check_against_db(embedding: Embedding, dims: int, model_id: str) -> None:
    """Raise :func:`mismatch_error`'s error when the vector does not fit the database."""
    err = mismatch_error(embedding.model, ModelInfo(model_id, dims))
    if err is not None:
        raise err


def _offline(url: str, why: str) -> AmicusError:
    return AmicusError(
        ErrorCode.OFFLINE,
        f"The embed proxy at {url} cannot be reached ({why}). Start it with "
        "'amicus-desktop proxy' or check the proxy URL in settings.",
        retryable=True,
    )


def _failed(url: str, why: str, *, retry_after: float | None = None, retryable: bool = True) -> AmicusError:
    return AmicusError(
        ErrorCode.EMBED_FAILED,
        f"The embed proxy at {url} gave no usable vector: {why}.",
        retryable=retryable,
        retry_after=retry_after,
    )


def _short(text: object, limit: int = 160) -> str:
    """Outside text in a message: on one line, control characters escaped, at most ``limit`` characters."""
    return echo(" ".join(str(text).split()), limit)


class EmbedClient:
    """Embeds through ``POST {base_url}/ai/embed``; also probes ``GET {base_url}/health``.

    ``read_timeout`` is the deadline of one attempt's whole answer (see the module docstring).
    A ``base_url`` that cannot be used (``http://[::1``, port 99999) makes every request fail with
    ``OFFLINE`` saying what is wrong with it, before any I/O; messages show :attr:`shown_url`,
    the URL redacted (no user-info, no secret query values) and bounded.
    """

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        *,
        connect_timeout: float = CONNECT_TIMEOUT,
        read_timeout: float = READ_TIMEOUT,
        retry_delay: float = RETRY_DELAY,
        cache_size: int = 256,
    ) -> None:
        url_bad = url_problem(base_url)
        self.base_url = base_url.strip().rstrip("/") if url_bad is None else base_url
        self.shown_url = echo(redact_url(self.base_url))
        self._url_error = (
            AmicusError(ErrorCode.OFFLINE,
                        f"The embed proxy address {self.shown_url} {url_bad}. Correct it in Settings, "
                        f"--proxy or {PROXY_URL_ENV}.")
            if url_bad else None
        )
        self.retry_delay = retry_delay
        self.read_timeout = read_timeout
        # Compressed answers are not asked for; one that comes anyway is decoded under the size cap.
        headers = {"Accept": "application/json", "Accept-Encoding": "identity"}
        token = token.strip() if token else None
        problem = token_problem(token) if token else None
        self._token_error = (
            AmicusError(ErrorCode.EMBED_FAILED,
                        f"The proxy token {problem}; set the right token in settings or {TOKEN_ENV}.")
            if problem else None
        )
        if token and not problem:
            headers["Authorization"] = f"Bearer {token}"
        self._client = httpx.AsyncClient(
            base_url=self.base_url if url_bad is None else "http://invalid.invalid",  # never used
            headers=headers,
            timeout=httpx.Timeout(connect=connect_timeout, read=read_timeout, write=read_timeout, pool=connect_timeout),
            # The proxy is configured explicitly; environment proxies would only misroute it.
            trust_env=False,
        )
        self._cache: OrderedDict[str, Embedding] = OrderedDict()
        self._cache_size = cache_size

    # -- public ----------------------------------------------------------------------------
    async def embed(self, text: str) -> Embedding:
        """The vector of one query, from the session cache (``cached=True``) or the proxy (one retry)."""
        hit = self._cache.get(text)
        if hit is not None:
            self._cache.move_to_end(text)
            return dataclasses.replace(hit, cached=True)
        model, vectors = await self._with_retry(lambda: self._embed_once([text]))
        result = Embedding(vectors[0], model)
        self._cache[text] = result
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return result

    async def embed_batch(self, texts: Sequence[str]) -> tuple[ModelInfo, Vectors]:
        """Vectors of up to :data:`MAX_PER_REQUEST` texts in one request, in input order (not cached)."""
        if not 1 <= len(texts) <= MAX_PER_REQUEST:
            raise ValueError(f"embed_batch takes 1 to {MAX_PER_REQUEST} texts, not {len(texts)}")
        batch = list(texts)
        return await self._with_retry(lambda: self._embed_once(batch))

    async def health(self) -> ModelInfo:
        """``GET /health`` once (no retry: callers that poll retry on their own schedule)."""
        body = await self._request("GET", "/health")
        model, dims = body.get("model"), body.get("dims")
        if body.get("status") != "ok":
            raise _failed(self.shown_url, "its /health answer does not say status ok")
        if not isinstance(model, str) or not model or not isinstance(dims, int) or isinstance(dims, bool) or dims < 1:
            raise _failed(self.shown_url, "its /health answer does not name a model and its dims")
        return ModelInfo(model, dims)

    async def aclose(self) -> None:
        await self._client.aclose()

    # -- internals -------------------------------------------------------------------------
    async def _with_retry(self, attempt: Callable[[], Awaitable[T]]) -> T:
        try:
            return await attempt()
        except AmicusError as first:
            if not first.retryable:
                raise
            delay = self.retry_delay
            if first.retry_after is not None:
                if first.retry_after > MAX_RETRY_AFTER:
                    raise
                delay = max(delay, first.retry_after)
            log.info("embed failed, retrying", extra={"code": first.code.value, "delay_s": delay})
            await asyncio.sleep(delay)
            return await attempt()

    async def _embed_once(self, texts: list[str]) -> tuple[ModelInfo, Vectors]:
        t0 = time.perf_counter()
        body = await self._request("POST", "/ai/embed", {"input": texts[0] if len(texts) == 1 else texts})
        model, vectors = self._parse_embeddings(body, len(texts))
        log.debug("embedded", extra={"ms": round((time.perf_counter() - t0) * 1000, 2), "dims": model.dims,
                                     "count": len(texts)})
        return model, vectors

    async def _request(self, method: str, path: str, payload: object = None) -> dict[str, Any]:
        url = self.shown_url
        if self._url_error is not None:
            raise self._url_error
        if self._token_error is not None:
            raise self._token_error
        reached = False  # whether a connection was made: a deadline before that is a connect failure

        async def trace(event: str, info: Mapping[str, object]) -> None:
            nonlocal reached
            reached = reached or event.startswith("http11.") or event == "connection.connect_tcp.complete"

        try:
            async with asyncio.timeout(self.read_timeout):
                async with self._client.stream(method, path, json=payload, extensions={"trace": trace}) as response:
                    body = _CappedBody(url, response.headers.get("Content-Encoding", ""), MAX_BODY_BYTES)
                    async for chunk in response.aiter_raw():
                        body.feed(chunk)
                    raw = body.finish()
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise _offline(url, _connect_reason(exc)) from None
        except (TimeoutError, httpx.TimeoutException):
            if not reached:
                raise _offline(url, f"no connection within {self.read_timeout:g} s") from None
            raise _failed(url, f"no complete answer within the {self.read_timeout:g} s read timeout") from None
        except httpx.TransportError as exc:  # reached, then the connection broke
            raise _failed(url, f"the connection broke ({type(exc).__name__})") from None
        status = response.status_code
        if status != 200:
            raise self._status_error(status, raw, response.headers.get("Retry-After"))
        try:
            parsed = _loads(raw)
        except ValueError as exc:
            raise _failed(url, f"its answer is not valid JSON ({_short(exc, 80)})") from None
        if not isinstance(parsed, dict):
            raise _failed(url, "its answer is not a JSON object")
        return parsed

    def _status_error(self, status: int, raw: bytes, retry_after: str | None) -> AmicusError:
        detail = ""
        try:
            parsed = _loads(raw)
        except ValueError:
            parsed = None
        err = parsed.get("error") if isinstance(parsed, dict) else None
        if isinstance(err, dict):
            code, message = err.get("code"), err.get("message")
            if isinstance(code, str) and isinstance(message, str):
                detail = f" {_short(code, 40)}: {_short(message)}"
        if status == 401:
            why = f"it refused the token (HTTP 401); set the right token in settings or {TOKEN_ENV}"
        elif status == 429:
            why = "it is rate limiting requests (HTTP 429)"
        else:
            why = f"HTTP {status}"
        seconds = _retry_after_seconds(retry_after) if status in (429, 503) else None
        return _failed(self.shown_url, why + (f" —{detail}" if detail else ""), retry_after=seconds)

    def _parse_embeddings(self, body: dict[str, Any], n: int) -> tuple[ModelInfo, Vectors]:
        """The ``n`` vectors of an ``/ai/embed`` answer, in input order, or ``EMBED_FAILED``."""
        url = self.shown_url
        try:
            model = body["model"]
            data = body["data"]
            if not isinstance(model, str) or not model:
                raise ValueError("'model' is not a non-empty string")
            if not isinstance(data, list) or len(data) != n or not all(isinstance(d, dict) for d in data):
                raise ValueError(f"'data' does not hold exactly {'one item' if n == 1 else f'{n} items'}")
            rows: list[list[float] | None] = [None] * n
            for position, item in enumerate(data):
                index = item.get("index", position)
                bad_index = not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n
                if bad_index or rows[index] is not None:
                    raise ValueError(f"item {position} has a missing, repeated or out-of-range 'index'")
                values = item["embedding"]
                if not isinstance(values, list) or not values:
                    raise ValueError("'embedding' is not a non-empty list")
                if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
                    raise ValueError("'embedding' holds a value that is not a number")
                try:
                    if not all(math.isfinite(v) for v in values):
                        raise ValueError("'embedding' holds NaN or Infinity")
                except OverflowError:  # an integer literal past float's range
                    raise ValueError("'embedding' holds a number too large for a float") from None
                rows[index] = values
            width = len(data[0]["embedding"])
            if any(row is None or len(row) != width for row in rows):
                raise ValueError("the vectors differ in length")
            dims = body.get("dims", width)
            if not isinstance(dims, int) or isinstance(dims, bool) or dims != width:
                raise ValueError(f"'dims' says {_short(dims, 20)} but the vector has {width} values")
        except (KeyError, TypeError, ValueError) as exc:
            raise _failed(url, f"its answer has the wrong shape ({_short(exc, 100)})") from None
        with np.errstate(over="ignore"):  # a value past float32's range becomes inf, refused below
            matrix = np.asarray(rows, dtype=np.float32)
        if not np.all(np.isfinite(matrix)):
            raise _failed(url, "the vector overflows 32-bit floats")
        if np.any(np.linalg.norm(matrix, axis=1) == 0.0):
            raise _failed(url, "the vector is all zeros")
        return ModelInfo(model, width), matrix


class _CappedBody:
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
            raise _failed(url, f"its answer is encoded as {_short(encoding, 30)!r}, which this client does not read")

    def feed(self, raw: bytes) -> None:
        room = self._limit - len(self._data)
        if self._inflater is None:
            piece = raw
        else:
            try:  # at most room + 1 bytes come out, so one byte too many is enough to refuse
                piece = self._inflater.decompress(raw, room + 1)
            except zlib.error:
                raise _failed(self._url, "its compressed answer is corrupt") from None
        self._append(piece)

    def finish(self) -> bytes:
        if self._inflater is not None:
            self._append(self._inflater.flush())
        return bytes(self._data)

    def _append(self, piece: bytes) -> None:
        if len(self._data) + len(piece) > self._limit:
            raise _failed(self._url, f"its answer is larger than {self._limit // 1024 // 1024} MB")
        self._data += piece


def _loads(raw: bytes) -> object:
    # json.loads accepts NaN/Infinity by default; a vector containing them is rejected later
    # with its own message, so parse them rather than calling the JSON malformed.
    try:
        return json.loads(raw)
    except RecursionError:
        raise ValueError("it is nested too deeply") from None


def _retry_after_seconds(value: str | None) -> float | None:
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return None
    return seconds if math.isfinite(seconds) and seconds >= 0 else None


def _connect_reason(exc: BaseException) -> str:
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


class ProxyEmbedder:
    """An :class:`~amicus_desktop.embedding.Embedder` over a running proxy: ``build-db --proxy URL``.

    It is :class:`EmbedClient` run on a private event loop, so it has the same errors, retry and
    deadline (``read_timeout`` defaults to :data:`BATCH_READ_TIMEOUT`: 64 texts take the model
    longer than one question). ``model_id``/``dims`` come from the proxy's ``/health``, and every
    answer must name that same model: the database records exactly what the proxy serves.
    Failures are :class:`~amicus_desktop.embedding.BackendError` whose ``code`` is the contract's.
    Use it from threads without a running event loop (a worker thread, the command line).
    """

    def __init__(self, url: str, token: str | None = None, *, per_request: int = MAX_PER_REQUEST,
                 read_timeout: float = BATCH_READ_TIMEOUT, retry_delay: float = RETRY_DELAY) -> None:
        self.url = url.rstrip("/")
        self.per_request = max(1, min(int(per_request), MAX_PER_REQUEST))
        self._client = EmbedClient(self.url, token, read_timeout=read_timeout, retry_delay=retry_delay, cache_size=0)
        self._runner = asyncio.Runner()
        self._lock = threading.Lock()  # one request at a time on the private loop
        self._model: ModelInfo | None = None

    def _run(self, work: Callable[[], Awaitable[T]]) -> T:
        with self._lock:
            try:
                return self._runner.run(_awaited(work))
            except AmicusError as err:
                cls = BackendUnavailable if err.code is ErrorCode.OFFLINE else UpstreamError
                raise cls(err.message, code=err.code.value) from None

    # -- identity --------------------------------------------------------------------------
    def load(self) -> None:
        """Ask the proxy's ``/health`` which model it serves (once)."""
        if self._model is None:
            self._model = self._run(self._client.health)

    @property
    def model_id(self) -> str:
        self.load()
        assert self._model is not None
        return self._model.id

    @property
    def dims(self) -> int:
        self.load()
        assert self._model is not None
        return self._model.dims

    # -- embedding -------------------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> Vectors:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings, not one string")
        texts = list(texts)
        expected = ModelInfo(self.model_id, self.dims)
        parts: list[Vectors] = [np.zeros((0, expected.dims), dtype=np.float32)]
        for start in range(0, len(texts), self.per_request):
            batch = texts[start : start + self.per_request]
            model, vectors = self._run(functools.partial(self._client.embed_batch, batch))
            err = mismatch_error(model, expected)
            if err is not None:
                raise BackendError(f"The embed proxy changed model during the build: {err.message}",
                                   status=502, code=err.code.value)
            parts.append(l2_normalise(vectors))
        return np.vstack(parts)

    def close(self) -> None:
        with self._lock:
            try:
                self._runner.run(self._client.aclose())
            finally:
                self._runner.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


async def _awaited(work: Callable[[], Awaitable[T]]) -> T:
    return await work()
