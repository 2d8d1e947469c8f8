"""The embed proxy's HTTP app (CONTRACT section 2), a Starlette app for uvicorn.

``POST /ai/embed`` ``{"input": str | [str, ...]}`` → ``{"model", "dims", "data": [{"index",
"embedding"}]}``; ``GET /health`` → ``{"status": "ok", "model", "dims"}``. Every error is
``{"error": {"code", "message"}}``, never a stack trace. Embedding runs in a worker thread so the
event loop keeps answering. Nothing here logs input text, tokens or keys.

Checks, in order: HTTP/1.0 or 1.1 only (505) and a request head of at most 16 KiB (431), on what
uvicorn parsed; a ``Host`` naming this machine (403, against DNS rebinding:
:mod:`amicus_desktop.http.guards`, unless the proxy listens beyond this machine with a token); then,
for ``/ai/embed``, the token (401, before anything else is looked at, so an unauthenticated flood
never touches the app's rate-limit bucket), the rate limit per client
(429), ``Content-Type: application/json`` (415: a web page can POST ``text/plain`` across
origins without asking, never JSON), the body size (413) and its shape (400/413).
"""

from __future__ import annotations

import hmac
import json
import logging
import math
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..core.errors import AmicusError, ErrorCode
from ..embedding import BackendError, Embedder, ProxyCode
from ..http.guards import HostGuard, RequestLimits, host_check_needed

log = logging.getLogger("amicus.proxy")

MAX_INPUTS = 64
MAX_CHARS = 8000
MAX_BODY = 1024 * 1024
DEFAULT_RATE = 50.0
DEFAULT_BURST = 100


