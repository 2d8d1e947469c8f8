"""The MCP server: ``search_library``, ``get_context`` and ``read_passage`` (CONTRACT section 10).

Built with the official SDK's :class:`~mcp.server.mcpserver.MCPServer`. Each tool turns its arguments
into the retrieval service's parameters and goes through the same checks and engine
(:mod:`amicus_desktop.serve.params`, :class:`~amicus_desktop.serve.library.Library`), so a question
asked here ranks exactly as ``query`` and ``GET /retrieve`` rank it. A result carries structured
content (the data) and text (what a model reads: titles, citations, scores). A failure is a tool
result with ``isError`` whose text begins with the contract's code (``OFFLINE: …``); that includes
arguments the tool's input schema refuses — a wrong type, with no coercion (``k=true`` is not 1), or a
key it does not name (``BAD_REQUEST: …``, :mod:`.protocol`) — and bugs (``INTERNAL: …``, details in the log).

The workspace and overlay are the server's (``--workspace``, ``--overlay``): one MCP server serves one
reader's scope, checked when it starts. Under an overlay a tool argument the client leaves out (``k``,
``mode``) is the overlay's, as a flag not given is for ``query``; one it gives wins.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, InputRequiredResult, TextContent, ToolAnnotations

from .. import __version__
from ..context import DEFAULT_BUDGET, Format, WordPieceCounter, assemble
from ..core.errors import AmicusError
from ..core.query import DEFAULT_K
from ..knobs import BY_PARAM
from ..present import citation
from ..serve.body import retrieve_body
from ..serve.errors import ServiceError, bad_request, internal
from ..serve.library import Library
from ..serve.params import DEFAULT_K as SEARCH_K
from ..serve.params import parse
from ..serve.passage import read_passage as passage_of
from ..serve.scope import Scope
from .protocol import AnsweringStream, ArgumentCheck, strict
from .text import results_list

log = logging.getLogger("amicus.mcp")

Mode = Literal["dense", "hybrid", "keyword"]
#: the kinds of ``filters``: the service's ``filter.*`` parameters (:data:`amicus_desktop.knobs.KNOBS`)
FILTER_KINDS = tuple(name.removeprefix("filter.") for name in BY_PARAM if name.startswith("filter."))
INSTRUCTIONS = (
    "A library of Bible study material (commentary by named scholars, word studies, lexicon entries, "
    "cross-references) with the Bible text. search_library finds the passages of the library that answer a "
    "question, ranked, with why; get_context gives them as one block to quote from, with a citation line "
    "each; read_passage gives the verses of a reference. Cite what you use by its citation line."
)
#: characters of a refusal's text kept (an SDK validation message repeats the arguments)
MAX_ERROR_TEXT = 500


def error_result(err: ServiceError) -> CallToolResult:
    """A tool error whose text begins with the code (CONTRACT section 10)."""
    text = f"{err.code}: {err.message}"
    return CallToolResult(content=[TextContent(type="text", text=text[:MAX_ERROR_TEXT])],
                          structured_content=err.to_json(), is_error=True)


def ok_result(text: str, data: dict[str, Any]) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


class LibraryServer(MCPServer[Any]):
    """``MCPServer`` whose every failure — the SDK's own argument checks included — is a coded tool error,
    whose tools take exactly the arguments their schemas name (:mod:`.protocol`), and which answers a
    line on stdin that is not JSON-RPC with the protocol's error."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._checks: dict[str, ArgumentCheck] = {}

    def make_strict(self) -> None:
        """Publish every tool's input schema with ``additionalProperties: false`` and check calls against it."""
        self._checks = {tool.name: ArgumentCheck(strict(tool.parameters)) for tool in self._tool_manager.list_tools()}

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


async def _answer(work: Callable[[], Awaitable[CallToolResult]]) -> CallToolResult:
    try:
        return await work()
    except AmicusError as err:  # a ServiceError, or the engine's error any path let through: by its code
        return error_result(ServiceError.of(err))


def _items(query: str, **values: object) -> list[tuple[str, str]]:
    """Tool arguments as the service's ``(name, value)`` parameters (``None`` left out)."""
    items = [("q", query)]
    for name, value in values.items():
        if value is not None:
            items.append((name, str(value)))
    return items


