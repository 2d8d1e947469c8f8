"""The reading pane: book and chapter navigation (:mod:`.reader_nav`), the translation, and the chapter's text
in a serif face.

Verses in focus (a typed "John 3:16", a result opened in the reader) are highlighted and scrolled
to the middle of the view once their chapter's text is on screen. The translation is chosen beside the
chapter (WEB, KJV…) and named in the chapter's title. Copying selected text copies the whole verses the
selection touches with their reference ("— Romans 8:28 (WEB)"); the context menu offers that and
*Search for this verse's topic* (the verse's text asked as a question), then what :attr:`ReaderPane.
menu_extenders` add (the reader's notes). A verse the reader wrote a note on carries a margin mark (✎,
its notes in the tooltip) that :attr:`ReaderPane.noteMarkClicked` reports.
"""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication, QKeyEvent, QKeySequence, QPalette, QTextCursor
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
from .theme import blend, muted_text, reading_size, serif_font


class ReaderPane(QWidget):
    """Shows one chapter; its :attr:`nav` (:class:`~.reader_nav.ReaderNav`) says where the user asks to go."""

    #: ask this text as a question (a verse's *Search for this verse's topic*)
    topicRequested = Signal(str)
    #: a status-bar sentence (what was copied)
    message = Signal(str)
    #: the margin mark of a verse (0: the chapter's) was clicked
    noteMarkClicked = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ref: ChapterRef | None = None
        self._title = ""
        self._verses: list[tuple[int, str]] = []
        self._focus: PassageRef | None = None
        self._note = ""
        self._rendered: tuple[ChapterRef | None, int] | None = None
        self._translation = ""  # the abbreviation of the translation on screen
        self._marks: dict[int, str] = {}  # verse (0: the chapter) → the mark's tooltip
        #: ``(menu, verses)`` functions that add entries to the text's context menu
        self.menu_extenders: list[Callable[[QMenu, list[int]], None]] = []

        self.nav = ReaderNav()
        # the navigation's controls, by the names the window and the tests use
        n = self.nav
        self.book_combo = n.book_combo
        self.chapter_spin = n.chapter_spin
        self.prev_button = n.prev_button
        self.next_button = n.next_button
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

    # -- inputs ----------------------------------------------------------------------------
    def set_books(self, books: list[BookRow]) -> None:
        self.nav.set_books(books)

    def set_chapter(self, ref: ChapterRef | None, title: str) -> None:
        """The current chapter changed: update navigation; text follows in :meth:`show_text`."""
        self._ref = ref
        self._title = title
        self.nav.show_chapter(ref)

    def show_text(self, ref: ChapterRef, title: str, verses: list[tuple[int, str]], note: str = "",
                  translation: str = "") -> None:
        self._ref = ref
        self._translation = translation
        self._title = f"{title} ({translation})" if translation else title
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
        if marks != self._marks:
            self._marks = dict(marks)
            self._render()

    def _anchor_clicked(self, url: object) -> None:
        text = url.toString() if hasattr(url, "toString") else str(url)
        if text.startswith("note:") and text[5:].isdigit():
            self.noteMarkClicked.emit(int(text[5:]))

    def set_focus(self, passage: PassageRef | None) -> None:
        """Highlight ``passage``'s verses and centre the first; at once if its chapter is on screen,
        else when :meth:`show_text` brings it (``None`` clears)."""
        self._focus = passage
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
        if lines is None:
            return
        y = self.verse_rect_y(lines[0])
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
        pal = self.palette()
        muted = muted_text(pal).name()
        mark = blend(pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Highlight), 0.22).name()
        pen = pal.color(QPalette.ColorRole.Highlight).name()

        def note_mark(verse: int) -> str:  # the margin mark: a link with the notes in its tooltip
            tip = self._marks.get(verse)
            return "" if tip is None or not self._verses else (
                f"<a href='note:{verse}' title='{html.escape(tip, quote=True)}' style='text-decoration:none; "
                f"color:{pen}; font-weight:600'>✎</a>&#8202;")

        parts = [f"<h2 style='font-weight:600; margin-bottom:14px'>{note_mark(0)}{html.escape(self._title)}</h2>"]
        if self._note:
            parts.append(f"<p style='color:{muted}; font-style:italic'>{html.escape(self._note)}</p>")
        if self._verses:
            lo, hi = self._focus_lines()
            spans = []
            for n, text in self._verses:
                body = html.escape(text)
                num = f"{note_mark(n)}<a name='v{n}'></a><sup style='color:{muted}; font-size:small'>{n}</sup>&#8202;"
                if lo <= n <= hi:
                    body = f"<span style='background-color:{mark}'>{body}</span>"
                spans.append(num + body)
            parts.append("<p style='line-height:160%'>" + " &nbsp;".join(spans) + "</p>")
        same = self._rendered == (self._ref, len(self._verses))
        scroll = self.text.verticalScrollBar().value() if same else 0
        self.text.setHtml("".join(parts))
        self._rendered = (self._ref, len(self._verses))
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

    def copy_verses(self, numbers: list[int] | None = None) -> bool:
        """Copy whole verses with their reference and translation; ``False`` when there is no verse."""
        numbers = self.selected_verses() if numbers is None else numbers
        row = self.nav.book(self._ref.book_id) if self._ref else None
        book = row.name if row else None
        if not numbers or self._ref is None or book is None:
            return False
        reference = verse_words.verse_reference(book, self._ref.chapter, numbers)
        chosen = [(n, t) for n, t in self._verses if n in numbers]
        QGuiApplication.clipboard().setText(verse_words.copied(reference, self._translation, chosen))
        self.message.emit(verse_words.copied_status(reference, self._translation))
        return True

    def _context_menu(self, point: QPoint) -> None:
        if not self._verses:
            return
        if not self.text.textCursor().hasSelection():
            self.text.setTextCursor(self.text.cursorForPosition(point))
        numbers = self.selected_verses()
        menu = QMenu(self)
        label = "Copy verse with reference" if len(numbers) == 1 else "Copy verses with reference"
        copy = menu.addAction(label, lambda: self.copy_verses(numbers))
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
        return super().eventFilter(watched, event)

    def _focus_lines(self) -> tuple[int, int]:
        f = self._focus
        if f is None or f.verse_start is None or f.chapter_ref != self._ref:
            return 0, -1
        return f.verse_start, f.verse_end or f.verse_start
