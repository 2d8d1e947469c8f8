"""``retrieve(ctx) -> RetrievalResult``: understand, embed, gather candidates, re-rank, bundle — timed.

The one orchestrator of a question (CONTRACT sections 3, 6 and 7)::

    understand  references and keywords of the question          (understand/, pure)
    embed       the question's vector, unless the mode is keyword  (embedding/, HTTP)
    candidates  dense, keyword, referenced passages, pins          (candidates/, DB thread)
    rerank      base × boosts, order, cap, cutoff; pins first      (rerank/, pure)
    bundle      warnings and diagnostics                           (bundle/, pure)

:class:`Retriever` is what the app and the CLI hold. It owns

* one :class:`~amicus_desktop.embedding.EmbedClient` (one HTTP client, a session cache of vectors), and
* one :class:`~amicus_desktop.store.LibraryStore` that lives on a dedicated worker thread with
  its own connection: every DB call goes through :meth:`Retriever.run_db`, so an event loop
  (the Qt one included) never blocks on SQLite;
* the reader's notes store, on the same thread, opened the first time a question is scoped to a
  workspace (:mod:`.notes`): that workspace's notes join the candidates, and no other's ever do.

Errors are checked in the contract's order: ``QUERY_INVALID`` (no I/O), the database, the proxy,
then ``DIMENSION_MISMATCH`` and ``MODEL_MISMATCH``.
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import TypeVar

from ..bundle import diagnostics, floor_for, lasting_warnings, provenance, ranking_warnings
from ..candidates.lexical import KeywordIndex
from ..candidates.pool import Pool
from ..core.bundle import Coverage
from ..core.errors import AmicusError, ErrorCode
from ..core.query import MAX_CANDIDATES, MAX_K, MAX_QUERY_CHARS, USER_NOTE, RetrievalContext, SearchMode
from ..core.results import Candidate, ModelInfo, QueryTrace, RetrievalResult, Timings
from ..core.scholars import resolve
from ..core.text import echo
from ..embedding.client import EmbedClient, check_against_db
from ..notes.model import WORKSPACE_ID
from ..rerank import rerank
from ..rerank.base import base_scores
from ..store.library import LibraryStore, library_location, open_library
from ..store.scripture import StoreInfo
from ..understand.books import books_needed
from ..understand.query import plan
from .notes import RetrieverNotes

log = logging.getLogger("amicus.retrieval")

T = TypeVar("T")


def validate_query(query: str) -> str:
    """The query to embed, or ``QUERY_INVALID``. The message never repeats the query."""
    if not isinstance(query, str) or not query.strip():
        raise AmicusError(ErrorCode.QUERY_INVALID, "The question is empty. Type a question to search for.")
    if len(query) > MAX_QUERY_CHARS:
        raise AmicusError(
            ErrorCode.QUERY_INVALID,
            f"The question is {len(query):,} characters long; the limit is {MAX_QUERY_CHARS:,}. Shorten it.",
        )
    try:
        query.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: not text any proxy can embed
        raise AmicusError(
            ErrorCode.QUERY_INVALID, "The question holds characters that are not valid text. Retype it."
        ) from None
    return query.strip()


def validate_request(ctx: RetrievalContext) -> None:
    """Usage errors (``ValueError``) of a context, before any I/O: limits (filter values included), weights,
    the fusion, and a threshold keyword mode cannot use. The one home of these rules: the flags,
    ``eval --compare`` and the app all use it."""
    validate_limits(ctx.k, ctx.candidates)
    ctx.weights.check()
    if ctx.workspace is not None and not WORKSPACE_ID.fullmatch(ctx.workspace):
        raise ValueError("a workspace id is 1–64 characters of lower-case letters a-z, digits and '-'")
    too_many = ctx.filters.too_many()
    if too_many is not None:
        raise ValueError(too_many)
    if ctx.min_similarity is not None and ctx.mode is SearchMode.KEYWORD:
        raise ValueError("a minimum similarity needs a vector: use it with semantic or hybrid search")
    if not 0.0 <= ctx.fusion.alpha <= 1.0 or ctx.fusion.rrf_k < 1:  # NaN fails both comparisons
        raise ValueError("the fusion's alpha must be in 0..1 and its rrf k at least 1")


def validate_limits(k: int, candidates: int) -> None:
    """``k`` in 1..50, ``candidates`` in 1..4096 and at least ``k`` (a usage error otherwise)."""
    if not 1 <= k <= MAX_K:
        raise ValueError(f"k must be between 1 and {MAX_K}, not {k}")
    if not 1 <= candidates <= MAX_CANDIDATES:
        raise ValueError(f"candidates must be between 1 and {MAX_CANDIDATES}, not {candidates}")
    if candidates < k:
        raise ValueError(f"candidates ({candidates}) must be at least k ({k})")


def rerank_result(result: RetrievalResult, ctx: RetrievalContext) -> RetrievalResult:
    """Re-rank a result's kept candidates for a new chapter, profile or weights: no embedding, no search.

    ``ctx.k``, ``ctx.min_similarity`` and the fusion apply too; a new mode, filters, pins or a larger
    ``ctx.candidates`` than was searched need a new :meth:`Retriever.retrieve` (which reuses the
    cached vector).
    """
    if not 1 <= ctx.k <= MAX_K:
        raise ValueError(f"k must be between 1 and {MAX_K}, not {ctx.k}")
    ctx = ctx.replace(mode=result.mode)
    t0 = time.perf_counter()
    results, rejected = rerank(result.candidates, ctx, result.pinned, result.trace.references, result.quoted)
    warnings = ranking_warnings(results, rejected, ctx, floor_for(result.model.id, ctx.mode), result.spelling)
    ms = (time.perf_counter() - t0) * 1000
    return replace(
        result,
        results=tuple(results),
        rejected=tuple(rejected),
        timings=Timings(rerank=ms, total=ms),
        context=ctx,
        warnings=(*result.lasting_warnings, *warnings),
        diagnostics=diagnostics(result.candidates, rejected, result.diagnostics.coverage),
        trace=replace(result.trace, overlay=ctx.governance.role_id if ctx.governance else None),
        provenance=provenance(results, result.scholar_names),
    )


class Retriever:
    """Embeds through the proxy, searches scripture.db on its own thread, re-ranks."""

    def __init__(
        self,
        db_path: str | Path,
        proxy_url: str,
        token: str | None = None,
        *,
        embed_client: EmbedClient | None = None,
        two_stage: str | None = None,
        notes_path: Path | str | None = None,
    ) -> None:
        #: a scripture.db path, or a ``postgresql://`` URL of a library there (kept as text)
        self.db_path = library_location(db_path)
        #: How the dense search finds candidates: ``auto``, ``on`` or ``off`` (see
        #: :mod:`amicus_desktop.store.twostage`); ``None`` reads ``AMICUS_TWO_STAGE``.
        self.two_stage = two_stage
        self.embedder = embed_client or EmbedClient(proxy_url, token)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="amicus-db")
        self._store: LibraryStore | None = None
        self._prepared: asyncio.Future[None] | None = None
        self._stat: tuple[int, int, int, int] | None = None
        #: the reader's notes (``notes_path``: the store's file or a ``postgresql://`` URL; default the data folder's)
        self.notes = RetrieverNotes(notes_path)

    # -- the database thread ---------------------------------------------------------------
    def _file_stat(self) -> tuple[int, int, int, int] | None:
        """What tells one version of the file from another. ``st_ctime_ns`` too: a copy that keeps its
        source's time (``cp -p``, ``shutil.copy2``) can land on a freed inode with the same size, and only
        the change time, which no copy can set, tells it from the file it replaced."""
        try:
            st = os.stat(self.db_path)
        except (OSError, ValueError):  # ValueError: a NUL byte in the path
            return None
        return (st.st_ino, st.st_mtime_ns, st.st_size, st.st_ctime_ns)

    def _ensure_store(self) -> LibraryStore:
        """(DB thread) The open store, reopened when the file was replaced or deleted."""
        stat = self._file_stat()
        if self._store is not None and stat == self._stat and not self._store.replaced():
            return self._store
        if self._store is not None:
            log.info("scripture.db changed on disk; reopening")
            self._store.close()
            self._store = None
        if "\x00" in str(self.db_path):  # only a damaged settings file can hold one; no file has such a name
            raise AmicusError(
                ErrorCode.DB_NOT_FOUND,
                f"No database at {echo(str(self.db_path), 200)}: the path holds a NUL byte, which no file name can. "
                "Choose the database again in Settings or pass --db PATH.",
            )
        self._store = open_library(self.db_path)
        self._stat = stat
        return self._store

    async def run_db(self, fn: Callable[[LibraryStore], T]) -> T:
        """Run ``fn(store)`` on the DB thread and await its result."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, lambda: fn(self._ensure_store()))

    async def open(self) -> StoreInfo:
        """Open (or re-validate) the database and return what it holds."""
        return await self.run_db(lambda store: store.info)

    async def _prepare(self, mode: SearchMode) -> None:
        """(DB thread, while the proxy embeds the question) open the library's vector index and keyword index,
        which the search would otherwise open first: the two-stage codes and the keyword index's check cost
        ≈ 25 ms on the whole Bible. The same objects the search then uses; a failure is left for it to meet."""
        def prepare(store: LibraryStore) -> None:
            store.vector_index(self.two_stage)
            if mode is not SearchMode.SEMANTIC:
                _ = store.full_text

        try:
            await self.run_db(prepare)
        except Exception:  # the search opens them again and reports what fails
            log.debug("preparing the indexes failed; the search will say why", exc_info=True)

    # -- retrieval -------------------------------------------------------------------------
    async def retrieve(self, ctx: RetrievalContext) -> RetrievalResult:
        """Answer ``ctx.query`` in ``ctx.mode``: ``ctx.candidates`` per search, re-ranked to ``ctx.k``."""
        t_start = time.perf_counter()
        text = validate_query(ctx.query)
        validate_request(ctx)
        query_plan = plan(text, ctx.governance.boost_terms if ctx.governance else (),
                          framing=not ctx.policy.topic_words)
        info = await self.open()
        if ctx.mode.embeds:  # the indexes the search reads first are opened while the question is embedded
            self._prepared = asyncio.ensure_future(self._prepare(ctx.mode))

        t0 = time.perf_counter()
        vector = None
        cached = False
        model = ModelInfo(info.model_id, info.dims)
        if ctx.mode.embeds:
            embedding = await self.embedder.embed(text)
            check_against_db(embedding, info.dims, info.model_id)
            vector, model, cached = embedding.vector, embedding.model, embedding.cached
        t_embed = (time.perf_counter() - t0) * 1000

        t0 = time.perf_counter()

        def search(store: LibraryStore) -> tuple[Pool, int | None, dict[str, str], Coverage]:
            found, pending = self.notes.gather(store, query_plan, ctx, vector, info.model_id, self.two_stage)
            return found, pending, scholar_names(store, [*found.candidates, *found.pinned]), store.coverage()

        pool, pending, names, coverage = await self.run_db(search)
        if pending and ctx.workspace is not None and vector is not None:  # rare: notes not embedded yet
            library = ModelInfo(info.model_id, info.dims)
            if await self.notes.catch_up(self._run, ctx.workspace, self.embedder, library):
                pool, pending, names, coverage = await self.run_db(search)  # again, with the notes it just embedded
        t_search = (time.perf_counter() - t0) * 1000

        floor = floor_for(model.id, ctx.mode)
        spelling: dict[str, str] = {}
        if floor is not None and query_plan.keywords and pool.candidates:
            bases = base_scores(pool.candidates, ctx.mode, ctx.fusion)
            if max(bases.values()) < floor.base:  # no result can be a strong match: look for misspellings
                words = query_plan.keywords
                spelling = await self.run_db(lambda store: not_in_the_bible(
                    store, KeywordIndex.for_store(store).suggestions(words)))

        t0 = time.perf_counter()
        results, rejected = rerank(pool.candidates, ctx, pool.pinned, query_plan.references, pool.quoted)
        needed = [*books_needed(text, query_plan.references), *([ctx.chapter.book_id] if ctx.chapter else []),
                  *ctx.filters.books]
        lasting = lasting_warnings(pool.missing_references, pool.missing_pins, pending or 0, needed_books=needed,
                                   coverage=coverage)
        warnings = ranking_warnings(results, rejected, ctx, floor, spelling)
        t_rerank = (time.perf_counter() - t0) * 1000
        timings = Timings(
            embed=t_embed, search=t_search, rerank=t_rerank, total=(time.perf_counter() - t_start) * 1000,
            dense=pool.timings.get("dense", 0.0), keyword=pool.timings.get("keyword", 0.0),
            references=pool.timings.get("references", 0.0), notes=pool.timings.get("notes"),
        )
        log.info(
            "retrieved",
            extra={
                "mode": ctx.mode.value,
                "timing_ms": timings.to_json(),
                "candidates": len(pool.candidates),
                "results": len(results),
                "rejected": len(rejected),
                "warnings": [w.code.value for w in warnings],
                "query_chars": len(ctx.query),
                **({"note_candidates": sum(c.source_type == USER_NOTE for c in pool.candidates),
                    "notes_pending": pending} if pending is not None else {}),
            },
        )
        return RetrievalResult(
            query=ctx.query,
            model=model,
            results=tuple(results),
            rejected=tuple(rejected),
            timings=timings,
            candidates=tuple(pool.candidates),
            context=ctx,
            trace=QueryTrace(
                mode=ctx.mode,
                references=query_plan.references,
                filters=ctx.filters,
                pins=ctx.pins,
                candidates_requested=ctx.candidates,
                keywords=query_plan.keywords if ctx.mode is not SearchMode.SEMANTIC else (),
                embedding_cached=cached,
                keyword_index=pool.keyword_index,
                overlay=ctx.governance.role_id if ctx.governance else None,
            ),
            warnings=(*lasting, *warnings),
            diagnostics=diagnostics(pool.candidates, rejected, coverage),
            pinned=tuple(pool.pinned),
            lasting_warnings=tuple(lasting),
            spelling=spelling,
            provenance=provenance(results, names),
            scholar_names=names,
            quoted=pool.quoted,
        )

    async def _run(self, fn: Callable[[], T]) -> T:
        """Run ``fn()`` on the DB thread (the notes store lives there too)."""
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    async def aclose(self) -> None:
        await self.embedder.aclose()
        if self._prepared is not None:
            await asyncio.wait([self._prepared])
        store, self._store = self._store, None
        if store is not None:
            await self._run(store.close)
        await self._run(self.notes.close)
        self._executor.shutdown(wait=True)


