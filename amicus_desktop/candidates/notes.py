"""The reader's notes as candidates: one workspace's notes, searched as the library is (CONTRACT section 11).

:func:`gather_notes` is the notes' half of candidate generation, beside :func:`.pool.gather` for the
library, on the same database thread. Given a :class:`~amicus_desktop.notes.view.NotesSearch` — which can
only read the workspace the question is scoped to — it takes one
:class:`~amicus_desktop.notes.view.NotesView` of the workspace's notes for the library's model and runs
the same searches the mode asks for, with the same rules, through the same kinds of questions as the
library's (a :class:`~amicus_desktop.core.vectors.VectorIndex`, a keyword index, the notes on a passage):

* **dense** — the ``candidates`` notes nearest the question's vector (cosine, exact; over the in-memory
  index, numpy over the workspace's vectors of the library's model);
* **keyword** — the ``candidates`` best notes by BM25 over the workspace's own index, normalised by the
  library's rule (:class:`~.lexical.KeywordIndex`), so a note's ``lexical`` reads as a chunk's does;
* **passages** — the :data:`~amicus_desktop.core.query.REFERENCE_POOL` notes nearest the question
  among those on each referenced passage;
* **pins** — a pinned id that names a note of *this* workspace (another workspace's note is, here, an
  id that does not exist);
* **filters** — a note is of source type ``user_note``, has no scholar nor tradition (so a scholar or
  tradition filter leaves every note out), and its book is its reference's;

and measures every pooled note for what no search measured, as the library's pool does — with the SQLite
store, all of it in the workspace's index in memory, without a query to the store. A note is a
:class:`~amicus_desktop.core.results.Candidate` with ``chunk_id`` = its id, ``source_type``
``user_note``, ``source_id`` ``note`` and the metadata of its reference; its ``rowid`` is the note's
row negated, so no dictionary keyed by rowid can confuse it with a library row.

A note without a vector of the library's model (*pending*) has no similarity: in ``semantic`` and
``hybrid`` it cannot be scored and is left out; in ``keyword`` it is searched like any other. Their
number is reported, for the ``notes_pending`` warning.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core.query import REFERENCE_POOL, USER_NOTE, RetrievalContext, SearchMode, is_note_id
from ..core.references import PassageRef
from ..core.results import Candidate, Origin
from ..notes.model import NOTE_ID, NOTE_SOURCE_ID
from ..notes.view import NotesSearch
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


def gather_notes(search: NotesSearch, plan: QueryPlan, ctx: RetrievalContext, vector: np.ndarray | None,
                 model_id: str) -> NotesPool:
    """The notes of the question's workspace that join the pool (see the module docstring).

    ``vector`` is ``None`` in keyword mode; ``model_id`` is the library's model (vectors of any other
    model are never compared).
    """
    timings: dict[str, float] = {}
    t0 = time.perf_counter()
    # without a vector of the library's model a note has no similarity to be scored by
    notes = search.view(model_id, embedded_only=vector is not None)
    vectors = notes.vectors
    words = KeywordIndex(notes.words)  # type: ignore[arg-type]  # the store's full-text shape
    filters = ctx.filters
    distance: dict[int, float] = {}
    lexical: dict[int, float] = {}
    origins: dict[int, set[Origin]] = {}

    def add(rowid: int, origin: Origin) -> None:
        origins.setdefault(rowid, set()).add(origin)

    if vector is not None:
        for rowid, d in vectors.nearest(vector, ctx.candidates, filters):
            distance[rowid] = d
            add(rowid, Origin.DENSE)
    if ctx.mode is not SearchMode.SEMANTIC:
        for rowid, score in words.search(plan.keywords, ctx.candidates, filters):
            lexical[rowid] = score
            add(rowid, Origin.KEYWORD)

    covered: list[PassageRef] = []
    for ref in plan.references:
        if notes.covers_any(ref):
            covered.append(ref)
        among = notes.covering(ref, filters)
        if not among:
            continue
        if vector is not None:
            for rowid, d in vectors.nearest_among(vector, among, REFERENCE_POOL):
                distance[rowid] = d
                add(rowid, Origin.REFERENCE)
        else:
            for rowid, score in words.best_among(plan.keywords, among, REFERENCE_POOL):
                lexical[rowid] = score
                add(rowid, Origin.REFERENCE)

    pinned_rows = notes.rowids_for([pin for pin in dict.fromkeys(ctx.pins) if NOTE_ID.fullmatch(pin)])
    for rowid in pinned_rows.values():
        add(rowid, Origin.PIN)

    everyone = list(origins)
    if vector is not None:
        lacking = [r for r in everyone if r not in distance]
        if lacking:
            distance.update(vectors.distances(vector, lacking))
    scored_by_words = ctx.mode is not SearchMode.SEMANTIC and (ctx.mode is SearchMode.KEYWORD or bool(plan.keywords))
    if scored_by_words:
        lacking = [r for r in everyone if r not in lexical]
        if lacking:
            lexical.update(words.scores(plan.keywords, lacking))
    rows = notes.fetch(everyone)

    def candidate(rowid: int) -> Candidate | None:
        row = rows.get(rowid)
        if row is None or (vector is not None and rowid not in distance):
            return None  # not embedded: nothing to score it by
        return Candidate(
            -rowid, row.note_id, USER_NOTE, NOTE_SOURCE_ID, row.text, row.meta,
            distance=distance.get(rowid) if vector is not None else None,
            lexical=lexical.get(rowid, 0.0) if scored_by_words else None,
            origins=frozenset(origins[rowid]),
        )

    pinned_set = set(pinned_rows.values())
    pool = [c for r in everyone if r not in pinned_set and (c := candidate(r)) is not None]
    pinned = {note_id: c for note_id, r in pinned_rows.items() if (c := candidate(r)) is not None}
    timings["notes"] = (time.perf_counter() - t0) * 1000
    return NotesPool(pool, pinned, notes.pending, covered, timings)


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
