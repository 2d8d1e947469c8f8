"""``/mcp``: the MCP tools over the SDK's streamable HTTP transport, on the service (CONTRACT sections 9 and 10).

The same tools as ``amicus-desktop mcp`` (:func:`amicus_desktop.mcp.server.build_server`), behind the service's
own gate, in its order: the token (401), its rate (429), the endpoint's parameters — ``workspace`` and
``overlay`` in the query string, nothing else (400) — the workspace (403), the overlay (404, or 400
``NO_OVERLAY`` on a service that requires one), then the body's media type (415) and declared size (413), as
``POST /retrieve``'s. A refusal is the service's JSON error with its trace id; a request that passes is the
SDK's (JSON-RPC over HTTP POST, answered as JSON: the transport runs stateless, so any replica can answer any
request and a cursor continues across them, :mod:`amicus_desktop.mcp.sizing`). Only ``POST`` is routed here:
the transport's ``GET`` (a stream for the server's own messages) and ``DELETE`` (a session's end) have nothing
to serve without a session, and a ``GET`` stream would hold its connection open for ever — both are 405.
The OpenAPI document describes the endpoint (:func:`amicus_desktop.serve.openapi.document`).

Every call of the request is scoped to that workspace and overlay (:data:`amicus_desktop.mcp.server.CALL_SCOPE`):
a client reads the notes of the workspace its URL names and its token may use, and no other — as
``/retrieve?workspace=`` does. ``add_note`` writes only on a service started with ``--allow-writes``. The Host
check (DNS rebinding) is the service's own middleware, which runs before this; the SDK's is not used.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.requests import Request
from starlette.types import Receive, Send
from starlette.types import Scope as AsgiScope

from ..mcp.server import CALL_SCOPE, build_server
from .access import Access
from .errors import ServiceCode, ServiceError
from .library import Library
from .observe import trace_id_of
from .params import _overlay, _workspace, gather
from .request_body import check_media_type
from .scope import Overlays, Scope

#: ``/mcp``'s query parameters
NAMES = ("workspace", "overlay")
#: bytes of a JSON-RPC request accepted (a 2,000-character question and its arguments fit many times)
MAX_BODY = 1024 * 1024


class McpEndpoint:
    """The ASGI app at ``/mcp``: the gate, then the SDK's transport with the call's scope set."""

    def __init__(self, library: Library, access: Access, overlays: Overlays, *, allow_writes: bool = False) -> None:
        self.access = access
        self.overlays = overlays
        self.server = build_server(library, Scope(), allow_writes=allow_writes)
        self.manager = StreamableHTTPSessionManager(app=self.server._lowlevel_server, json_response=True,
                                                    stateless=True, max_request_body_size=MAX_BODY)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[None]:
        """The transport's task group, for the app's lifespan."""
        async with self.manager.run():
            yield

    def scope_of(self, request: Request) -> Scope:
        """The gate, in the service's order: token, rate, parameters, workspace, overlay."""
        client = self.access.authenticate(request.headers.get("authorization"))
        self.access.admit(client, request.client.host if request.client else None)
        given = gather(request.query_params.multi_items(), NAMES, (), "")
        workspace = _workspace(given.get("workspace"))
        overlay_name = _overlay(given.get("overlay"))
        self.access.permit(client, workspace)
        found = Scope(workspace, self.overlays.find(overlay_name))
        check_media_type(request)
        declared = request.headers.get("content-length", "").strip()
        if declared.isdigit() and int(declared) > MAX_BODY:  # (a body sent without its length: the SDK counts)
            raise ServiceError(ServiceCode.BODY_TOO_LARGE, f"The request body is larger than {MAX_BODY:,} bytes.")
        return found

    async def __call__(self, scope: AsgiScope, receive: Receive, send: Send) -> None:
        from .app import error_response

        request = Request(scope, receive)
        try:
            call_scope = self.scope_of(request)
        except ServiceError as err:
            await error_response(err, trace_id_of(scope))(scope, receive, send)
            return
        token = CALL_SCOPE.set(call_scope)
        try:
            await self.manager.handle_request(scope, receive, send)
        finally:
            CALL_SCOPE.reset(token)
