"""The session's reading rules: going to a chapter or a passage and loading what the reader shows. No Qt.

:class:`Navigation` is the part of :class:`~.controller.Session` that moves the reader — a chapter change
re-ranks the answer on screen (undoably) and is remembered, opening a result only to read it (a peek) does
not — and loads the chapter's text and commentary and a result's verses through the engine. One rule spans
every load: a database error seen while loading fails the library (:meth:`Navigation.failing_library`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from ..core.errors import AmicusError
from ..core.references import ChapterRef, PassageRef
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
        self._load_current_text()

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

    def open_passage(self, passage: PassageRef, *, peek: bool = False) -> None:
        """Open ``passage``'s chapter with its verses in focus. Going there re-ranks as :meth:`set_chapter`
        does — unless ``peek``: opening a result to read it never changes the answer on screen."""
        if self.reader.show(passage):
            if not peek:
                self.question.rerank("chapter")
            if self.reader.chapter is not None:
                self.prefs.remember_chapter(self.reader.chapter)
        self._load_current_text()

    def read_passage(self, passage: PassageRef) -> None:
        """Load the Bible text of ``passage`` (a result's verses); :attr:`Reader.passage_loaded` brings it."""
        engine = self.engine
        if engine is not None and self.library.ready:
            engine.spawn(self._read_passage(engine, passage))

    async def _read_passage(self, engine: Engine, passage: PassageRef) -> None:
        with self.failing_library(engine):
            await self.reader.load_passage(engine, passage, self.verses.current)

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
