"""The commentary that follows the chapter on screen: its notes, chapter panels and word studies,
listed by verse, with no question asked. No Qt.

Like the commentary panes of Xiphos, BibleTime or UniqueBible, this is a browse, not a search: a
query over ``chunk_metadata`` on the DB thread (:meth:`LibraryStore.chapter_chunks
<amicus_desktop.store.library.LibraryStore.chapter_chunks>`), so it needs no embedding and
works while the proxy is offline.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.query import SourceType
from ..core.references import ChapterRef
from ..core.results import Candidate
from .engine import Engine
from .events import Event

#: What the pane lists: commentary notes, chapter panels (outlines, introductions), word studies.
BROWSE_TYPES = (SourceType.CHAPTER_PANEL, SourceType.SECTION_PANEL, SourceType.WORD_STUDY)
#: At most this many notes per chapter. The demo's fullest chapter has about 40; a synthetic or
#: machine-made database can hold thousands on one chapter, and building them all on the DB thread
#: holds the GIL long enough to stall the UI (measured: over 60 ms for 3,300 chunks).
NOTES_LIMIT = 200


@dataclass(frozen=True)
class ChapterNotes:
    """The chunks on one chapter, in reading order (whole-chapter ones first, then by verse);
    ``more`` when the chapter has more than :data:`NOTES_LIMIT` and the rest were left out."""

    ref: ChapterRef
    chunks: tuple[Candidate, ...]
    more: bool = False


class Commentary:
    """Events: :attr:`loaded` (the notes of the current chapter arrived)."""

    def __init__(self) -> None:
        self.notes: ChapterNotes | None = None
        self.loaded: Event[ChapterNotes] = Event("chapter notes loaded")

    async def load(self, engine: Engine, ref: ChapterRef) -> ChapterNotes:
        """Read ``ref``'s notes on ``engine``'s DB thread (the caller decides whether to :meth:`accept`)."""
        book_id, number = ref.book_id, ref.chapter  # plain values only cross to the DB thread
        chunks = await engine.run_db(
            lambda store: store.chapter_chunks(book_id, number, BROWSE_TYPES, limit=NOTES_LIMIT + 1)
        )
        return ChapterNotes(ref, tuple(chunks[:NOTES_LIMIT]), more=len(chunks) > NOTES_LIMIT)

    def accept(self, notes: ChapterNotes) -> None:
        """Make ``notes`` the ones on show and announce them."""
        self.notes = notes
        self.loaded.emit(notes)
