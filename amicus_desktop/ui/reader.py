"""The reading pane: book and chapter navigation (:mod:`.reader_nav`), the translation, and the chapter's text
in a serif face — one translation as running text, or two side by side, verse by verse (:mod:`.reader_text`).

Verses in focus (a typed "John 3:16", a result opened in the reader) are highlighted and scrolled
to the middle of the view once their chapter's text is on screen. The translation is chosen beside the
chapter (WEB, KJV…) and named in the chapter's title. Copying selected text copies the whole verses the
selection touches with their reference ("— Romans 8:28 (WEB)"); the context menu offers that and
*Search for this verse's topic* (the verse's text asked as a question), then what :attr:`ReaderPane.
menu_extenders` add (the reader's notes; ``ui/study/``'s cross-references, bookmarks). In two translations
the verse is copied from the column it was chosen in, with that translation's name.

Hooks for the study panes: :meth:`ReaderPane.set_margin_marks` puts a kind of mark in the margin (the notes'
✎ is the kind ``note``; :attr:`ReaderPane.marginMarkClicked` reports a click, :attr:`noteMarkClicked` the
notes' own), :attr:`ReaderPane.verseChosen` says which verse the reader clicked or moved to (the commentary
follows it), :attr:`ReaderPane.wordClicked` which word (verse, word, column: 0 the left translation, 1 the
right) was clicked.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence, QMouseEvent, QTextCursor
from PySide6.QtWidgets import (
    QMenu,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from ..core.references import ChapterRef, PassageRef
from ..present import verses as verse_words
from ..store.scripture import BookRow
from ..store.verses import Translation
from .reader_nav import ReaderNav
from .reader_text import Mark, Page, page_html
from .theme import reading_size, serif_font


class ReaderPane(QWidget):
    """Shows one chapter; its :attr:`nav` (:class:`~.reader_nav.ReaderNav`) says where the user asks to go."""

    #: ask this text as a question (a verse's *Search for this verse's topic*)
    topicRequested = Signal(str)
    #: a status-bar sentence (what was copied)
    message = Signal(str)
    #: the notes' margin mark of a verse (0: the chapter's) was clicked
    noteMarkClicked = Signal(int)
    #: a margin mark of some kind (``note``, or a study pane's) on a verse was clicked
    marginMarkClicked = Signal(str, int)
    #: the reader clicked (or moved the cursor to) this verse
    verseChosen = Signal(int)
    #: a word was clicked: verse, word, column (0: the translation on the left or alone, 1: the one beside)
    wordClicked = Signal(int, str, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ref: ChapterRef | None = None
        self._title = ""
        self._verses: list[tuple[int, str]] = []
        self._focus: PassageRef | None = None
        self._note = ""
        self._rendered: tuple[ChapterRef | None, int] | None = None
        self._translation = ""  # the abbreviation of the translation on screen
        self._beside: list[tuple[int, str]] = []  # the chapter in the translation beside it (two columns)
        self._beside_translation = ""
        self._marks: dict[str, dict[int, Mark]] = {}  # kind → verse (0: the chapter) → mark
        self._chosen: int | None = None  # the verse the reader last clicked or moved to
        #: ``(menu, verses)`` functions that add entries to the text's context menu
        self.menu_extenders: list[Callable[[QMenu, list[int]], None]] = []

        self.nav = ReaderNav()
        # the navigation's controls, by the names the window and the tests use
        n = self.nav
        self.book_combo = n.book_combo
        self.chapter_spin = n.chapter_spin
        self.prev_button = n.prev_button
        self.next_button = n.next_button
        self.back_button = n.back_button
        self.forward_button = n.forward_button
        self.translation_combo = n.translation_combo
        self.goto_edit = n.goto_edit
        self.goto_error = n.goto_error

        self.text = QTextBrowser()
        self.text.setOpenLinks(False)
        self.text.setFrameShape(QTextBrowser.Shape.NoFrame)
        self.text.setAccessibleName("Chapter text")
        self.text.document().setDocumentMargin(18)
        self.set_text_size(reading_size(None, self.font()))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 6, 6)
        layout.setSpacing(8)
        layout.addWidget(self.nav)
        layout.addWidget(self.text, 1)

        self.text.installEventFilter(self)
        self.text.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.text.customContextMenuRequested.connect(self._context_menu)
        self.text.anchorClicked.connect(self._anchor_clicked)
        self.text.viewport().installEventFilter(self)
        self.text.cursorPositionChanged.connect(self._cursor_moved)

    # -- inputs ----------------------------------------------------------------------------
    def set_books(self, books: list[BookRow]) -> None:
        self.nav.set_books(books)

    def set_chapter(self, ref: ChapterRef | None, title: str) -> None:
        """The current chapter changed: update navigation; text follows in :meth:`show_text`."""
        self._ref = ref
        self._title = title
        self.nav.show_chapter(ref)

    def show_text(self, ref: ChapterRef, title: str, verses: list[tuple[int, str]], note: str = "",
                  translation: str = "", beside: list[tuple[int, str]] | None = None,
                  beside_translation: str = "") -> None:
        """Show a chapter; with ``beside_translation``, ``beside`` (the same chapter in it) in a second column."""
        if ref != self._ref:
            self._chosen = None
        self._ref = ref
        self._translation = translation
        self._beside = list(beside or [])
        self._beside_translation = beside_translation
        names = " · ".join(t for t in (translation, beside_translation) if t)
        self._title = f"{title} ({names})" if names else title
        self._verses = verses
        self._note = note
        self.nav.show_chapter(ref)
        self._render()
        self._centre_focus()

    def show_message(self, title: str, message: str) -> None:
        self._verses = []
        self._title = title
        self._note = message
        self._render()

    def set_note_marks(self, marks: dict[int, str]) -> None:
        """Mark these verses (0: the chapter's title) as carrying the reader's notes; the values are tooltips."""
        self.set_margin_marks("note", {v: ("✎", tip) for v, tip in marks.items()})

    def set_margin_marks(self, kind: str, marks: dict[int, Mark]) -> None:
        """Put ``kind``'s marks in the margin: verse (0: the chapter's title) → (symbol, tooltip); ``{}`` clears
        them. Kinds show in the order first set; a click is :attr:`marginMarkClicked`."""
        if marks != self._marks.get(kind, {}):
            self._marks[kind] = dict(marks)
            self._render()

    def margin_marks(self, kind: str = "note") -> dict[int, str]:
        """``kind``'s marks on screen: verse (0: the chapter) → tooltip."""
        return {v: tip for v, (_symbol, tip) in self._marks.get(kind, {}).items()}

    @property
    def showing_parallel(self) -> bool:
        """Whether two translations are on screen side by side."""
        return bool(self._beside_translation) and bool(self._verses)

    @property
    def current_verse(self) -> int | None:
        """The verse the reader is at: the one last clicked or moved to, else the first in focus."""
        lines = self.highlighted
        return self._chosen if self._chosen is not None else (lines[0] if lines else None)

    def _anchor_clicked(self, url: object) -> None:
        text = url.toString() if hasattr(url, "toString") else str(url)
        parts = text.split(":")
        if len(parts) == 3 and parts[0] == "mark" and parts[2].isdigit():
            self.marginMarkClicked.emit(parts[1], int(parts[2]))
            if parts[1] == "note":
                self.noteMarkClicked.emit(int(parts[2]))

    def _cursor_moved(self) -> None:
        if not self._verses:
            return
        verse = self._verse_at(self.text.textCursor().position(), self._anchors())
        if verse is not None and verse != self._chosen:
            self._chosen = verse
            self.verseChosen.emit(verse)

    def set_focus(self, passage: PassageRef | None) -> None:
        """Highlight ``passage``'s verses and centre the first; at once if its chapter is on screen,
        else when :meth:`show_text` brings it (``None`` clears)."""
        self._focus = passage
        if passage is not None and passage.verse_start is not None:
            self._chosen = None  # the verses brought into focus are where the reader is now
        if passage is None or self._showing(passage):
            self._render()
            self._centre_focus()

    @property
    def highlighted(self) -> tuple[int, int] | None:
        """The verses highlighted on screen now."""
        f = self._focus
        if f is None or f.verse_start is None or not self._showing(f):
            return None
        return f.verse_start, f.verse_end or f.verse_start

    def _showing(self, passage: PassageRef) -> bool:
        return bool(self._verses) and self._rendered is not None and self._rendered[0] == passage.chapter_ref

    def verse_rect_y(self, verse: int) -> int | None:
        """The vertical centre of ``verse``'s number in viewport coordinates (``None``: not in the text)."""
        cursor = self._verse_cursor(verse)
        return None if cursor is None else self.text.cursorRect(cursor).center().y()

    def _verse_cursor(self, verse: int) -> QTextCursor | None:
        position = next((p for p, n in self._anchors() if n == verse), None)
        if position is None:
            return None
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(position)
        return cursor

    def _centre_focus(self) -> None:
        """Scroll so the first focused verse sits in the middle of the view (now, and once more
        after the layout settles: a newly shown pane gets its final size a turn later)."""
        self._scroll_to_focus()
        QTimer.singleShot(0, self, self._scroll_to_focus)

    def _scroll_to_focus(self) -> None:
        lines = self.highlighted
        if lines is not None:
            self.centre_verse(lines[0])

    def keep_current_in_view(self) -> None:
        """After the view changed size (reading mode, the drawer): the verse the reader is at in the middle."""
        verse = self.current_verse
        if verse is not None:
            self.centre_verse(verse)
            QTimer.singleShot(0, self, lambda: self.centre_verse(verse))

    def centre_verse(self, verse: int) -> None:
        """Scroll so that ``verse``'s first line sits in the middle of the view."""
        y = self.verse_rect_y(verse)
        if y is None:
            return
        bar = self.text.verticalScrollBar()
        bar.setValue(bar.value() + y - self.text.viewport().height() // 2)

    def set_text_size(self, points: float) -> None:
        """The chapter text's size; the verses in focus stay in view."""
        self.text.setFont(serif_font(points))
        self._render()
        self._centre_focus()

    def set_translations(self, translations: tuple[Translation, ...], current: str | None) -> None:
        """The translations the database holds, ``current`` chosen (``None``: the default)."""
        self.nav.set_translations(translations, current)

    def focus_goto(self) -> None:
        self.nav.focus_goto()

    def show_goto_error(self, message: str) -> None:
        self.nav.show_goto_error(message)

    # -- internals -------------------------------------------------------------------------
    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._render()
        super().changeEvent(event)

    def _render(self) -> None:
        page = Page(self._title, self._note, self._verses, self._translation, self._beside,
                    self._beside_translation, self._focus_lines(), self._marks, self._ref)
        same = self._rendered == (self._ref, len(self._verses))
        scroll = self.text.verticalScrollBar().value() if same else 0
        self.text.blockSignals(True)  # the cursor's move to the start is not the reader's
        self.text.setHtml(page_html(page, self.palette()))
        self._rendered = (self._ref, len(self._verses))
        verse = self.current_verse  # the cursor goes where the reader is: copy, Ctrl+Shift+X … act on that verse
        cursor = self._verse_cursor(verse) if verse is not None else None
        if cursor is not None:
            self.text.setTextCursor(cursor)
        self.text.blockSignals(False)
        self.text.verticalScrollBar().setValue(scroll)

    # -- copying and the context menu ----------------------------------------------------------
    def _anchors(self) -> list[tuple[int, int]]:
        """``(position, verse)`` of every verse number in the text, in order."""
        out: list[tuple[int, int]] = []
        block = self.text.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                out += [(fragment.position(), int(name[1:])) for name in fragment.charFormat().anchorNames()
                        if name.startswith("v") and name[1:].isdigit()]
                it += 1
            block = block.next()
        return out

    def _verse_at(self, position: int, anchors: list[tuple[int, int]]) -> int | None:
        found = [n for p, n in anchors if p <= position]
        return found[-1] if found else (anchors[0][1] if anchors else None)

    def selected_verses(self) -> list[int]:
        """The verses the selection touches (the verse at the cursor when nothing is selected)."""
        anchors = self._anchors()
        cursor = self.text.textCursor()
        start, end = cursor.selectionStart(), max(cursor.selectionStart(), cursor.selectionEnd() - 1)
        first, last = self._verse_at(start, anchors), self._verse_at(end, anchors)
        if first is None or last is None:
            return []
        return [n for n, _t in self._verses if first <= n <= last]

    def translation_of(self, column: int) -> str:
        """The translation shown in ``column`` (1: the one beside, when two are shown)."""
        return self._beside_translation if column == 1 and self.showing_parallel else self._translation

    def column_at(self, cursor: QTextCursor | None = None) -> int:
        """The column of ``cursor`` (the text cursor when ``None``): 1 in the translation beside, else 0."""
        cursor = cursor if cursor is not None else self.text.textCursor()
        table = cursor.currentTable() if self.showing_parallel else None
        return 1 if table is not None and table.cellAt(cursor).column() == 1 else 0

    def copy_verses(self, numbers: list[int] | None = None, column: int | None = None) -> bool:
        """Copy whole verses with their reference and translation (in two translations: those of ``column``,
        the cursor's when ``None``); ``False`` when there is no verse."""
        numbers = self.selected_verses() if numbers is None else numbers
        column = self.column_at() if column is None else column
        verses, translation = ((self._beside, self._beside_translation) if column == 1 and self.showing_parallel
                               else (self._verses, self._translation))
        row = self.nav.book(self._ref.book_id) if self._ref else None
        book = row.name if row else None
        chosen = [(n, t) for n, t in verses if n in numbers]
        if not chosen or self._ref is None or book is None:
            return False
        reference = verse_words.verse_reference(book, self._ref.chapter, [n for n, _t in chosen])
        QGuiApplication.clipboard().setText(verse_words.copied(reference, translation, chosen))
        self.message.emit(verse_words.copied_status(reference, translation))
        return True

    def _context_menu(self, point: QPoint) -> None:
        if not self._verses:
            return
        if not self.text.textCursor().hasSelection():
            self.text.setTextCursor(self.text.cursorForPosition(point))
        numbers = self.selected_verses()
        column = self.column_at(self.text.cursorForPosition(point))
        menu = QMenu(self)
        label = "Copy verse with reference" if len(numbers) == 1 else "Copy verses with reference"
        if self.showing_parallel:
            label += f" ({self._beside_translation if column else self._translation})"
        copy = menu.addAction(label, lambda: self.copy_verses(numbers, column))
        copy.setShortcut(QKeySequence(QKeySequence.StandardKey.Copy))
        text = " ".join(t for n, t in self._verses if n in numbers)
        menu.addAction("Search for this verse's topic", lambda: self.topicRequested.emit(text))
        for action in menu.actions():
            action.setEnabled(bool(numbers))
        for extend in self.menu_extenders:
            extend(menu, numbers)
        menu.popup(self.text.viewport().mapToGlobal(point))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.text and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            if event.matches(QKeySequence.StandardKey.Copy) and self.copy_verses():
                return True
        if (watched is self.text.viewport() and event.type() == QEvent.Type.MouseButtonRelease
                and isinstance(event, QMouseEvent) and event.button() == Qt.MouseButton.LeftButton
                and not self.text.textCursor().hasSelection()):
            self._word_clicked(event.position().toPoint())
        return super().eventFilter(watched, event)

    def _word_clicked(self, point: QPoint) -> None:
        cursor = self.text.cursorForPosition(point)
        verse = self._verse_at(cursor.position(), self._anchors())
        cursor.select(QTextCursor.SelectionType.WordUnderCursor)
        word = cursor.selectedText().strip()
        if verse is not None and word and any(c.isalpha() for c in word):
            self.wordClicked.emit(verse, word, self.column_at(cursor))

    def _focus_lines(self) -> tuple[int, int]:
        f = self._focus
        if f is None or f.verse_start is None or f.chapter_ref != self._ref:
            return 0, -1
        return f.verse_start, f.verse_end or f.verse_start
