"""The search and reading tools: ``search_library``, ``get_context``, ``search_verses``, ``read_passage``, and
passages as resources (``scripture://john/3/16-18?translation=kjv``). CONTRACT section 10.

Each goes through the engine the command line and the service use — ``search_library`` and ``get_context``
through the service's parameters and :meth:`~amicus_desktop.serve.library.Library.retrieve` (``query``'s
ranking), ``search_verses`` through ``GET /verses``'s parameters and ``verses``' engine, ``read_passage``
through ``GET /passage``'s reader — and is cut to the call's size by :mod:`.sizing`.
"""

from __future__ import annotations

from typing import Any, Literal

from mcp.server.mcpserver.exceptions import ResourceError
from mcp.types import CallToolResult

from ..context import DEFAULT_BUDGET, Format, WordPieceCounter, assemble
from ..core.query import DEFAULT_K
from ..knobs import BY_PARAM
from ..present import citation
from ..serve.body import retrieve_body
from ..serve.errors import ServiceError, bad_request
from ..serve.params import DEFAULT_K as SEARCH_K
from ..serve.params import parse
from ..serve.passage import read_passage as passage_of
from ..serve.reading import parse_verses_params
from .knob_args import knob_items, takes_knobs
from .server import READ_ONLY, LibraryServer, Toolbox
from .shapes import PASSAGE
from .sizing import Detail, MaxTokens, Ranked, estimate, preview, sizing, text_hash

VerseMode = Literal["semantic", "dense", "hybrid", "keyword"]
#: the kinds of ``filters``: the service's ``filter.*`` parameters (:data:`amicus_desktop.knobs.KNOBS`)
FILTER_KINDS = tuple(name.removeprefix("filter.") for name in BY_PARAM if name.startswith("filter."))
#: the resource templates of passages
PASSAGE_TEMPLATE = "scripture://{book}/{chapter}/{verses}{?translation}"
CHAPTER_TEMPLATE = "scripture://{book}/{chapter}{?translation}"
#: tokens a context block's answer holds beside its text twice (its chunks, citations, keys)
CONTEXT_OVERHEAD = 400


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


