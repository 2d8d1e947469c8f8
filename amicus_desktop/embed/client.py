"""The client side of the embed proxy (CONTRACT section 2), with the error rules of section 5.

One :class:`EmbedClient` holds one ``httpx.AsyncClient`` for its whole life (creating one costs
60–120 ms; a loopback request about 7 ms). Failures are classified where the cause is known:

* the proxy cannot be reached (refused, DNS, connect timeout) → ``OFFLINE``;
* the proxy was reached but gave no usable vector (5xx, unexpected 4xx, malformed JSON, NaN,
  wrong shape, a body too large, or no answer before the read timeout) → ``EMBED_FAILED``.

Each is retried once after 1 s (or the server's ``Retry-After`` when it asks for up to 10 s); the
error of the last attempt is the one raised. Query text, tokens and keys are never logged and
never put in an error message.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import math
import socket
import time
from collections import OrderedDict
from dataclasses import dataclass

import httpx
import numpy as np

from ..core.errors import AmicusError, ErrorCode
from ..core.types import ModelInfo

log = logging.getLogger("amicus.embed")

CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 15.0
RETRY_DELAY = 1.0
MAX_RETRY_AFTER = 10.0
#: A 1536-dim vector is ~30 KB of JSON; anything far past that is not an answer we can use.
MAX_BODY_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class Embedding:
    """One query vector and the model that made it."""

    vector: np.ndarray  # float32, shape (dims,)
    model: ModelInfo
    #: answered from the session cache (no request made)
    cached: bool = False


def _offline(url: str, why: str) -> AmicusError:
    return AmicusError(
        ErrorCode.OFFLINE,
        f"The embed proxy at {url} cannot be reached ({why}). Start it with "
        "'amicus-desktop proxy' or check the proxy URL in settings.",
        retryable=True,
    )


def _failed(url: str, why: str, *, retry_after: float | None = None) -> AmicusError:
    return AmicusError(
        ErrorCode.EMBED_FAILED,
        f"The embed proxy at {url} gave no usable vector: {why}.",
        retryable=True,
        retry_after=retry_after,
    )


def _short(text: object, limit: int = 160) -> str:
    s = " ".join(str(text).split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


class EmbedClient:
    """Embeds queries through ``POST {base_url}/ai/embed``; also probes ``GET {base_url}/health``."""

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
        self.base_url = base_url.rstrip("/")
        self.retry_delay = retry_delay
        headers = {"Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        self._client = httpx.AsyncClient(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(connect=connect_timeout, read=read_timeout, write=read_timeout, pool=connect_timeout),
            # The proxy is configured explicitly; environment proxies would only misroute it.
            trust_env=False,
        )
        self._cache: OrderedDict[str, Embedding] = OrderedDict()
        self._cache_size = cache_size
        self.calls = 0  # HTTP embed requests made (the cache avoids them)

    # -- public ----------------------------------------------------------------------------
    async def embed(self, text: str) -> Embedding:
        """The vector of one query, from the session cache or the proxy (one retry on failure)."""
        hit = self._cache.get(text)
        if hit is not None:
            self._cache.move_to_end(text)
            return dataclasses.replace(hit, cached=True)
        result = await self._with_retry(lambda: self._embed_once(text))
        self._cache[text] = result
        if len(self._cache) > self._cache_size:
            self._cache.popitem(last=False)
        return result

    async def health(self) -> ModelInfo:
        """``GET /health`` once (no retry: callers that poll retry on their own schedule)."""
        body = await self._request("GET", "/health")
        try:
            if body.get("status") != "ok":
                raise ValueError("status is not ok")
            return ModelInfo(str(body["model"]), int(body["dims"]))
        except (AttributeError, KeyError, TypeError, ValueError) as exc:
            raise _failed(self.base_url, f"its /health answer is malformed ({_short(exc)})") from None

    async def aclose(self) -> None:
        await self._client.aclose()

    # -- internals -------------------------------------------------------------------------
    async def _with_retry(self, attempt):  # noqa: ANN001, ANN202 - a coroutine factory
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

    async def _embed_once(self, text: str) -> Embedding:
        self.calls += 1
        t0 = time.perf_counter()
        body = await self._request("POST", "/ai/embed", json={"input": text})
        embedding = self._parse_embedding(body)
        log.debug("embedded", extra={"ms": round((time.perf_counter() - t0) * 1000, 2), "dims": embedding.model.dims})
        return embedding

    async def _request(self, method: str, path: str, json: object = None) -> dict:
        url = self.base_url
        try:
            async with self._client.stream(method, path, json=json) as response:
                raw = bytearray()
                async for chunk in response.aiter_bytes():
                    raw.extend(chunk)
                    if len(raw) > MAX_BODY_BYTES:
                        raise _failed(url, f"its answer is larger than {MAX_BODY_BYTES // 1024 // 1024} MB")
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise _offline(url, _connect_reason(exc)) from None
        except httpx.TimeoutException:
            raise _failed(url, f"no answer within the {READ_TIMEOUT:.0f} s read timeout") from None
        except httpx.TransportError as exc:  # reached, then the connection broke
            raise _failed(url, f"the connection broke ({type(exc).__name__})") from None
        status = response.status_code
        if status != 200:
            raise self._status_error(status, bytes(raw), response.headers.get("Retry-After"))
        try:
            body = _loads(bytes(raw))
        except ValueError as exc:
            raise _failed(url, f"its answer is not valid JSON ({_short(exc, 80)})") from None
        if not isinstance(body, dict):
            raise _failed(url, "its answer is not a JSON object")
        return body

    def _status_error(self, status: int, raw: bytes, retry_after: str | None) -> AmicusError:
        detail = ""
        try:
            err = _loads(raw).get("error", {})
            detail = f" {err.get('code', '')}: {_short(err.get('message', ''))}".rstrip(": ")
        except (ValueError, AttributeError):
            pass
        if status == 401:
            why = "it refused the token (HTTP 401); set the right token in settings or AMICUS_PROXY_TOKEN"
        elif status == 429:
            why = "it is rate limiting requests (HTTP 429)"
        else:
            why = f"HTTP {status}"
        seconds = _retry_after_seconds(retry_after) if status in (429, 503) else None
        return _failed(self.base_url, why + (f" —{detail}" if detail else ""), retry_after=seconds)

    def _parse_embedding(self, body: dict) -> Embedding:
        url = self.base_url
        try:
            model = body["model"]
            data = body["data"]
            if not isinstance(model, str) or not model:
                raise ValueError("'model' is not a non-empty string")
            if not isinstance(data, list) or len(data) != 1 or not isinstance(data[0], dict):
                raise ValueError("'data' does not hold exactly one item")
            values = data[0]["embedding"]
            if not isinstance(values, list) or not values:
                raise ValueError("'embedding' is not a non-empty list")
            if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
                raise ValueError("'embedding' holds a value that is not a number")
            if not all(math.isfinite(v) for v in values):
                raise ValueError("'embedding' holds NaN or Infinity")
            dims = body.get("dims", len(values))
            if not isinstance(dims, int) or dims != len(values):
                raise ValueError(f"'dims' says {dims!r} but the vector has {len(values)} values")
        except (KeyError, TypeError, ValueError) as exc:
            raise _failed(url, f"its answer has the wrong shape ({_short(exc, 100)})") from None
        with np.errstate(over="ignore"):  # a value past float32's range becomes inf, refused below
            vector = np.asarray(values, dtype=np.float32)
        if not np.all(np.isfinite(vector)):
            raise _failed(url, "the vector overflows 32-bit floats")
        norm = float(np.linalg.norm(vector))
        if norm == 0.0:
            raise _failed(url, "the vector is all zeros")
        return Embedding(vector, ModelInfo(model, len(values)))


def _loads(raw: bytes) -> object:
    # json.loads accepts NaN/Infinity by default; a vector containing them is rejected later
    # with its own message, so parse them rather than calling the JSON malformed.
    return json.loads(raw)


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


def check_against_db(embedding: Embedding, dims: int, model_id: str) -> None:
    """Raise ``DIMENSION_MISMATCH`` then ``MODEL_MISMATCH`` when the vector doesn't fit the DB."""
    got = embedding.model
    if got.dims != dims:
        raise AmicusError(
            ErrorCode.DIMENSION_MISMATCH,
            f"The proxy's model makes {got.dims}-dimensional vectors; the database holds {dims}. "
            "Point the app at a proxy serving the database's model, or open a database built with this one.",
        )
    if got.id != model_id:
        raise AmicusError(
            ErrorCode.MODEL_MISMATCH,
            f"The proxy serves model {got.id!r}; the database was built with {model_id!r}. "
            "Vectors of different models are not comparable: use a matching proxy or rebuild the database.",
        )
