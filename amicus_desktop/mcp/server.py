"""The MCP server (CONTRACT section 10): the library's study tools, built with the official SDK.

Built with the SDK's :class:`~mcp.server.mcpserver.MCPServer`. Each tool turns its arguments into the
engine's own request — the retrieval service's parameters (:mod:`amicus_desktop.serve.params`, so a
question ranks exactly as ``query`` and ``GET /retrieve`` rank it), ``verses``' request, the study
aids' functions — and has no ranking rule of its own. The tools are registered by :mod:`.tools`
(search and reading) and :mod:`.study_tools` (cross-references, Strong's, notes); :class:`Toolbox` is
what they share: the library, the scope, the rankings kept for their next pages (:mod:`.sizing`) and
each answer's provenance (:mod:`.provenance`).

A result carries structured content (the data, valid against the tool's published output schema,
:mod:`.schemas`) and text (what a model reads: titles, citations, scores). A failure is a tool result with
``isError`` whose text begins with the contract's code (``OFFLINE: …``); that includes arguments the
tool's input schema refuses — a wrong type, with no coercion (``k=true`` is not 1), or a key it does not
name (``BAD_REQUEST: …``, :mod:`.protocol`) — and bugs (``INTERNAL: …``, details in the log).

The workspace and overlay are the server's (``--workspace``, ``--overlay``): one MCP server serves one
reader's scope, checked when it starts. Under an overlay a tool argument the client leaves out (``k``,
``mode``) is the overlay's, as a flag not given is for ``query``; one it gives wins.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations

from .. import __version__
from ..core.errors import AmicusError
from ..serve.errors import ServiceError, bad_request, internal
from ..serve.library import Library
from ..serve.scope import Scope
from .protocol import AnsweringStream, ArgumentCheck, strict
from .provenance import LibraryIds
from .schemas import output_schema
from .shapes import SHAPES
from .sizing import Ranked, Rankings, page, ranking_key, read_cursor, sizing, stale

log = logging.getLogger("amicus.mcp")

INSTRUCTIONS = (
    "A library of Bible study material (commentary by named scholars, word studies, lexicon entries, "
    "cross-references) with the Bible text. search_library finds the passages of the library that answer a "
    "question, ranked, with why; get_context gives them as one block to quote from, with a citation line "
    "each; read_passage gives the verses of a reference; search_verses finds verses; cross_references and "
    "strongs are the study aids. Every tool takes detail (ids, brief, full) and max_tokens; a result that was "
    "cut says so and gives next_cursor for the rest. Cite what you use by its citation line."
)
#: characters of a refusal's text kept (an SDK validation message repeats the arguments)
MAX_ERROR_TEXT = 500
#: the scope of the call being answered, when it is not the server's own: ``/mcp`` on the service sets it from
#: each request's ``workspace`` and ``overlay`` (:mod:`amicus_desktop.serve.mcp_http`)
CALL_SCOPE: contextvars.ContextVar[Scope | None] = contextvars.ContextVar("amicus_mcp_scope", default=None)
READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                            open_world_hint=False)


def error_result(err: ServiceError) -> CallToolResult:
    """A tool error whose text begins with the code (CONTRACT section 10)."""
    text = f"{err.code}: {err.message}"
    return CallToolResult(content=[TextContent(type="text", text=text[:MAX_ERROR_TEXT])],
                          structured_content=err.to_json(), is_error=True)


def ok_result(text: str, data: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


class LibraryServer(MCPServer[Any]):
    """``MCPServer`` whose every failure — the SDK's own argument checks included — is a coded tool error,
    whose tools take exactly the arguments their schemas name (:mod:`.protocol`) and publish their output
    schemas, and which answers a line on stdin that is not JSON-RPC with the protocol's error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._checks: dict[str, ArgumentCheck] = {}

    def make_strict(self) -> None:
        """Publish every tool's input schema with ``additionalProperties: false`` and check calls against it;
        publish its output schema (:mod:`.schemas`)."""
        for tool in self._tool_manager.list_tools():
            self._checks[tool.name] = ArgumentCheck(strict(tool.parameters))
            tool.fn_metadata.output_schema = output_schema(tool.name)
            tool.__dict__.pop("output_schema", None)  # a cached_property of the SDK's Tool

    async def run_stdio_async(self) -> None:
        """The SDK's own stdio loop (:meth:`MCPServer.run_stdio_async`), with unreadable lines answered."""
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read_stream, write_stream):
            lowlevel = self._lowlevel_server
            await lowlevel.run(AnsweringStream(read_stream, write_stream), write_stream,
                               lowlevel.create_initialization_options())

    async def call_tool(self, name: str, arguments: dict[str, Any],
                        context: Context[Any, Any] | None = None) -> CallToolResult | InputRequiredResult:
        check = self._checks.get(name)
        problem = check.problem(arguments) if check is not None else None
        if problem is not None:  # k=true ran as k=1, and an unknown key was dropped without a word
            return error_result(bad_request(problem))
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError as exc:
            log.error("tool %s failed unexpectedly (%s)", name, type(exc.__cause__).__name__)
            return error_result(internal())
        except ToolError as exc:  # an unknown tool, or arguments that do not fit its input schema
            return error_result(bad_request(str(exc)))


