"""The retrieval service's HTTP app (CONTRACT section 9): Starlette, served by uvicorn.

``GET /retrieve`` (the ranked chunks; ``POST /retrieve`` takes the same parameters as a JSON body,
:mod:`.request_body`; answers carry an ETag, :mod:`.cache`), ``GET /passage`` and ``GET /verses`` (the Bible
text, :mod:`.reading`), ``POST /mcp`` (the MCP tools over streamable HTTP, :mod:`.mcp_http`), ``GET /health``
(no token), ``GET /openapi.json`` (no token).
The app is a thin adapter: a request is checked in this order — the token (401), the token's rate
(429), the parameters (400, 413), the workspace (403), the overlay (404) — and then handed to the same
engine as ``query`` (:class:`~.library.Library`), whose errors keep their section-5 codes (404, 500,
503, 409). Every answer is JSON with a ``trace_id`` equal to its ``X-Trace-Id`` header (:mod:`.observe`).

:func:`create_app` takes the middleware to run inside that outer layer — the proxy's request limits
first, then whatever the caller adds (``amicus-desktop serve`` adds the Host check against DNS rebinding) —
so a refusal any of them makes is traced and logged like every other answer.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive

from ..core.errors import AmicusError
from ..http.guards import RequestLimits
from .access import Access, Client
from .body import retrieve_body
from .cache import cached_json
from .errors import ServiceCode, ServiceError, internal
from .library import Library
from .observe import CLIENT_GONE, Observe, trace_id_of
from .openapi import document
from .params import is_small, parse
from .passage import read_passage
from .reading import parse_passage_params, parse_verses_params
from .request_body import check_media_type, pairs_of, read_body
from .scope import Overlays, Scope

log = logging.getLogger("amicus.serve")

T = TypeVar("T")

#: bytes of request head (request line and headers) accepted: a 2,000-character question in a
#: non-Latin script is up to 24 KB once percent-encoded, past the proxy's 16 KiB.
MAX_HEAD = 64 * 1024


def error_response(err: ServiceError, trace: str) -> JSONResponse:
    return JSONResponse({**err.to_json(), "trace_id": trace}, status_code=err.status, headers=err.headers)


def create_app(library: Library, access: Access | None = None, overlays: Overlays | None = None, *,
               middleware: Sequence[Middleware] = (), allow_writes: bool = False) -> ASGIApp:
    """The service over ``library``; ``middleware`` runs after the request limits, inside the trace layer;
    ``allow_writes`` lets ``/mcp``'s ``add_note`` write to the request's workspace."""
    from .mcp_http import McpEndpoint

    access = access or Access()
    overlays = overlays or Overlays(None)
    mcp = McpEndpoint(library, access, overlays, allow_writes=allow_writes)

    async def guarded(request: Request, work: Callable[[Client], Awaitable[Response]]) -> Response:
        """The token (401) and its rate (429), then ``work``; every failure as the contract's JSON error."""
        trace = trace_id_of(request.scope)
        try:
            client = access.authenticate(request.headers.get("authorization"))
            access.admit(client, request.client.host if request.client else None)
            return await work(client)
        except AmicusError as err:  # a ServiceError, or the engine's error any path let through: by its code
            refusal = ServiceError.of(err)
            if refusal.status >= 500:
                log.warning("%s failed: %s", request.url.path, refusal.code, extra={"trace_id": trace})
            return error_response(refusal, trace)
        except Exception as exc:  # a bug: its type in the log, never a traceback in the body
            log.error("internal error answering %s (%s)", request.url.path, type(exc).__name__,
                      extra={"trace_id": trace})
            return error_response(internal(), trace)

    async def retrieve(request: Request) -> Response:
        async def work(client: Client) -> Response:
            # on a worker thread: a check takes time with the request's values (1,000 at most), which the
            # event loop — every other client, /health included — must not wait for (issue 30, item 1)
            small = False
            if request.method == "POST":  # the same parameters as one JSON object (request_body)
                check_media_type(request)
                body = await read_body(request)
                params = await run_in_threadpool(lambda: parse(pairs_of(body)))
            else:
                items = request.query_params.multi_items()
                # a question and a few parameters are checked at once: a thread hop costs more interpreter lock
                # than the check (docs/PERFORMANCE.md); 1,000 filter values still go to a worker thread
                small = is_small(items)
                params = parse(items) if small else await run_in_threadpool(parse, items)
            access.permit(client, params.workspace)
            scope = Scope(params.workspace, overlays.find(params.overlay))
            small = request.method == "GET" and small
            answered = await _unless_gone(request.receive, library.retrieve(params, scope, inline=small))
            if answered is None:
                request.scope["state"]["client_gone"] = True
                return Response(status_code=CLIENT_GONE)
            k = answered.result.context.k if answered.result.context is not None else params.k
            answer = retrieve_body(answered.result, answered.names, k=k, trace_id=trace_id_of(request.scope))
            # a POST is not a conditional read (RFC 9110: If-None-Match there means 412): it gets the ETag only
            return cached_json(answer, request.headers.get("if-none-match") if request.method == "GET" else None)
        return await guarded(request, work)

    async def passage(request: Request) -> Response:
        async def work(client: Client) -> Response:
            params = parse_passage_params(request.query_params.multi_items())
            access.permit(client, params.workspace)
            found = await library.read(
                lambda store, facts: read_passage(store, facts, params.ref, params.translation))
            return cached_json({**found.to_json(), "trace_id": trace_id_of(request.scope)},
                               request.headers.get("if-none-match"))
        return await guarded(request, work)

    async def verses(request: Request) -> Response:
        async def work(client: Client) -> Response:
            params = await run_in_threadpool(parse_verses_params, request.query_params.multi_items())
            access.permit(client, params.workspace)
            result = await _unless_gone(request.receive, library.verses(params))
            if result is None:
                request.scope["state"]["client_gone"] = True
                return Response(status_code=CLIENT_GONE)
            return JSONResponse({**result.to_json(), "trace_id": trace_id_of(request.scope)})
        return await guarded(request, work)

    async def health(request: Request) -> Response:
        trace = trace_id_of(request.scope)
        try:
            info = await library.info()
        except ServiceError as err:
            return JSONResponse({"status": "unavailable", **err.to_json(), "trace_id": trace}, status_code=503)
        proxy = "online" if await library.proxy_online() else "offline"
        return JSONResponse({"status": "ok",
                             "library": {"chunks": info.chunk_count, "model": info.model_id, "dims": info.dims},
                             "proxy": proxy, "trace_id": trace})

    async def openapi(request: Request) -> Response:
        return JSONResponse(document())

    async def http_error(request: Request, exc: Exception) -> Response:
        status = getattr(exc, "status_code", 500)
        if status == 405:
            allow = (getattr(exc, "headers", None) or {}).get("Allow", "GET")
            err = ServiceError(ServiceCode.METHOD_NOT_ALLOWED, f"Only {allow} is allowed here.", {"Allow": allow})
        elif status == 404:
            err = ServiceError(ServiceCode.NOT_FOUND,
                               "No such endpoint: use GET or POST /retrieve, GET /passage, GET /verses, "
                               "POST /mcp, GET /health or GET /openapi.json.")
        else:
            err = ServiceError(ServiceCode.BAD_REQUEST, "The request could not be handled.")
        return error_response(err, trace_id_of(request.scope))

    async def internal_error(request: Request, exc: Exception) -> Response:
        log.error("internal error (%s)", type(exc).__name__, extra={"trace_id": trace_id_of(request.scope)})
        return error_response(internal(), trace_id_of(request.scope))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        try:
            async with mcp.running():
                yield
        finally:
            await library.aclose()

    app = Starlette(
        routes=[
            Route("/retrieve", retrieve, methods=["GET", "POST"]),
            Route("/passage", passage, methods=["GET"]),
            Route("/verses", verses, methods=["GET"]),
            Route("/health", health, methods=["GET"]),
            Route("/openapi.json", openapi, methods=["GET"]),
            Route("/mcp", mcp, methods=["POST"]),
        ],
        exception_handlers={HTTPException: http_error, Exception: internal_error},
        middleware=[Middleware(RequestLimits, max_head=MAX_HEAD), *middleware],
        lifespan=lifespan,
    )
    return Observe(app)


async def _unless_gone(receive: Receive, work: Awaitable[T]) -> T | None:
    """``await work``, or ``None`` (and ``work`` cancelled) when the client disconnects first: a client
    that hung up (or a load balancer that gave up on it) does not keep a search running for nobody."""
    task: asyncio.Future[T] = asyncio.ensure_future(work)
    watcher = asyncio.ensure_future(_disconnected(receive))
    try:
        done, _ = await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
    except BaseException:  # the server is stopping: stop the work too
        task.cancel()
        watcher.cancel()
        raise
    watcher.cancel()
    if task in done:
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await task
    return None


async def _disconnected(receive: Receive) -> Any:
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return message
