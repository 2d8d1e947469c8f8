"""The reader's notes as candidates: one workspace's notes, searched as the library is (CONTRACT section 11).

:func:`gather_notes` is the notes' half of candidate generation, beside :func:`.pool.gather` for the
library, on the same database thread. Given a :class:`~amicus_desktop.notes.search.WorkspaceSearch` —
which can only read the workspace the question is scoped to — it runs the same searches the mode asks
for, with the same rules:

* **dense** — the ``candidates`` notes nearest the question's vector (cosine, exact, numpy over the
  workspace's vectors of the library's model);
* **keyword** — the ``candidates`` best notes by BM25 over the workspace's own index, normalised by the
  library's rule (:class:`~.lexical.KeywordIndex`), so a note's ``lexical`` reads as a chunk's does;
* **passages** — the :data:`~amicus_desktop.core.query.REFERENCE_POOL` notes nearest the question
  among those on each referenced passage;
* **pins** — a pinned id that names a note of *this* workspace (another workspace's note is, here, an
  id that does not exist);
* **filters** — a note is of source type ``user_note``, has no scholar nor tradition (so a scholar or
  tradition filter leaves every note out), and its book is its reference's;

and measures every pooled note for what no search measured, as the library's pool does — all of it in the
workspace's index in memory, without a query to the store. A note is a
:class:`~amicus_desktop.core.results.Candidate` with ``chunk_id`` = its id, ``source_type``
``user_note``, ``source_id`` ``note`` and the metadata of its reference; its ``rowid`` is the note's
row negated, so no dictionary keyed by rowid can confuse it with a library row.

A note without a vector of the library's model (*pending*) has no similarity: in ``semantic`` and
``hybrid`` it cannot be scored and is left out; in ``keyword`` it is searched like any other. Their
number is reported, for the ``notes_pending`` warning.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from ..core.query import REFERENCE_POOL, USER_NOTE, Filters, RetrievalContext, SearchMode, is_note_id
from ..core.references import PassageRef
from ..core.results import Candidate, ChunkMetadata, Origin
from ..notes.index import NotesIndex
from ..notes.model import NOTE_ID, NOTE_SOURCE_ID
from ..notes.search import WorkspaceSearch, bm25_of, distances, keyword_search, nearest
from ..understand.query import QueryPlan
from .lexical import KeywordIndex
from .pool import Pool


@dataclass
class NotesPool:
    """What the notes of the question's workspace add to the candidate pool."""

    candidates: list[Candidate]
    #: pinned notes, by note id
    pinned: dict[str, Candidate]
    #: notes with no vector of the library's model yet (searched by words only)
    pending: int
    #: referenced passages some note of the workspace is on (whatever the filters)
    covered: list[PassageRef]
    timings: dict[str, float] = field(default_factory=dict)


def allowed_rows(index: NotesIndex, filters: Filters) -> npt.NDArray[np.bool_]:
    """Which slots of ``index`` the filters let be candidates (OR within a kind, AND across kinds)."""
    live = index.live()
    if (filters.source_types and USER_NOTE not in filters.source_types) or filters.scholars or filters.traditions:
        return np.zeros(index.size, dtype=np.bool_)
    allowed = live & np.isin(index.book_ids[: index.size], list(filters.books)) if filters.books else live.copy()
    if filters.passages:  # the reader's marked passages: a note on one of them (a note without a passage is on none)
        allowed &= np.logical_or.reduce([covering_rows(index, p) for p in filters.passages])
    return np.asarray(allowed, dtype=np.bool_)


def covering_rows(index: NotesIndex, ref: PassageRef) -> npt.NDArray[np.bool_]:
    """The live notes on ``ref``: same book and chapter, verses overlapping (a whole chapter on either side
    covers any verse of it) — :meth:`PassageRef.covers` over arrays."""
    size = index.size
    mask = index.live() & (index.book_ids[:size] == ref.book_id) & (index.chapters[:size] == ref.chapter)
    if ref.verse_start is None:
        return np.asarray(mask, dtype=np.bool_)
    start = index.verse_starts[:size]
    end = np.where(index.verse_ends[:size] > 0, index.verse_ends[:size], start)
    ref_end = ref.verse_end if ref.verse_end is not None else ref.verse_start
    return np.asarray(mask & ((start == 0) | ((start <= ref_end) & (end >= ref.verse_start))), dtype=np.bool_)


def _metadata(index: NotesIndex, slot: int) -> ChunkMetadata:
    """A note's reference as a chunk's metadata (no scholar, no tradition; 0 in the arrays is "none")."""
    book = index.book_ids[slot]
    if book is None:
        return ChunkMetadata()
    start, end = int(index.verse_starts[slot]), int(index.verse_ends[slot])
    return ChunkMetadata(book_id=str(book), chapter_num=int(index.chapters[slot]), verse_start=start or None,
                         verse_end=(end or start) or None)


class _NotesText:
    """A workspace's keyword index in the shape :class:`KeywordIndex` reads, limited to the slots one
    question's filters allow (the filters are already applied: the ``filters`` it is handed are those)."""

    def __init__(self, index: NotesIndex, allowed: npt.NDArray[np.bool_]) -> None:
        self._index = index
        self._allowed = allowed

    def search(self, words: Sequence[str], n: int, filters: Filters = Filters()) -> list[tuple[int, float]]:
        return keyword_search(self._index, words, n, self._allowed)

    def bm25_of(self, words: Sequence[str], rowids: Iterable[int]) -> list[tuple[int, float]]:
        return bm25_of(self._index, words, list(rowids))

    def doc_count(self, word: str) -> int:
        return self._index.doc_count(word)

    @property
    def total(self) -> int:
        return self._index.count