def register(server: LibraryServer, box: Toolbox) -> None:
    library = box.library
    count = WordPieceCounter()

    async def retrieve(items: list[tuple[str, str]]) -> Any:
        scope = box.scope
        if scope.workspace is not None:
            items.append(("workspace", scope.workspace))
        return await library.retrieve(parse(items), scope)

    @server.tool(annotations=READ_ONLY)
    @takes_knobs("search_library", after="query")  # k, mode, chapter: their rows of the knob table
    async def search_library(query: str, filters: dict[str, list[str]] | None = None, detail: Detail | None = None,
                             max_tokens: MaxTokens | None = None, cursor: str | None = None,
                             **knobs: Any) -> CallToolResult:
        """Find the passages of the library that answer a question, best first, with why.

        query: the question, in words ("Why did God choose Jacob over Esau?"); a reference in it
        ("Rom 9:11") boosts the chunks on that passage. k: how many results (1-50, default 5, or the
        server's overlay's). mode: dense (by meaning, the default unless the server's overlay names
        another), hybrid (meaning and words) or keyword (words only).
        chapter: the chapter the reader is on, BOOK:CHAPTER (e.g. romans:9), boosted.
        filters: only chunks matching, e.g. {"book": ["romans"], "source_type": ["section_panel"]}
        (kinds: source_type, book, scholar, tradition; OR within a kind, AND across kinds).
        detail: full (default: everything, with the breakdown of each score), brief (id, score, title,
        citation, a one-line preview) or ids. max_tokens: the most the result may hold (default 10000);
        the rest of the ranking comes with cursor=next_cursor and the same arguments.
        Returns a numbered list (title, citation, score); the structured content is the full answer.
        """
        async def make() -> Ranked:
            answer = await retrieve([("q", query), *knob_items(knobs), *_filter_items(filters)])
            used = answer.result.context.k if answer.result.context is not None else (knobs["k"] or SEARCH_K)
            body = retrieve_body(answer.result, answer.names, k=used, trace_id="")
            del body["trace_id"]  # an HTTP trace id; a tool call has none
            results = body.pop("results")
            for item, r in zip(results, answer.result.results, strict=True):
                item["text_sha256"] = text_hash(r.candidate.text)
            body["library"] = await box.provenance(body["model"])
            return Ranked(body, results)

        arguments = {"query": query, **knobs, "filters": filters}
        return await box.answer("search_library", arguments, (detail, max_tokens, cursor), make)

    @server.tool(annotations=READ_ONLY)
    @takes_knobs("get_context", after="budget", first=("chapter",))  # chapter, mode: their rows of the knob table
    async def get_context(query: str, budget: int = DEFAULT_BUDGET, detail: Detail | None = None,
                          max_tokens: MaxTokens | None = None, **knobs: Any) -> CallToolResult:
        """The passages that answer a question as one block to quote from, within a token budget.

        Each chunk opens with a citation line; chunks are grouped by source and in Bible order; the
        lowest-ranked are left out whole when the budget is reached. query: the question. budget:
        the most tokens the block may use (default 8000; lowered, and said so, when the result would
        be over max_tokens). chapter: BOOK:CHAPTER the reader is on. mode: dense (the default unless the
        server's overlay names another), hybrid or keyword. detail: full (the block), brief or ids (the
        chunks' citations, with a preview at brief). max_tokens: the most the result may hold (default 10000).
        """
        async def make() -> Ranked:
            if not isinstance(budget, int) or budget < 1:
                raise bad_request("budget must be a whole number of tokens, at least 1.")
            size = sizing(detail, max_tokens, None)
            overlay = box.scope.overlay
            overlay_k = overlay is not None and "k" in overlay.retrieval_policy
            own_k = [] if overlay_k else [("k", str(DEFAULT_K))]
            answer = await retrieve([("q", query), *own_k, *knob_items(knobs)])
            by_id = {r.candidate.chunk_id: r for r in answer.result.results}
            fitted, notes = budget, tuple[str, ...]()
            while True:
                block = assemble(answer.result.results, budget=fitted, count=count,
                                 cite=lambda r: citation(r, answer.names), fmt=Format.TEXT)
                over = 2 * estimate(block.text) + CONTEXT_OVERHEAD if size.detail == "full" else 0
                if over <= size.max_tokens or fitted <= 50:
                    break
                fitted = max(50, int(fitted * size.max_tokens / over * 0.9))
                notes = (f"the budget was lowered from {budget} to {fitted} tokens to fit max_tokens (the chunks "
                         "left out are in dropped; a larger max_tokens gives them)",)
            body: dict[str, Any] = {"query": query, **block.to_json(), "library": await box.provenance()}
            chunks = [{"id": cid, "citation": citation(by_id[cid], answer.names),
                       "text_sha256": text_hash(by_id[cid].candidate.text),
                       "preview": preview(by_id[cid].candidate.text)} for cid in block.included]
            return Ranked(body, chunks, notes)

        arguments = {"query": query, "budget": budget, **knobs}
        return await box.answer("get_context", arguments, (detail, max_tokens, None), make)

    @server.tool(annotations=READ_ONLY)
    async def search_verses(query: str, k: int | None = None, mode: VerseMode | None = None,
                            books: list[str] | None = None, testament: list[Literal["OT", "NT"]] | None = None,
                            translation: str | None = None, detail: Detail | None = None,
                            max_tokens: MaxTokens | None = None, cursor: str | None = None) -> CallToolResult:
        """Find verses of the Bible itself (not the study material): "the verse I am thinking of".

        query: words or a description ("love is patient"). k: how many results (1-50, default 10).
        mode: hybrid (default: meaning and words), semantic (= dense, meaning only) or keyword.
        books: only these books (["romans", "1 John"]); testament: ["OT"] or ["NT"]. translation: a
        translation the library holds by id or abbreviation (kjv, web); its default otherwise. A result is
        one verse or a few adjacent ones, with its reference, score and text. detail, max_tokens, cursor:
        as for search_library.
        """
        async def make() -> Ranked:
            items = [*_items(query, k=k, mode=mode, translation=translation),
                     *(("filter.book", b) for b in books or ()), *(("testament", t) for t in testament or ())]
            result = (await library.verses(parse_verses_params(items))).to_json()
            results = result.pop("results")
            for item in results:
                item["text_sha256"] = text_hash(item["text"])
            result["library"] = await box.provenance(result.get("model"))
            return Ranked(result, results)

        arguments = {"query": query, "k": k, "mode": mode, "books": books, "testament": testament,
                     "translation": translation}
        return await box.answer("search_verses", arguments, (detail, max_tokens, cursor), make)

    async def passage(reference: str, translation: str | None) -> Ranked:
        found = await library.read(lambda store, facts: passage_of(store, facts, reference, translation))
        body = found.to_json()
        verses = body.pop("verses")
        for v in verses:
            v["text_sha256"] = text_hash(v["text"])
        body["library"] = await box.provenance()
        return Ranked(body, verses)

    @server.tool(annotations=READ_ONLY)
    async def read_passage(reference: str, translation: str | None = None, detail: Detail | None = None,
                           max_tokens: MaxTokens | None = None, cursor: str | None = None) -> CallToolResult:
        """The verses of a Bible reference, with their numbers: "Romans 9:6-13", "John 3", "1 Cor 13:4-7".

        translation: a translation the library holds by id or abbreviation (kjv, web); its default
        otherwise. detail, max_tokens, cursor: as for search_library (a long passage comes in pages).
        """
        arguments = {"reference": reference, "translation": translation}
        return await box.answer("read_passage", arguments, (detail, max_tokens, cursor),
                                lambda: passage(reference, translation))

    async def read_resource(book: str, chapter: str, verses: str | None, translation: str) -> str:
        reference = f"{book.replace('-', ' ')} {chapter}" + (f":{verses}" if verses else "")
        try:
            ranked = await passage(reference, translation or None)
        except ServiceError as err:
            raise ResourceError(f"{err.code}: {err.message}") from None
        return PASSAGE.render({**ranked.header, "verses": ranked.items})  # a resource is read whole

    @server.resource(PASSAGE_TEMPLATE, name="passage", mime_type="text/plain",
                     description="The verses of a passage: scripture://john/3/16-18?translation=kjv "
                                 "(book as the library names it, '-' for a space: 1-john).")
    async def passage_resource(book: str, chapter: str, verses: str, translation: str = "") -> str:
        return await read_resource(book, chapter, verses, translation)

    @server.resource(CHAPTER_TEMPLATE, name="chapter", mime_type="text/plain",
                     description="The verses of a whole chapter: scripture://romans/9?translation=web.")
    async def chapter_resource(book: str, chapter: str, translation: str = "") -> str:
        return await read_resource(book, chapter, None, translation)
