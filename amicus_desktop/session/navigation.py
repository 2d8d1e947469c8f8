"""The session's reading rules: going to a chapter or a passage and loading what the reader shows. No Qt.

:class:`Navigation` is the part of :class:`~.controller.Session` that moves the reader — a chapter change
re-ranks the answer on screen (undoably) and is remembered, opening a result only to read it (a peek) does
not — and loads the chapter's text and commentary and a result's verses through the engine. Every move is a
visit in the reader's :class:`~.reading_history.ReadingHistory`; :meth:`Navigation.go_back` and
:meth:`Navigation.go_forward` walk it (reading moves: they never re-rank the answer on screen). One rule spans
every load: a database error seen while loading fails the library (:meth:`Navigation.failing_library`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..core.errors import AmicusError
from ..core.references import ChapterRef, PassageRef
from ..store.verses import Translation
from .commentary import Commentary
from .engine import Engine
from .library import Library
from .notes import Notebook
from .preferences import Preferences
from .question import Question
from .reader import Reader
from .verses import Verses


class Navigation:
    """The reader's moves and loads; a base of :class:`~.controller.Session`, which owns the parts named here."""

    prefs: Preferences
    library: Library
    reader: Reader
    commentary: Commentary
    question: Question
    verses: Verses
    notebook: Notebook
    engine: Engine | None

    @contextlib.contextmanager
    def failing_library(self, engine: Engine) -> Iterator[None]:
        """Run a load: a database error it raises fails the library (while ``engine`` is still open); any
        other error of ours ends the load quietly."""
        try:
            yield
        except AmicusError as err:
            if err.is_database and engine.is_open:
                self.library.fail(err)

    def set_chapter(self, ref: ChapterRef | None, *, save: bool = True) -> None:
        """Make ``ref`` the current chapter: load its text and re-rank the results for it (undoably)."""
        if self.reader.go(ref):
            self.question.rerank("chapter")
            if save and self.reader.chapter is not None:
                self.prefs.remember_chapter(self.reader.chapter)
        self._visited()
        self._load_current_text()

    def _visited(self) -> None:
        """Record where the reader is now (the verses in focus, else the chapter) as a visit."""
        current, focus = self.reader.chapter, self.reader.focus
        if focus is not None:
            self.reader.history.visit(focus)
        elif current is not None:
            self.reader.history.visit(PassageRef(current.book_id, current.chapter))

    def _load_current_text(self) -> None:
        current, engine = self.reader.chapter, self.engine
        if current is not None and engine is not None and self.library.ready:
            engine.spawn(self._load_text(engine, current))
            engine.spawn(self._load_notes(engine, current))
        self.notebook.desk.show_chapter(current)

    async def _load_notes(self, engine: Engine, ref: ChapterRef) -> None:
        """The commentary on ``ref`` (a browse, no embedding: it works offline)."""
        with self.failing_library(engine):
            notes = await self.commentary.load(engine, ref)
            if engine.is_open and ref == self.reader.chapter:
                self.commentary.accept(notes)

    def open_passage(self, passage: PassageRef, *, peek: bool = False, visit: bool = True) -> None:
        """Open ``passage``'s chapter with its verses in focus. Going there re-ranks as :meth:`set_chapter`
        does — unless ``peek``: opening a result to read it never changes the answer on screen. ``visit``:
        record it in the reading history (not when the history itself is walked)."""
        if self.reader.show(passage):
            if not peek:
                self.question.rerank("chapter")
            if self.reader.chapter is not None:
                self.prefs.remember_chapter(self.reader.chapter)
        if visit:
            self._visited()
        self._load_current_text()

    def go_back(self) -> bool:
        """Back to the place read before this one; ``False`` when there is none."""
        return self._walk(self.reader.history.back())

    def go_forward(self) -> bool:
        """Forward to the place gone back from; ``False`` when there is none."""
        return self._walk(self.reader.history.forward())

    def _walk(self, place: PassageRef | None) -> bool:
        if place is None:
            return False
        self.open_passage(place, peek=True, visit=False)
        return True

    def read_passage(self, passage: PassageRef) -> None:
        """Load the Bible text of ``passage`` (a result's verses); :attr:`Reader.passage_loaded` brings it."""
        engine = self.engine
        if engine is not None and self.library.ready:
            engine.spawn(self._read_passage(engine, passage))

    async def _read_passage(self, engine: Engine, passage: PassageRef) -> None:
        with self.failing_library(engine):
            await self.reader.load_passage(engine, passage, self.verses.current)

    def set_beside(self, translation_id: str | None) -> None:
        """Show the chapter in a second translation beside the first, verse by verse (``None``: one only)."""
        chosen = next((t for t in self.verses.translations if t.translation_id == translation_id), None)
        if chosen != self.reader.beside:
            self.reader.beside = chosen
            self.prefs.remember_beside(chosen.translation_id if chosen is not None else None)  # for the next start
            self._load_current_text()

    def _remembered_beside(self) -> Translation | None:
        """The translation the reader last showed beside the text, when this library holds it and it is
        not the one shown."""
        wanted = self.prefs.settings.beside_translation
        shown = self.verses.current.translation_id if self.verses.current is not None else None
        return next((t for t in self.verses.translations if t.translation_id == wanted and wanted != shown), None)

    def step_chapter(self, delta: int) -> None:
        """Previous (-1) or next (+1) chapter, crossing into the neighbouring book."""
        target = self.reader.neighbour(delta)
        if target is not None:
            self.set_chapter(target)

    async def _load_text(self, engine: Engine, ref: ChapterRef) -> None:
        with self.failing_library(engine):
            await self.reader.load_text(engine, ref, self.verses.current)

    def _restore_chapter(self) -> None:
        for text in self.prefs.start_chapters:
            found = self.reader.find(text)
            if found is not None:
                self.set_chapter(found.chapter_ref, save=text != self.prefs.settings.last_chapter)
                return
        if self.library.books:
            self.set_chapter(ChapterRef(self.library.books[0].book_id, 1), save=False)
