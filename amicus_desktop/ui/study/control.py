"""What the window does with the study aids: the Study dock (cross-references, Strong's, bookmarks), the
reader's context-menu entries for them, and their keys.

Hooked into the reader only through its public seams: :attr:`ReaderPane.menu_extenders
<amicus_desktop.ui.reader.ReaderPane.menu_extenders>` (entries on the verse or word under the pointer) and
its text's document (which word was clicked). Every read runs off the UI thread: the library's on the
engine's DB thread (:meth:`Engine.run_db <amicus_desktop.session.engine.Engine.run_db>`), the marks on
the notes store's thread (:meth:`NotesDesk.on_workspace
<amicus_desktop.session.notes.desk.NotesDesk.on_workspace>`, the current workspace only), each as a
task of the window's :class:`~amicus_desktop.session.background.Tasks`.

Keys: Ctrl+Shift+X the selected verse's cross-references; F8 / Shift+F8 open the next / previous one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QShortcut, QTextCursor
from PySide6.QtWidgets import QApplication, QInputDialog, QMenu

from ...core.references import ChapterRef, PassageRef
from ...notes import Workspace
from ...notes.marks import COLOURS, Mark, MarkKind
from ...store.library import LibraryStore
from ...store.study import tables_of
from ...store.word_strongs import WORD
from ...study import cross_references, numbers_at, strongs_study
from ...study.xref_index import index_library
from .. import shortcuts
from .dock import StudyDock, StudyPanel, TextRoom
from .margin import ReaderMarks, anchor_positions

if TYPE_CHECKING:
    from ..main_window import MainWindow

log = logging.getLogger("amicus.ui")
T = TypeVar("T")


class StudyControl:
    def __init__(self, window: MainWindow) -> None:
        self._w = window
        self.dock = StudyDock(window, self._panel_made)
        self.room = TextRoom(window, self.dock)  # the dock's room comes from the results column, not the text
        self.last_verse: PassageRef | None = None
        reader = window.reader
        self.margin = ReaderMarks(reader.text, lambda: window.session.reader.loaded_chapter, self._chapter_marks,
                                  lambda: QApplication.sendEvent(reader, QEvent(QEvent.Type.PaletteChange)))

    @property
    def panel(self) -> Any:
        return self.dock.panel

    def connect(self) -> None:
        w = self._w
        w.reader.menu_extenders.append(self._reader_menu)
        w.reader.wordClicked.connect(self._word_clicked)
        w.signals.workspaceChanged.connect(lambda _info: self._workspace_changed())
        w.signals.booksLoaded.connect(lambda _books: self.refresh_marks())
        for shortcut_id, slot in (("study_xrefs", self.xrefs_of_selection), ("study_next", lambda: self.step(1)),
                                  ("study_previous", lambda: self.step(-1))):
            for seq in shortcuts.sequences(shortcuts.BY_ID[shortcut_id]):  # the keys' one home: shortcuts.py
                shortcut = QShortcut(seq, w)
                shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
                shortcut.activated.connect(slot)

    def _panel_made(self, p: StudyPanel) -> None:
        """The dock's panel, made when a study aid is first asked for: connected, its bookmarks read."""
        p.xrefs.passageRequested.connect(self._open)
        p.strongs.passageRequested.connect(self._open)
        p.strongs.bookChanged.connect(lambda number, book: self.show_strongs(number, book or None))
        p.marks.passageRequested.connect(self._open)
        p.marks.removeRequested.connect(self.remove_mark)
        p.marks.labelRequested.connect(self.relabel)
        p.tabs.currentChanged.connect(lambda _i: self._tab_changed())
        self.refresh_marks()

    # -- running work off the UI thread -------------------------------------------------------------
    def _on_db(self, fn: Callable[[LibraryStore], T], done: Callable[[T], None]) -> None:
        engine = self._w.session.engine
        if engine is None:
            self._w.show_status("Open a library first.")
            return

        async def job() -> None:
            try:
                value = await engine.run_db(fn)
            except Exception as exc:  # a contract error (the database went away): said, not raised
                self._w.show_status(f"The study aids could not read the library: {exc}")
                return
            done(value)

        self._w.tasks.spawn(job())

    def _on_marks(self, fn: Callable[[Workspace], T], done: Callable[[T], None], *, quiet: bool = False,
                  workspace_id: str | None = None) -> None:
        desk = self._w.session.notebook.desk

        async def job() -> None:
            try:
                value = await desk.on_workspace(fn, workspace_id)
            except Exception as exc:  # NotesError: its sentence (the notes pane's banner says it for the margin)
                if not quiet:
                    self._w.show_status(str(getattr(exc, "message", exc)))
                log.info("marks not read", extra={"error": type(exc).__name__})
                return
            done(value)

        self._w.tasks.spawn(job())

    def _reveal(self, pane: Any) -> None:
        """Show the dock (at its opening width, never most of the window) on ``pane``'s tab."""
        self.panel.show_tab(pane)
        if not self.dock.isVisible():
            reader = self._w.main_split.sizes()[0]
            self.dock.show()
            self.room.opened(reader)  # its fit keeps the verse in sight once the text has narrowed

    def _open(self, ref: PassageRef) -> None:
        self._w.open_passage(ref.book_id, ref.chapter, ref.verse_start or 0, ref.verse_end or 0, peek=True)

    # -- cross-references ------------------------------------------------------------------------
    def show_xrefs(self, verse: PassageRef) -> None:
        self.last_verse = verse
        pane = self.panel.xrefs
        self._reveal(pane)
        pane.show_loading(verse)
        engine = self._w.session.engine

        async def indexed() -> None:
            # the index is made (a minute or two the first time on the whole Bible) on a thread and connection of
            # its own, so the DB thread stays free for the chapters and questions meanwhile; then the lookup there
            # finds it current (tests/ui/study/test_xrefs_wait.py)
            if engine is not None:
                try:
                    await asyncio.to_thread(index_library, engine.db_path)
                except Exception as exc:  # not a scripture.db: the lookup below says why in the pane
                    log.info("cross-reference index not made ahead", extra={"error": type(exc).__name__})
            self._on_db(lambda store: cross_references(tables_of(store), verse), pane.show_result)

        self._w.tasks.spawn(indexed())

    def xrefs_of_selection(self) -> None:
        verses = self._w.reader.selected_verses()
        chapter = self._w.session.reader.loaded_chapter
        if verses and chapter is not None:
            self.show_xrefs(PassageRef(chapter.book_id, chapter.chapter, verses[0], verses[0]))

    def step(self, delta: int) -> None:
        if self.dock.isVisible():
            self.panel.xrefs.step(delta)

    # -- Strong's ----------------------------------------------------------------------------------
    def show_strongs(self, number: str, book: str | None = None) -> None:
        panel = self.panel.strongs
        self._reveal(panel)
        panel.show_loading(number)
        self._on_db(lambda store: strongs_study(tables_of(store), number, book), panel.show_study)

    def strongs_of_word(self, verse: PassageRef, word: int) -> None:
        panel = self.panel.strongs
        self._reveal(panel)

        def found(value: tuple[str, tuple[str, ...]]) -> None:
            text, numbers = value
            if numbers:
                self.show_strongs(numbers[0])
            else:
                panel.show_message(f"“{text}” carries no Strong's number in the KJV of this library."
                                   if text else "This library has no Strong's numbers on the KJV's words.")

        book, chapter, v = verse.book_id, verse.chapter, verse.verse_start or 1
        self._on_db(lambda store: numbers_at(tables_of(store), book, chapter, v, word), found)

    def _word_clicked(self, verse: int, _word: str, column: int) -> None:
        """One click on a word of the KJV (alone or beside): its Strong's study, while the Study dock shows the
        Strong's tab (so reading and selecting stay quiet otherwise; the context menu offers it always)."""
        chapter = self._w.session.reader.loaded_chapter
        if (chapter is None or not self.dock.isVisible() or self.panel.tabs.currentWidget() is not self.panel.strongs
                or self._w.reader.translation_of(column).upper() != "KJV"):
            return
        found = self.word_under_cursor(verse, column)
        if found is not None:
            self.strongs_of_word(PassageRef(chapter.book_id, chapter.chapter, verse, verse), found[1])

    def word_under_cursor(self, verse: int, column: int = 0) -> tuple[str, int] | None:
        """The word at the reader's cursor and its place among the verse's words (from 0), in ``column``'s
        translation (1: the one beside)."""
        doc = self._w.reader.text.document()
        cursor = self._w.reader.text.textCursor()
        start = anchor_positions(doc, "b" if column == 1 else "v").get(verse)
        if start is None:
            return None
        word = QTextCursor(cursor)
        word.select(QTextCursor.SelectionType.WordUnderCursor)
        if not WORD.fullmatch(word.selectedText() or " "):
            return None
        span = QTextCursor(doc)
        span.setPosition(start)
        span.setPosition(word.selectionStart(), QTextCursor.MoveMode.KeepAnchor)
        before = WORD.findall(span.selectedText())
        return word.selectedText(), max(len(before) - 1, 0)  # the verse's own number is not a word of it

    # -- bookmarks and highlights ----------------------------------------------------------------------
    def refresh_marks(self) -> None:
        """The Bookmarks tab and the reader's marks read again (after a change)."""
        desk = self._w.session.notebook.desk
        wid = desk.workspace_id

        def read(marks: list[Mark]) -> None:
            if wid != desk.workspace_id:  # switched meanwhile: these are another workspace's
                return
            if self.dock.created:
                self.panel.marks.set_marks(marks)
            self._w.filter_bar.marked.set_marks(marks)  # "My passages": what a question may be limited to

        self._on_marks(lambda ws: ws.marks().marks(), read, workspace_id=wid)
        self.margin.refresh()

    def _workspace_changed(self) -> None:
        """Another workspace: the "My passages" choice was the last one's (the session dropped its passages
        from the filters already, session/notes/notebook.py); its marks are read anew."""
        self._w.filter_bar.marked.forget()
        self.refresh_marks()

    def _chapter_marks(self, chapter: ChapterRef, done: Callable[[list[Mark]], None]) -> None:
        ref = PassageRef(chapter.book_id, chapter.chapter)
        self._on_marks(lambda ws: ws.marks().marks(on=ref), done, quiet=True)

    def add_mark(self, kind: MarkKind, ref: PassageRef, colour: str | None = None) -> None:
        def done(mark: Mark) -> None:
            self._w.show_status(f"{mark.kind.value.capitalize()} on {self._label(mark.ref)}.")
            self.refresh_marks()
        self._on_marks(lambda ws: ws.marks().add(kind, ref, colour=colour), done)

    def remove_mark(self, mark_id: str) -> None:
        self._on_marks(lambda ws: ws.marks().remove(mark_id), lambda _m: self.refresh_marks())

    def relabel(self, mark_id: str) -> None:
        mark = next((m for m in self.panel.marks.marks if m.id == mark_id), None)
        if mark is None:
            return
        text, ok = QInputDialog.getText(self._w, "Labels", f"Labels of {self._label(mark.ref)} (separated by commas):",
                                        text=", ".join(mark.labels))
        if ok:
            labels = [x for x in text.split(",") if x.strip()]
            self._on_marks(lambda ws: ws.marks().edit(mark_id, labels=labels), lambda _m: self.refresh_marks())

    def label_passage(self, ref: PassageRef) -> None:
        text, ok = QInputDialog.getText(self._w, "Label", f"Label {self._label(ref)} as (separated by commas):")
        labels = [x for x in text.split(",") if x.strip()]
        if ok and labels:
            self._on_marks(lambda ws: ws.marks().add(MarkKind.BOOKMARK, ref, labels=labels),
                           lambda _m: self.refresh_marks())

    def _tab_changed(self) -> None:
        if not self._w.tasks.is_open:  # the window is closing: its tabs report as Qt takes them down
            return
        if self.panel.tabs.currentWidget() is self.panel.marks:
            self.refresh_marks()

    # -- the reader's context menu ----------------------------------------------------------------------
    def _reader_menu(self, menu: QMenu, verses: list[int]) -> None:
        chapter = self._w.session.reader.loaded_chapter
        text = self._w.session.reader.text
        if chapter is None or not verses:
            return
        first = PassageRef(chapter.book_id, chapter.chapter, verses[0], verses[0])
        span = PassageRef(chapter.book_id, chapter.chapter, verses[0], verses[-1])
        menu.addSeparator()
        menu.addAction(f"Cross-references of {self._label(first)}", lambda: self.show_xrefs(first))
        column = self._w.reader.column_at()  # the KJV may be the translation beside
        if text is not None and self._w.reader.translation_of(column).upper() == "KJV" and len(verses) == 1:
            found = self.word_under_cursor(verses[0], column)
            if found is not None:
                word, index = found
                menu.addAction(f"Strong's number of “{word}”", lambda: self.strongs_of_word(first, index))
        menu.addAction(f"Bookmark {self._label(span)}", lambda: self.add_mark(MarkKind.BOOKMARK, span))
        colours = menu.addMenu(f"Highlight {self._label(span)}")
        for colour in COLOURS:
            colours.addAction(colour.capitalize(), self._highlighter(span, colour))
        menu.addAction(f"Label {self._label(span)}…", lambda: self.label_passage(span))

    def _label(self, ref: PassageRef) -> str:
        """``ref`` named as the open library names its book ("Song of Solomon 2:1")."""
        return self._w.session.library.names.passage(ref)

    def _highlighter(self, span: PassageRef, colour: str) -> Callable[[], None]:
        return lambda: self.add_mark(MarkKind.HIGHLIGHT, span, colour)

