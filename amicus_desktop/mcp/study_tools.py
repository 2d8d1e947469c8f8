"""The study tools: ``cross_references`` and ``strongs`` (section 16's ``xrefs`` and ``strongs``, the same
functions and answers), ``list_notes`` and ``add_note`` (the server's workspace, section 11). CONTRACT section 10.

The notes tools read and write only the workspace the server was started for (``--workspace``): a server
without one answers ``NO_WORKSPACE``, and ``add_note`` writes only on a server started with
``--allow-writes`` (``WRITES_DISABLED`` otherwise). A note is saved first, then embedded with the library's
model when the proxy answers (as ``notes add`` does); until then it is searched by its words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Literal, TypeVar

from mcp.types import CallToolResult, ToolAnnotations

from ..core.errors import AmicusError, ErrorCode
from ..core.references import PassageRef
from ..core.results import ModelInfo
from ..notes import NotesError, Workspace, parse_ref
from ..notes.embedding import embed_pending
from ..notes.errors import STORE_CODES
from ..notes.postgres import open_store
from ..notes.store import store_errors
from ..serve.errors import ServiceCode, ServiceError, bad_request
from ..serve.library import Facts
from ..store.library import LibraryStore
from ..store.study import tables_of
from ..study import XrefSource, parse_sources, strongs_study
from ..study import cross_references as xrefs_of
from ..study.xrefs import DEFAULT_LIMIT
from ..understand import PassageError, parse_passage, resolve_book_name
from .server import READ_ONLY, LibraryServer, Toolbox
from .shapes import label_of
from .sizing import Detail, MaxTokens, Ranked, text_hash

T = TypeVar("T")
Source = Literal["henry", "scofield", "chain", "nave", "meaning"]
#: the most cross-references one call may ask for
MAX_XREFS = 200
WRITES = ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False)


def _verse(text: str, facts: Facts) -> PassageRef:
    try:
        ref = parse_passage(text, facts.book_ids)
    except PassageError as exc:
        raise AmicusError(ErrorCode.QUERY_INVALID, str(exc)) from None
    if ref.verse_start is None:
        raise AmicusError(ErrorCode.QUERY_INVALID, f"{ref.label()} is a chapter: name a verse, e.g. {ref.label()}:1.")
    return ref


def _notes_error(err: NotesError) -> ServiceError:
    if err.code in STORE_CODES:
        return ServiceError.of(err)
    return bad_request(err.message)  # a note that is not one, a reference that is not one


def register(server: LibraryServer, box: Toolbox) -> None:
    library = box.library

    @server.tool(name="cross_references", annotations=READ_ONLY)
    async def cross_references(reference: str, sources: list[Source] | None = None, limit: int = DEFAULT_LIMIT,
                                    detail: Detail | None = None, max_tokens: MaxTokens | None = None,
                                    cursor: str | None = None) -> CallToolResult:
        """The cross-references of a verse, best first, each with the sources naming it.

        reference: one verse ("Romans 3:23"). sources: only these (henry, scofield — their notes on the
        verse; chain — Scofield's chains; nave — Nave's topics; meaning — the verses nearest in meaning,
        a guess, not a citation); all by default. limit: at most this many (1-200, default 60). A passage
        scores the kinds of source that agree on it. detail, max_tokens, cursor: as for search_library.
        """
        async def make() -> Ranked:
            if not 1 <= limit <= MAX_XREFS:
                raise bad_request(f"limit must be between 1 and {MAX_XREFS}.")

            def read(store: LibraryStore, facts: Facts) -> dict[str, Any]:
                chosen: tuple[XrefSource, ...] = parse_sources(sources or ())
                return xrefs_of(tables_of(store), _verse(reference, facts), chosen, limit).to_json()

            body = await library.read(read)
            items = body.pop("cross_references")
            body.pop("count", None)  # page.total says it
            for item in items:
                item["text_sha256"] = text_hash(item["text"])
            body["library"] = await box.provenance()
            return Ranked(body, items)

        arguments = {"reference": reference, "sources": sources, "limit": limit}
        return await box.answer("cross_references", arguments, (detail, max_tokens, cursor), make)

    @server.tool(annotations=READ_ONLY)
    async def strongs(number: str, book: str | None = None, detail: Detail | None = None,
                      max_tokens: MaxTokens | None = None, cursor: str | None = None) -> CallToolResult:
        """A Strong's number: its lexicon entries, word studies and every KJV verse whose words carry it.

        number: G26 (agapē), H7225, g0026. book: only this book's verses in the concordance ("John").
        The items are the entries, then the word studies, then the verses (kind: entry, word_study,
        verse). detail, max_tokens, cursor: as for search_library.
        """
        async def make() -> Ranked:
            book_id = None
            if book is not None:
                book_id = resolve_book_name(book)
                if book_id is None:
                    raise bad_request(f"No book of the Bible is called {book[:40]!r}.")
            study = (await library.read(
                lambda store, _facts: strongs_study(tables_of(store), number, book_id))).to_json()
            items: list[dict[str, Any]] = []
            for kind, key in (("entry", "entries"), ("word_study", "word_studies"), ("verse", "concordance")):
                for item in study.pop(key):
                    items.append({"kind": kind, **item, "text_sha256": text_hash(item["text"])})
            study.pop("count", None)
            study["library"] = await box.provenance()
            return Ranked(study, items)

        arguments = {"number": number, "book": book}
        return await box.answer("strongs", arguments, (detail, max_tokens, cursor), make)

    async def on_workspace(fn: Callable[[Workspace], T]) -> T:
        """``fn`` of the server's workspace, in a notes store opened for the call (off the event loop)."""
        workspace = box.scope.workspace
        if workspace is None:
            raise ServiceError(ServiceCode.NO_WORKSPACE, "This server has no workspace: start it with "
                                                         "--workspace W to read and write W's notes.")

        def run() -> T:
            with store_errors(), open_store(library.notes_store) as store:  # --notes-store, or the file
                return fn(store.workspace(workspace))
        try:
            return await asyncio.to_thread(run)
        except NotesError as err:
            raise _notes_error(err) from None

    def note_item(note: Any) -> dict[str, Any]:
        item = note.to_json()
        return {**item, "label": label_of(item["ref"]), "text_sha256": text_hash(note.text)}

    @server.tool(annotations=READ_ONLY)
    async def list_notes(ref: str | None = None, detail: Detail | None = None, max_tokens: MaxTokens | None = None,
                         cursor: str | None = None) -> CallToolResult:
        """The notes of the server's workspace (the reader's own), oldest first; ref: only notes on this
        passage ("Romans 9"). detail, max_tokens, cursor: as for search_library."""
        async def make() -> Ranked:
            try:
                on = parse_ref(ref) if ref is not None else None
            except NotesError as err:
                raise _notes_error(err) from None
            notes = await on_workspace(lambda ws: ws.notes(on))
            return Ranked({"workspace": box.scope.workspace, "library": await box.provenance()},
                          [note_item(n) for n in notes])

        return await box.answer("list_notes", {"ref": ref}, (detail, max_tokens, cursor), make)

    @server.tool(annotations=WRITES)
    async def add_note(text: str, ref: str | None = None, detail: Detail | None = None,
                       max_tokens: MaxTokens | None = None) -> CallToolResult:
        """Save a note in the server's workspace (only on a server started with --allow-writes).

        text: the note. ref: the passage it is on ("Romans 9:11"). The note is searched with the library
        by the workspace's questions from then on.
        """
        async def make() -> Ranked:
            if not box.allow_writes:
                raise ServiceError(ServiceCode.WRITES_DISABLED, "This server does not write notes: it was started "
                                                                "without --allow-writes.")
            try:
                on = parse_ref(ref) if ref is not None else None
            except NotesError as err:
                raise _notes_error(err) from None
            note = await on_workspace(lambda ws: ws.add(text, on))
            info = await library.info()
            model = ModelInfo(info.model_id, info.dims)
            await embed_pending(on_workspace, library.embedder, model)  # stops quietly when the proxy is away
            embedded = await on_workspace(lambda ws: ws.get(note.id).embedded_with(model.id))
            return Ranked({"workspace": box.scope.workspace, "embedded": embedded,
                           "library": await box.provenance()}, [note_item(note)])

        return await box.answer("add_note", {"text": text, "ref": ref, "nonce": id(object())},
                                (detail, max_tokens, None), make)
