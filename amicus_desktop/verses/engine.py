"""``VerseSearch.search(query) -> VerseSearchResult``: "find the verse I am thinking of" (CONTRACT section 14).

It runs on a :class:`~amicus_desktop.retrieval.Retriever` — the same embed client (and its cache of
question vectors) and the same database thread as chunk search — so the app and the CLI hold one of each.

Errors are checked in the contract's order: ``QUERY_INVALID`` (no I/O), the database, then
``VERSES_NOT_INDEXED`` (a property of the database: no verses, or no verse vectors for a search by
meaning — a ``keyword`` search needs none), then the proxy, ``DIMENSION_MISMATCH`` and ``MODEL_MISMATCH``.
An unknown translation or book is a usage error (``ValueError``), raised before any I/O but the database.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from ..core.errors import AmicusError, ErrorCode
from ..core.names import DEFAULT_NAMES
from ..core.query import SearchMode
from ..core.results import ModelInfo, RetrievalWarning, WarningCode
from ..embedding.client import check_against_db
from ..retrieval import Retriever, validate_query
from ..store.library import LibraryStore
from ..store.verses import Translation
from ..understand.query import plan
from .model import MAX_K, VerseHit, VerseQuery, VerseSearchResult, VerseTrace
from .score import MAX_SPAN, RankedGroup, group, rank
from .signals import gather


@dataclass(frozen=True)
class VerseLibrary:
    """What a database offers verse search (read on the database thread)."""

    translations: tuple[Translation, ...]
    has_vectors: bool
    has_strongs: bool
    verses: int
    books: tuple[str, ...]

    def translation(self, wanted: str | None) -> Translation:
        """The translation ``wanted`` (id or abbreviation, any case), the default when ``None``."""
        if wanted is None:
            default = next((t for t in self.translations if t.default), next(iter(self.translations), None))
            if default is None:  # not next() bare: its StopIteration inside a coroutine became a RuntimeError
                raise _no_verses()
            return default
        for t in self.translations:
            if wanted.lower() in (t.translation_id.lower(), t.abbreviation.lower()):
                return t
        known = ", ".join(t.translation_id for t in self.translations)
        raise ValueError(f"unknown translation {wanted!r}: this database holds {known}")


def describe(store: LibraryStore) -> VerseLibrary:
    index = store.verse_index()
    books = tuple(index.keys.books())
    return VerseLibrary(tuple(index.translations.values()), index.has_vectors, index.has_strongs, index.count, books)


def not_indexed(library: VerseLibrary, mode: SearchMode) -> AmicusError | None:
    """``VERSES_NOT_INDEXED`` when this database cannot answer a verse search in ``mode``."""
    if not library.translations or library.verses == 0:
        return _no_verses()
    if mode.embeds and not library.has_vectors:
        return AmicusError(
            ErrorCode.VERSES_NOT_INDEXED,
            "This database has no verse vectors, so verses cannot be searched by meaning. Search them by words "
            "(--mode keyword), or rebuild the database with 'amicus-desktop build-db' to add them.",
        )
    return None


def _no_verses() -> AmicusError:
    return AmicusError(ErrorCode.VERSES_NOT_INDEXED,
                       "This database holds no Bible verses to search. Rebuild it with 'amicus-desktop build-db'.")


class VerseSearch:
    """Verse search over a :class:`Retriever`'s database and embed client."""

    def __init__(self, retriever: Retriever) -> None:
        self.retriever = retriever
        self._library: VerseLibrary | None = None

    async def library(self) -> VerseLibrary:
        """What the database offers (read again when the file changed)."""
        return await self.retriever.run_db(describe)

    async def search(self, query: VerseQuery) -> VerseSearchResult:
        t_start = time.perf_counter()
        text = validate_query(query.text)
        if not 1 <= query.k <= MAX_K:
            raise ValueError(f"k must be between 1 and {MAX_K}, not {query.k}")
        question = plan(text)
        info = await self.retriever.open()
        library = await self.library()
        error = not_indexed(library, query.mode)  # before the translation: a library without verses has none
        if error is not None:
            raise error
        translation = library.translation(query.translation)
        weights = query.effective_weights

        t0 = time.perf_counter()
        vector = None
        model: ModelInfo | None = None
        if query.mode.embeds:
            embedding = await self.retriever.embedder.embed(text)
            check_against_db(embedding, info.dims, info.model_id)
            vector, model = embedding.vector, embedding.model
        t_embed = (time.perf_counter() - t0) * 1000

        t0 = time.perf_counter()
        books = query.books
        depth = query.k * MAX_SPAN  # a result joins at most MAX_SPAN verses: enough for k results
        signals = await self.retriever.run_db(
            lambda s: gather(s, question, translation, books, weights, vector, depth=depth))
        t_search = (time.perf_counter() - t0) * 1000

        t0 = time.perf_counter()
        index_keys = await self.retriever.run_db(lambda s: s.verse_index().keys)

        def verse_id(r: int) -> str:
            return ":".join(map(str, index_keys[r]))

        def neighbours(r: int) -> list[int]:
            here = index_keys.chapter_of(r)
            return [n for n in (r - 1, r + 1) if 0 < n < len(index_keys) and index_keys.chapter_of(n) == here]

        ranked = rank(signals, weights, query.mode, neighbours, verse_id, top=depth)
        groups = group(ranked, query.k, index_keys.chapter_of)
        t_rank = (time.perf_counter() - t0) * 1000

        shown = [r for g in groups for r in g.rowids]
        texts = await self.retriever.run_db(lambda s: _texts(s, translation, shown))
        hits = tuple(_hit(i, g, index_keys, texts) for i, g in enumerate(groups, start=1))
        warnings: list[RetrievalWarning] = [
            RetrievalWarning(WarningCode.REFERENCE_NOT_IN_CORPUS,
                             f"{DEFAULT_NAMES.passage(ref)} is not in "
                             "this database's Bible text.")
            for ref in signals.missing_references]
        if len(hits) < query.k:
            warnings.append(RetrievalWarning(
                WarningCode.FEW_RESULTS, f"Only {len(hits)} of the {query.k} results asked for were found."))
        timing = {"embed": t_embed, "search": t_search, "rank": t_rank,
                  "total": (time.perf_counter() - t_start) * 1000}
        return VerseSearchResult(
            query=query.text, mode=query.mode, translation=translation.translation_id,
            translation_name=translation.name, translation_abbreviation=translation.abbreviation,
            model=model, results=hits, warnings=tuple(warnings), timing_ms=timing,
            trace=VerseTrace(references=question.references,
                             keywords=question.keywords if query.mode is not SearchMode.SEMANTIC else (),
                             books=books, candidates=len(signals.scored), by_origin=dict(signals.by_origin),
                             keyword_index=signals.keyword_index, weights=weights,
                             search_ms=dict(signals.timings)),
        )


def _texts(store: LibraryStore, translation: Translation, rowids: list[int]) -> dict[int, str]:
    index = store.verse_index()
    texts = index.texts(translation, rowids)
    missing = [r for r in rowids if r not in texts]
    default = index.default
    if missing and default is not None and default != translation:  # a verse the translation lacks
        texts.update(index.texts(default, missing))
    return texts


def _hit(rank_: int, g: RankedGroup, keys: Sequence[tuple[str, int, int]], texts: dict[int, str]) -> VerseHit:
    book, chapter, _ = keys[g.rowids[0]]
    score = {m.rowid: m.breakdown.final for m in g.members}
    verses = tuple((keys[r][2], texts.get(r, ""), score[r]) for r in g.rowids)
    return VerseHit(
        rank=rank_, book_id=book, book_name=DEFAULT_NAMES.book(book), chapter_num=chapter,
        verse_start=verses[0][0], verse_end=verses[-1][0], text=" ".join(t for _, t, _ in verses if t),
        score=g.best.breakdown.final, breakdown=g.best.breakdown, verses=verses,
        ranked=tuple(":".join(map(str, keys[m.rowid])) for m in g.members),
    )
