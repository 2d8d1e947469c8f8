"""One candidate pool per question: every search the mode asks for, the references' passages, the pins.

:func:`gather` is the whole of candidate generation, run on the database thread:

============  =====================================================  ==================================
mode          searches                                               measured for every pooled chunk
============  =====================================================  ==================================
semantic      dense KNN (``candidates`` rows)                         distance
hybrid        dense KNN and keyword BM25 (``candidates`` rows each)   distance and lexical score
keyword       keyword BM25 (``candidates`` rows)                      lexical score
============  =====================================================  ==================================

plus, in every mode, the chunks covering each referenced passage and the pinned chunks. A chunk
covers a reference when its book and chapter are the reference's and its verses overlap the referenced
ones (:meth:`PassageRef.covers <amicus_desktop.core.references.PassageRef.covers>`; the store's SQL
form of the rule is :mod:`amicus_desktop.store.conditions`). Covering chunks join the pool even when
the searches did not return them: the ``REFERENCE_POOL`` (20) nearest to the question's vector per
reference — or, in ``keyword`` mode, where there is no vector, the 20 best by keyword score — that
also pass the filters. A hybrid question without words to look for (only a reference) gets no lexical
score (``None``; see :mod:`amicus_desktop.rerank.base`). What one search found the other is measured
for, so a hybrid breakdown is complete whatever found the chunk. Pinned chunks are measured like the
rest but kept apart: they are not part of the pool (they are placed first by re-ranking and never
counted or capped).

What to fetch is decided here; how is the store's (:class:`~amicus_desktop.store.library.LibraryStore`).
``two_stage`` chooses the dense search's path (see :mod:`.dense`).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from ..core.query import REFERENCE_POOL, RetrievalContext, SearchMode, is_note_id
from ..core.references import ChapterRef, PassageRef
from ..core.results import Candidate, Origin
from ..store.library import LibraryStore
from ..understand.query import QueryPlan
from . import dense
from .bridge import bridge
from .lexical import KeywordIndex
from .quoted import QUOTE_POOL, chapters_of, named_in_chapter, quoted_verses, rare_words


@dataclass
class Pool:
    """What candidate generation found, and what it could not find."""

    candidates: list[Candidate]
    pinned: list[Candidate]
    missing_pins: list[str]
    #: referenced passages no chunk in the database covers
    missing_references: list[PassageRef]
    #: milliseconds per search: ``dense``, ``keyword``, ``references``
    timings: dict[str, float] = field(default_factory=dict)
    #: where the keyword index lives (``database``, ``cache``, ``memory``), ``None`` when unused
    keyword_index: str | None = None
    #: the chapters the question's own words place it in: those of the verses it quotes, and the open chapter when
    #: a rare word of the question stands in its verses (the app's policy only: :mod:`.quoted`)
    quoted: tuple[ChapterRef, ...] = ()


def gather(store: LibraryStore, plan: QueryPlan, ctx: RetrievalContext, vector: np.ndarray | None, *,
           two_stage: str | None = None) -> Pool:
    """Generate the candidate pool of ``ctx`` for ``plan`` (``vector`` is ``None`` in keyword mode)."""
    mode = ctx.mode
    distance: dict[int, float] = {}
    lexical: dict[int, float] = {}
    origins: dict[int, set[Origin]] = {}
    timings: dict[str, float] = {}

    def add(rowid: int, origin: Origin) -> None:
        origins.setdefault(rowid, set()).add(origin)

    t0 = time.perf_counter()
    if mode.embeds:
        assert vector is not None
        for rowid, d in dense.nearest(store, vector, ctx.candidates, ctx.filters, two_stage=two_stage):
            distance[rowid] = d
            add(rowid, Origin.DENSE)
    timings["dense"] = (time.perf_counter() - t0) * 1000

    t0 = time.perf_counter()
    index: KeywordIndex | None = None
    variants: dict[str, tuple[str, ...]] = {}
    if mode is not SearchMode.SEMANTIC:
        index = KeywordIndex.for_store(store)
        if ctx.policy.spelling_variants:  # the app's policy: a rare word's other spellings count as the word
            variants = index.variants(rare_words(store, plan.keywords))
        for rowid, score in index.search(plan.keywords, ctx.candidates, ctx.filters, variants):
            lexical[rowid] = score
            add(rowid, Origin.KEYWORD)
    timings["keyword"] = (time.perf_counter() - t0) * 1000

    t0 = time.perf_counter()
    missing_refs: list[PassageRef] = []
    for ref in plan.references:
        if not store.covers_any(ref):
            missing_refs.append(ref)
            continue
        rowids = store.covering(ref, ctx.filters)
        if vector is not None:
            for rowid, d in dense.nearest_among(store, vector, rowids, REFERENCE_POOL, two_stage=two_stage):
                distance[rowid] = d
                add(rowid, Origin.REFERENCE)
        else:
            assert index is not None
            for rowid, score in index.best_among(plan.keywords, rowids, REFERENCE_POOL, variants):
                lexical[rowid] = score
                add(rowid, Origin.REFERENCE)
    timings["references"] = (time.perf_counter() - t0) * 1000

    # the app's policy: the verses the question quotes, and the notes on them nearest the question
    quoted = quoted_verses(store, plan) if ctx.policy.chapter_relation is not None else ()
    # and the open chapter's verses holding a rare word of the question (Melchizedek in Hebrews 7)
    if ctx.policy.chapter_relation is not None and ctx.chapter is not None and ctx.chapter not in chapters_of(quoted):
        quoted = (*quoted, *named_in_chapter(store, plan, ctx.chapter))
    if QUOTE_POOL and vector is not None:
        for ref in quoted:
            near = dense.nearest_among(store, vector, store.covering(ref, ctx.filters), QUOTE_POOL, two_stage=two_stage)
            for rowid, d in near:
                distance[rowid] = d
                add(rowid, Origin.QUOTE)

    word = bridge(store, list(origins), plan.keywords, two_stage=two_stage) \
        if ctx.policy.word_bridge and vector is not None else None
    if word is not None and vector is not None:  # the app's policy: a question about a word, read as its meaning
        vector = word.meaning(vector)
        distance = dict(dense.nearest(store, vector, ctx.candidates, ctx.filters, two_stage=two_stage))
        for rowid in distance:
            add(rowid, Origin.DENSE)
        for rowid in (*word.entries, *word.notes):
            add(rowid, Origin.WORD)

    pinned_rows, missing_pins = _pins(store, ctx.pins)
    for rowid in pinned_rows:
        add(rowid, Origin.PIN)

    # Measure what no search measured: every candidate has the same scores as its neighbours.
    everyone = list(origins)
    if vector is not None:
        lacking = [r for r in everyone if r not in distance]
        if lacking:
            distance.update(dense.distances(store, vector, lacking, two_stage=two_stage))
    scored_by_words = mode is SearchMode.KEYWORD or bool(plan.keywords)
    if scored_by_words and mode is not SearchMode.SEMANTIC:
        assert index is not None
        lacking = [r for r in everyone if r not in lexical]
        if lacking:
            lexical.update(index.scores(plan.keywords, lacking, variants))

    rows = store.fetch(everyone)

    def candidate(rowid: int) -> Candidate | None:
        if rowid not in rows or (vector is not None and rowid not in distance):
            return None  # no text, or a zero vector: nothing to show or score
        chunk_id, source_type, source_id, text, meta = rows[rowid]
        return Candidate(
            rowid, chunk_id, source_type, source_id, text, meta,
            distance=distance.get(rowid) if vector is not None else None,
            lexical=lexical.get(rowid, 0.0) if scored_by_words and mode is not SearchMode.SEMANTIC else None,
            origins=frozenset(origins[rowid]),
        )

    pinned_set = set(pinned_rows)
    pool = [c for r in everyone if r not in pinned_set and (c := candidate(r)) is not None]
    pinned = [c for r in pinned_rows if (c := candidate(r)) is not None]
    return Pool(
        candidates=pool,
        pinned=pinned,
        missing_pins=missing_pins,
        missing_references=missing_refs,
        timings=timings,
        keyword_index=index.where if index is not None else None,
        quoted=chapters_of(quoted),
    )


def _pins(store: LibraryStore, pins: Iterable[str]) -> tuple[list[int], list[str]]:
    """Rowids of the pinned chunk ids in the order given, and the ids the database does not hold. An id of
    the notes' space (``note:…``) names a reader's note: it is never looked up among the library's chunks."""
    wanted = list(dict.fromkeys(pins))
    if not wanted:
        return [], []
    found = store.rowids_for([p for p in wanted if not is_note_id(p)])
    return [found[c] for c in wanted if c in found], [c for c in wanted if c not in found]
