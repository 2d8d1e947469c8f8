"""The passage bridge: a topical question reaches the commentary on the passages that are about it.

On a whole-Bible library two-thirds of the chunks are dictionary material (Strong's Hebrew and Greek entries,
Abbott-Smith's, a word study per word and book), and a topical question ("forgiveness", "Why should we forgive
those who wrong us?") finds them by name or gloss, while the commentary on the passages that treat the topic
often shares neither its words nor, as a whole note, its meaning closely enough to reach the searches' 40 rows.
The library knows which passages are about a question without any commentary: every verse has its own vector.
So, when the app's policy asks for it, the :data:`VERSES` verses nearest the question lead to the commentary
notes covering them, and the :data:`NOTES` of those nearest the question join the pool (origin ``passage``),
measured like every candidate; re-ranking decides where they go. Not for a question that names a passage (its
passage's notes join already) or a word (the word bridge reads it).
"""

from __future__ import annotations

import numpy as np

from ..core.query import Filters
from ..core.references import PassageRef
from ..store.scripture import ScriptureStore
from ..store.verses import VerseIndex
from . import dense

#: the verses nearest the question that lead to their commentary
VERSES = 20
#: the commentary notes the bridge adds, nearest the question first
NOTES = 10
COMMENTARY = frozenset({"section_panel", "chapter_panel"})


def passage_notes(store: ScriptureStore, vector: np.ndarray, filters: Filters = Filters(), *,
                  verses: int = VERSES, notes: int = NOTES, two_stage: str | None = None) -> list[int]:
    """The rowids of the commentary notes on the verses nearest ``vector`` that ``filters`` allow, nearest the
    question first; empty when the library has no verse vectors."""
    index = VerseIndex.for_store(store)
    if not index.has_vectors or (filters.source_types and not COMMENTARY & set(filters.source_types)):
        return []
    covering: set[int] = set()
    for rowid, _distance in index.nearest(vector, verses):
        book, chapter, verse = index.keys[rowid]
        covering.update(store.covering(PassageRef(book, chapter, verse, verse, f"{chapter}:{verse}"), filters))
    commentary = sorted(r for r, row in store.fetch(covering).items() if row[1] in COMMENTARY)
    if not commentary:
        return []
    return [rowid for rowid, _ in dense.nearest_among(store, vector, commentary, notes, two_stage=two_stage)]


def commentary_nearest(store: ScriptureStore, vector: np.ndarray, n: int, filters: Filters = Filters(), *,
                       two_stage: str | None = None) -> list[tuple[int, float]]:
    """A second dense search among the commentary alone (within ``filters``): its ``n`` nearest notes."""
    kinds = tuple(t for t in (filters.source_types or sorted(COMMENTARY)) if t in COMMENTARY)
    if not kinds:
        return []
    return dense.nearest(store, vector, n, Filters(kinds, filters.books, filters.scholars, filters.traditions),
                         two_stage=two_stage)