def _filter_items(filters: dict[str, list[str]] | None) -> list[tuple[str, str]]:
    items: list[tuple[str, str]] = []
    for kind, values in (filters or {}).items():
        if kind not in FILTER_KINDS:
            raise bad_request(f"filters takes the kinds {', '.join(FILTER_KINDS)}, not {kind[:40]!r}.")
        items += [(f"filter.{kind}", v) for v in values]
    return items


def build_server(library: Library, scope: Scope | None = None) -> LibraryServer:
    """The three tools over ``library``, for requests scoped to ``scope`` (none: the library alone)."""
    scope = scope or Scope()
    server = LibraryServer(name="amicus-desktop", version=__version__, instructions=INSTRUCTIONS,
                           log_level="WARNING")
    count = WordPieceCounter()
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                open_world_hint=False)

    async def scoped(items: list[tuple[str, str]]) -> Any:
        if scope.workspace is not None:
            items.append(("workspace", scope.workspace))
        return await library.retrieve(parse(items), scope)

    @server.tool(annotations=read_only)
    async def search_library(query: str, k: int | None = None, mode: Mode | None = None, chapter: str | None = None,
                             filters: dict[str, list[str]] | None = None) -> CallToolResult:
        """Find the passages of the library that answer a question, best first, with why.

        query: the question, in words ("Why did God choose Jacob over Esau?"); a reference in it
        ("Rom 9:11") boosts the chunks on that passage. k: how many results (1-50, default 5, or the
        server's overlay's). mode: dense (by meaning, the default unless the server's overlay names
        another), hybrid (meaning and words) or keyword (words only).
        chapter: the chapter the reader is on, BOOK:CHAPTER (e.g. romans:9), boosted.
        filters: only chunks matching, e.g. {"book": ["romans"], "source_type": ["section_panel"]}
        (kinds: source_type, book, scholar, tradition; OR within a kind, AND across kinds).
        Returns a numbered list (title, citation, score); the structured content is the full answer.
        """
        async def work() -> CallToolResult:
            answer = await scoped([*_items(query, k=k, mode=mode, chapter=chapter), *_filter_items(filters)])
            used = answer.result.context.k if answer.result.context is not None else (k or SEARCH_K)
            body = retrieve_body(answer.result, answer.names, k=used, trace_id="")
            del body["trace_id"]  # an HTTP trace id; a tool call has none
            return ok_result(results_list(body), body)
        return await _answer(work)

    @server.tool(annotations=read_only)
    async def get_context(query: str, budget: int = DEFAULT_BUDGET, chapter: str | None = None,
                          mode: Mode | None = None) -> CallToolResult:
        """The passages that answer a question as one block to quote from, within a token budget.

        Each chunk opens with a citation line; chunks are grouped by source and in Bible order; the
        lowest-ranked are left out whole when the budget is reached. query: the question. budget:
        the most tokens the block may use (default 8000). chapter: BOOK:CHAPTER the reader is on.
        mode: dense (the default unless the server's overlay names another), hybrid or keyword.
        """
        async def work() -> CallToolResult:
            if not isinstance(budget, int) or budget < 1:
                raise bad_request("budget must be a whole number of tokens, at least 1.")
            overlay_k = scope.overlay is not None and "k" in scope.overlay.retrieval_policy
            answer = await scoped(_items(query, k=None if overlay_k else DEFAULT_K, mode=mode, chapter=chapter))
            block = assemble(answer.result.results, budget=budget, count=count,
                             cite=lambda r: citation(r, answer.names), fmt=Format.TEXT)
            return ok_result(block.text, block.to_json())
        return await _answer(work)

    @server.tool(annotations=read_only)
    async def read_passage(reference: str) -> CallToolResult:
        """The verses of a Bible reference, with their numbers: "Romans 9:6-13", "John 3", "1 Cor 13:4-7"."""
        async def work() -> CallToolResult:
            passage = await library.read(lambda store, facts: passage_of(store, facts, reference))
            return ok_result(passage.text, passage.to_json())
        return await _answer(work)

    server.make_strict()
    return server