class Toolbox:
    """What the tools share: the library, the scope of every call, whether notes may be written, the
    rankings kept for their next pages, and the library's id for provenance."""

    def __init__(self, library: Library, scope: Scope, *, allow_writes: bool = False) -> None:
        self.library = library
        self._scope = scope
        self.allow_writes = allow_writes
        self.rankings = Rankings()
        self.ids = LibraryIds()

    @property
    def scope(self) -> Scope:
        """The scope of the call being answered: the request's on the service's ``/mcp``, else the server's."""
        return CALL_SCOPE.get() or self._scope

    @property
    def scope_names(self) -> tuple[str | None, str | None]:
        overlay = self.scope.overlay
        return self.scope.workspace, overlay.role_id if overlay is not None else None

    async def provenance(self, model: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The answer's ``library`` key: the library's id, its model, the overlay and workspace names."""
        return await self.ids.provenance(self.library, self.scope, model)

    async def answer(self, tool: str, arguments: Mapping[str, Any], sized: tuple[str | None, int | None, str | None],
                     make: Callable[[], Awaitable[Ranked]]) -> CallToolResult:
        """``tool``'s answer for ``arguments`` (its ranking arguments), cut to ``sized`` (the call's ``detail``,
        ``max_tokens`` and ``cursor``): the ranking kept
        for a cursor's next page when it is still held, made again (and checked the same) when not."""
        try:
            size = sizing(*sized)
            shape = SHAPES[tool]
            key = ranking_key(tool, arguments, self.scope_names)
            offset = 0
            if size.cursor is None:
                ranked = await make()
            else:
                offset, ranking = read_cursor(size.cursor)
                held = self.rankings.get(key, ranking)
                ranked = held if held is not None else await make()
                if ranked.hash != ranking:
                    raise stale()
            self.rankings.put(key, ranked)
            body = await asyncio.to_thread(page, ranked, shape, size, offset)  # counting tokens takes a while
            return ok_result(shape.render(body), body)
        except AmicusError as err:  # a ServiceError, or the engine's error any path let through: by its code
            return error_result(ServiceError.of(err))


def build_server(library: Library, scope: Scope | None = None, *, allow_writes: bool = False) -> LibraryServer:
    """Every tool over ``library``, for calls scoped to ``scope`` (none: the library alone); ``add_note``
    writes only when ``allow_writes``."""
    from . import study_tools, tools

    box = Toolbox(library, scope or Scope(), allow_writes=allow_writes)
    server = LibraryServer(name="amicus-desktop", version=__version__, instructions=INSTRUCTIONS,
                           log_level="WARNING")
    tools.register(server, box)
    study_tools.register(server, box)
    server.make_strict()
    return server