def gather_notes(search: WorkspaceSearch, plan: QueryPlan, ctx: RetrievalContext, vector: np.ndarray | None,
                 model_id: str) -> NotesPool:
    """The notes of the question's workspace that join the pool (see the module docstring).

    ``vector`` is ``None`` in keyword mode; ``model_id`` is the library's model (vectors of any other
    model are never compared).
    """
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    index = search.index(model_id)
    allowed = allowed_rows(index, ctx.filters)
    # without a vector of the library's model a note has no similarity to be scored by
    usable = allowed & index.embedded[: index.size] if vector is not None else allowed
    words = KeywordIndex(_NotesText(index, usable))  # type: ignore[arg-type]  # the store's full-text shape
    distance: dict[int, float] = {}
    lexical: dict[int, float] = {}
    origins: dict[int, set[Origin]] = {}

    def add(rowid: int, origin: Origin) -> None:
        origins.setdefault(rowid, set()).add(origin)

    if vector is not None and usable.any():
        for rowid, d in nearest(index, vector, ctx.candidates, usable):
            distance[rowid] = d
            add(rowid, Origin.DENSE)
    if ctx.mode is not SearchMode.SEMANTIC and usable.any():
        for rowid, score in words.search(plan.keywords, ctx.candidates):
            lexical[rowid] = score
            add(rowid, Origin.KEYWORD)

    covered: list[PassageRef] = []
    for ref in plan.references:
        on_ref = covering_rows(index, ref)
        if on_ref.any():
            covered.append(ref)
        among = on_ref & usable
        if not among.any():
            continue
        if vector is not None:
            for rowid, d in nearest(index, vector, REFERENCE_POOL, among):
                distance[rowid] = d
                add(rowid, Origin.REFERENCE)
        else:
            rows = [int(r) for r in index.rowids[: index.size][among]]
            for rowid, score in words.best_among(plan.keywords, rows, REFERENCE_POOL):
                lexical[rowid] = score
                add(rowid, Origin.REFERENCE)

    pinned_rows: dict[str, int] = {}
    for pin in dict.fromkeys(ctx.pins):
        slot = index.slot_of_note(pin) if NOTE_ID.fullmatch(pin) else None
        if slot is not None:
            pinned_rows[pin] = int(index.rowids[slot])
            add(pinned_rows[pin], Origin.PIN)

    everyone = list(origins)
    if vector is not None:
        lacking = [r for r in everyone if r not in distance]
        if lacking:
            distance.update(distances(index, vector, lacking))
    scored_by_words = ctx.mode is not SearchMode.SEMANTIC and (ctx.mode is SearchMode.KEYWORD or bool(plan.keywords))
    if scored_by_words:
        lacking = [r for r in everyone if r not in lexical]
        if lacking:
            lexical.update(words.scores(plan.keywords, lacking))

    def candidate(rowid: int) -> Candidate | None:
        slot = index.slot(rowid)
        if slot is None or (vector is not None and rowid not in distance):
            return None  # not embedded: nothing to score it by
        return Candidate(
            -rowid, str(index.note_ids[slot]), USER_NOTE, NOTE_SOURCE_ID, str(index.texts[slot]),
            _metadata(index, slot),
            distance=distance.get(rowid) if vector is not None else None,
            lexical=lexical.get(rowid, 0.0) if scored_by_words else None,
            origins=frozenset(origins[rowid]),
        )

    pinned_set = set(pinned_rows.values())
    pool = [c for r in everyone if r not in pinned_set and (c := candidate(r)) is not None]
    pinned = {note_id: c for note_id, r in pinned_rows.items() if (c := candidate(r)) is not None}
    timings["notes"] = (time.perf_counter() - t0) * 1000
    return NotesPool(pool, pinned, index.pending, covered, timings)


def join(pool: Pool, notes: NotesPool, pins: Sequence[str]) -> Pool:
    """The library's ``pool`` with the workspace's ``notes`` in it: one pool, as if one search found both.

    The two are keyed apart, by origin and id: an id of the notes' space (``note:…``) names the workspace's
    note, never a library chunk. A library chunk holding such an id (a library built elsewhere; ``ingest``
    and ``build-db`` refuse them) never answers a pin of a note, and where a note of the workspace has its
    id the note is kept and the chunk left out — it pushed the note out before. Pins keep the order given,
    whichever side holds each; a pin neither holds stays missing; a referenced passage a note is on is in
    the corpus of this question.
    """
    note_ids = {c.chunk_id for c in notes.candidates} | set(notes.pinned)
    library_pins = {c.chunk_id: c for c in pool.pinned if not is_note_id(c.chunk_id)}
    wanted = list(dict.fromkeys(pins))
    found = {p: c for p in wanted
             if (c := notes.pinned.get(p) if is_note_id(p) else library_pins.get(p)) is not None}
    return Pool(
        candidates=[*(c for c in pool.candidates if c.chunk_id not in note_ids), *notes.candidates],
        pinned=[found[p] for p in wanted if p in found],
        missing_pins=[p for p in wanted if p not in found],
        missing_references=[r for r in pool.missing_references if r not in notes.covered],
        timings={**pool.timings, **notes.timings},
        keyword_index=pool.keyword_index,
    )
