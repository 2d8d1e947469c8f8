"""The one client of the embed proxy (CONTRACT section 2), with the error rules of section 5.

:class:`EmbedClient` is asynchronous (the app's question and the connectivity probe);
:class:`~.proxy_embedder.ProxyEmbedder` is the same client behind the synchronous
:class:`~amicus_desktop.embedding.Embedder` interface (``build-db --proxy``), running it on a private event
loop, so both follow one set of rules (how an answer is read is :mod:`.proxy_answers`):

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
60–120 ms; a loopback request about 7 ms). For an ``http://`` proxy (the local one) it gets a TLS
context with no certificate authorities, so certifi's bundle (≈ 1 MB of the app's memory) is not loaded
for a connection that never speaks TLS; that context still requires a verified certificate, so TLS through
it would fail closed, never unverified. An ``https://`` proxy gets httpx's default verification.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import ssl
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import httpx
import numpy as np
import numpy.typing as npt

from ..config import PROXY_URL_ENV, TOKEN_ENV, token_problem
from ..core.errors import AmicusError, ErrorCode
from ..core.results import ModelInfo
from ..core.text import echo
from ..http.urls import redact_url, url_problem
from .base import Vectors
from .proxy_answers import (
    CONNECT_TIMEOUT,
    CappedBody,
    connect_reason,
    embed_failed,
    offline_error,
    parse_embeddings,
    read_json,
    short_text,
    status_error,
)

log = logging.getLogger("amicus.embedding")

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


def tls_context(base_url: str) -> ssl.SSLContext | bool:
    """httpx's ``verify`` for a proxy at ``base_url``: its default (certifi's authorities) for ``https://``;
    for ``http://``, where no TLS is spoken, a context that trusts no authority — it still checks host names
    and requires a verified certificate, so it can only fail closed — and costs no CA bundle."""
    if not base_url.lower().startswith("http://"):
        return True
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)  # check_hostname and CERT_REQUIRED by default
    ctx.check_hostname = True
    ctx.verify_mode = ssl.CERT_REQUIRED
    return ctx


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
        connect_timeout: float | None = None,
        read_timeout: float | None = None,
        retry_delay: float | None = None,
        cache_size: int = 256,
    ) -> None:
        # The module's constants are read here, not bound as defaults, so a test can shorten them for a run.
        connect_timeout = CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
        read_timeout = READ_TIMEOUT if read_timeout is None else read_timeout
        retry_delay = RETRY_DELAY if retry_delay is None else retry_delay
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
            verify=tls_context(self.base_url if url_bad is None else "http://invalid.invalid"),
            # keep every connection the service's concurrent questions opened (httpx keeps 20 of its 100): past
            # 20 at once, each answer closed a connection and the next question opened one
            limits=httpx.Limits(max_connections=100, max_keepalive_connections=100),
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
            raise embed_failed(self.shown_url, "its /health answer does not say status ok")
        if not isinstance(model, str) or not model or not isinstance(dims, int) or isinstance(dims, bool) or dims < 1:
            raise embed_failed(self.shown_url, "its /health answer does not name a model and its dims")
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
        model, vectors = parse_embeddings(self.shown_url, body, len(texts))
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
                    body = CappedBody(url, response.headers.get("Content-Encoding", ""), MAX_BODY_BYTES)
                    async for chunk in response.aiter_raw():
                        body.feed(chunk)
                    raw = body.finish()
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise offline_error(url, connect_reason(exc)) from None
        except (TimeoutError, httpx.TimeoutException):
            if not reached:
                raise offline_error(url, f"no connection within {self.read_timeout:g} s") from None
            raise embed_failed(url, f"no complete answer within the {self.read_timeout:g} s read timeout") from None
        except httpx.TransportError as exc:  # reached, then the connection broke
            raise embed_failed(url, f"the connection broke ({type(exc).__name__})") from None
        status = response.status_code
        if status != 200:
            raise status_error(self.shown_url, status, raw, response.headers.get("Retry-After"))
        try:
            parsed = read_json(raw)
        except ValueError as exc:
            raise embed_failed(url, f"its answer is not valid JSON ({short_text(exc, 80)})") from None
        if not isinstance(parsed, dict):
            raise embed_failed(url, "its answer is not a JSON object")
        return parsed