def not_in_the_bible(store: LibraryStore, spelling: dict[str, str]) -> dict[str, str]:
    """(DB thread) The respellings of words the Bible's text does not hold either: a library of some books
    knows no "Noah", but the word is no misspelling ("Did you mean nah's ark?")."""
    if not spelling or not store.info.has_verses:
        return spelling
    index = store.verse_index()
    default = index.default
    if default is None:
        return spelling
    return {word: better for word, better in spelling.items() if index.doc_count(default, word) == 0}


def scholar_names(store: LibraryStore, pooled: list[Candidate]) -> dict[str, str]:
    """(DB thread) The display name of each scholar in the pool: the library's, else the built-in one."""
    table = store.scholars()
    ids = {c.metadata.scholar_id for c in pooled if c.metadata.scholar_id}
    return {sid: resolve(sid, table).name for sid in sorted(ids)}


def retrieve(
    ctx: RetrievalContext, *, db: str | Path, proxy: str, token: str | None = None
) -> RetrievalResult:
    """One retrieval from synchronous code (the CLI): a short-lived :class:`Retriever`."""

    async def run() -> RetrievalResult:
        retriever = Retriever(db, proxy, token)
        try:
            return await retriever.retrieve(ctx)
        finally:
            await retriever.aclose()

    return asyncio.run(run())