class ProxyError(AmicusError):
    """An answer other than 200, with the contract's error body (a :class:`ProxyCode`; one error tree)."""

    codes = (ErrorCode, ProxyCode)

    def __init__(self, status: int, code: ProxyCode | str, message: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(code, message)
        self.status = status
        self.headers = headers or {}


def error_response(status: int, code: str, message: str,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status,
                        headers=headers)


class RateLimiter:
    """A token bucket per client key: ``rate`` requests per second, bursts of ``burst``.

    Used only from the event loop, so it needs no lock. Idle full buckets are forgotten so the
    table stays small.
    """

    def __init__(self, rate: float, burst: int, *, max_clients: int = 10_000) -> None:
        self.rate = float(rate)
        self.burst = max(1.0, float(burst))
        self.max_clients = max_clients
        self._buckets: dict[str, tuple[float, float]] = {}

    def acquire(self, key: str, now: float | None = None) -> float:
        """0 when the request may go ahead, else the seconds until it could."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > self.max_clients:
                self._prune(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def _prune(self, now: float) -> None:
        full = [k for k, (t, last) in self._buckets.items()
                if t + (now - last) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]
        while len(self._buckets) > self.max_clients:  # all busy: drop the oldest entries
            del self._buckets[next(iter(self._buckets))]


def create_app(backend: Embedder, *, token: str | None = None, bind_host: str = "127.0.0.1",
               max_inputs: int = MAX_INPUTS, max_chars: int = MAX_CHARS,
               max_body: int = MAX_BODY, rate_limit: float | None = DEFAULT_RATE,
               rate_burst: int = DEFAULT_BURST) -> Starlette:
    """The proxy app around ``backend``.

    ``token``: when non-empty, ``/ai/embed`` needs ``Authorization: Bearer <token>``.
    ``bind_host``: the address it listens on; with a loopback one, or without a token, only requests
    addressed to a loopback name are answered (:func:`~amicus_desktop.http.guards.host_check_needed`).
    ``rate_limit``: requests per second per client IP on ``/ai/embed`` with the right token (or
    any, when none is required) (``None``/0: off), with bursts of ``rate_burst``.
    """
    token_bytes = token.encode("utf-8") if token else None
    limiter = RateLimiter(rate_limit, rate_burst) if rate_limit and rate_limit > 0 else None

    async def health(request: Request) -> Response:
        try:
            dims = await run_in_threadpool(lambda: int(backend.dims))
        except BackendError as exc:
            return error_response(exc.status, exc.code, exc.message)
        except Exception as exc:
            log.error("internal error answering /health (%s)", type(exc).__name__)
            return _internal_error()
        return JSONResponse({"status": "ok", "model": backend.model_id, "dims": dims})

    async def embed(request: Request) -> Response:
        started = time.perf_counter()
        try:
            response = await _embed(request)
        except ProxyError as exc:
            response = error_response(exc.status, exc.code, exc.message, exc.headers)
        except BackendError as exc:  # its message is safe to show: no input, key or internals
            log.warning("embedding failed: %s: %s", exc.code, exc.message)
            headers = {"Retry-After": exc.retry_header} if exc.retry_header else None
            response = error_response(exc.status, exc.code, exc.message, headers)
        except ClientDisconnect:
            return Response(status_code=400)  # nobody is listening any more
        except Exception as exc:  # never a stack trace in a body or the log
            log.error("internal error answering /ai/embed (%s)", type(exc).__name__)
            response = _internal_error()
        log.info("POST /ai/embed %d %.1f ms", response.status_code,
                 (time.perf_counter() - started) * 1000)
        return response

    async def _embed(request: Request) -> Response:
        if token_bytes is not None:
            _check_token(request, token_bytes)
        if limiter is not None:
            wait = limiter.acquire(request.client.host if request.client else "unknown")
            if wait > 0:
                raise ProxyError(429, "RATE_LIMITED",
                                 "Too many requests from this client; slow down and retry.",
                                 {"Retry-After": str(max(1, math.ceil(wait)))})
        _check_content_type(request)
        body = await _read_body(request, max_body)
        texts = _parse_input(body, max_inputs, max_chars)
        vectors = await run_in_threadpool(backend.embed, texts)
        vectors = np.asarray(vectors, dtype=np.float32)
        dims = int(backend.dims)
        if vectors.shape != (len(texts), dims) or not np.isfinite(vectors).all():
            raise BackendError("The embedding model produced no usable vectors.",
                               status=502, code="EMBED_FAILED")
        # 64 x 384 floats take some milliseconds to render: do it off the event loop too
        content = await run_in_threadpool(_render, backend.model_id, dims, vectors)
        return Response(content, media_type="application/json")

    async def http_error(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 500)
        if status == 404:
            return error_response(404, "NOT_FOUND", "No such endpoint: use POST /ai/embed or "
                                                    "GET /health.")
        if status == 405:
            allow = (getattr(exc, "headers", None) or {}).get("Allow")
            return error_response(405, "METHOD_NOT_ALLOWED", "That method is not allowed here.",
                                  {"Allow": allow} if allow else None)
        return error_response(status, "HTTP_ERROR", "The request could not be handled.")

    async def internal_error(request: Request, exc: Exception) -> Response:
        log.error("internal error (%s)", type(exc).__name__)
        return _internal_error()

    return Starlette(
        routes=[
            Route("/ai/embed", embed, methods=["POST"]),
            Route("/health", health, methods=["GET"]),
        ],
        exception_handlers={HTTPException: http_error, Exception: internal_error},
        middleware=[Middleware(RequestLimits),
                    Middleware(HostGuard, enabled=host_check_needed(bind_host, token_bytes is not None))],
    )


def _render(model: str, dims: int, vectors: np.ndarray) -> bytes:
    data = [{"index": i, "embedding": row} for i, row in enumerate(vectors.tolist())]
    return json.dumps({"model": model, "dims": dims, "data": data},
                      separators=(",", ":"), allow_nan=False).encode("utf-8")


def _internal_error() -> JSONResponse:
    return error_response(500, "INTERNAL", "The proxy failed unexpectedly; see its log.")


def _check_token(request: Request, expected: bytes) -> None:
    header = request.headers.get("authorization", "")
    scheme, _, value = header.partition(" ")
    challenge = {"WWW-Authenticate": "Bearer"}
    if not header or scheme.lower() != "bearer" or not value.strip():
        raise ProxyError(401, "UNAUTHORIZED",
                         "This proxy needs a token: send Authorization: Bearer <token>.", challenge)
    if not hmac.compare_digest(value.strip().encode("utf-8", "surrogateescape"), expected):
        raise ProxyError(401, "UNAUTHORIZED", "The token is wrong.", challenge)


def _check_content_type(request: Request) -> None:
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != "application/json":
        raise ProxyError(415, "UNSUPPORTED_MEDIA_TYPE",
                         "Send the body as JSON with Content-Type: application/json.")


async def _read_body(request: Request, limit: int) -> bytes:
    """The body, refusing (413) more than ``limit`` bytes whatever Content-Length claims."""
    too_large = ProxyError(413, "BODY_TOO_LARGE",
                           f"The request body is larger than {limit:,} bytes.")
    declared = request.headers.get("content-length")
    if declared is not None:
        if not declared.strip().isdigit():
            raise ProxyError(400, "BAD_REQUEST", "The Content-Length header is not a number.")
        if int(declared) > limit:
            raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def _parse_input(body: bytes, max_inputs: int, max_chars: int) -> list[str]:
    if not body.strip():
        raise ProxyError(400, "BAD_REQUEST",
                         'The body is empty; send JSON like {"input": "text"}.')
    try:
        payload: Any = json.loads(body)
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, absurd nesting or numbers
        raise ProxyError(400, "BAD_JSON", "The body is not valid JSON.") from None
    if not isinstance(payload, dict) or "input" not in payload:
        raise ProxyError(400, "BAD_REQUEST",
                         'The body must be a JSON object with an "input" key.')
    value = payload["input"]
    texts: Sequence[Any]
    if isinstance(value, str):
        texts = [value]
    elif isinstance(value, list):
        texts = value
    else:
        raise ProxyError(400, "BAD_REQUEST",
                         '"input" must be a string or a list of strings.')
    if not texts:
        raise ProxyError(400, "EMPTY_INPUT", '"input" is an empty list.')
    if len(texts) > max_inputs:
        raise ProxyError(413, "TOO_MANY_INPUTS",
                         f"{len(texts)} inputs in one request; the limit is {max_inputs}.")
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise ProxyError(400, "BAD_REQUEST", f"Input {i} is not a string.")
        if not text.strip():
            raise ProxyError(400, "EMPTY_INPUT", f"Input {i} is empty.")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate escaped in the JSON
            raise ProxyError(400, "BAD_REQUEST", f"Input {i} is not valid Unicode text.") from None
        if len(text) > max_chars:
            raise ProxyError(413, "INPUT_TOO_LONG",
                             f"Input {i} has {len(text):,} characters; the limit is "
                             f"{max_chars:,}.")
    return list(texts)
