"""The notes pane under the reader: the reader's own notes on the chapter, or all of them with a search,
the selected one shown with its formatting, and the note being written.

It shows and requests, nothing more: the notes, the list, the draft and its autosave live in the
session (``session/notes/``); :class:`~.control.NotesControl` connects the two. Keyboard: Tab walks the
scope buttons, the search box, *Add note*, the list, the note and its buttons; in the list Enter (or F2)
edits the selected note, Delete deletes it; in the editor Esc or Ctrl+Enter ends the editing (the text is
saved as it is typed, within a few seconds).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from ...core.names import NamesSource
from ...notes import Note
from ...present import notes as words
from ...session.notes import EditorState, EditorStatus
from ..elided import ElidedLabel
from ..theme import muted_text, scaled_font, serif_font
from .models import NotesModel

CHAPTER, ALL = "chapter", "all"


def _button(text: str, tip: str) -> QToolButton:
    """A compact text button (the pane shares the reader's column, 320 px at 1000 × 650)."""
    b = QToolButton()
    b.setText(text)
    b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    b.setAccessibleName(text.replace("&", ""))
    b.setToolTip(tip)
    b.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    return b


class NotesPane(QWidget):
    """The reader's notes (see the module docstring). Emits what the reader asks for."""

    scopeChanged = Signal(str)  # CHAPTER or ALL
    searchChanged = Signal(str)
    addRequested = Signal()
    editRequested = Signal(object)  # Note
    deleteRequested = Signal(object)  # Note
    undoRequested = Signal()
    draftChanged = Signal(str)
    doneRequested = Signal()
    keepMineRequested = Signal()
    takeTheirsRequested = Signal()
    passageRequested = Signal(str, int, int, int)

    def __init__(self, model: NotesModel, names: NamesSource, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._names = names
        self._empty = ""
        self.setObjectName("notesPane")
        self.scope = CHAPTER
        self.heading = ElidedLabel("My notes")
        self.heading.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.heading.setAccessibleName("My notes")
        self.chapter_button = QToolButton()
        self.all_button = QToolButton()
        self.scope_group = QButtonGroup(self)
        for b, text, name, tip in (
                (self.chapter_button, "Chapter", "Show my notes on this chapter", "Your notes on the chapter you read"),
                (self.all_button, "All", "Show all my notes", "Every note here, searchable (Ctrl+Shift+L)")):
            b.setText(text)
            b.setCheckable(True)
            b.setAutoRaise(True)
            b.setAccessibleName(name)
            b.setToolTip(tip)
            self.scope_group.addButton(b)
        self.chapter_button.setChecked(True)
        self.search = QLineEdit()
        self.search.setPlaceholderText("Search my notes (words, a passage)…")
        self.search.setAccessibleName("Search my notes")
        self.search.setClearButtonEnabled(True)
        self.search.hide()
        self.add_button = _button("Add &note", "Write a note on the selected verses, or on the chapter (Ctrl+N)")
        self.model = model
        self.list = QTreeView()  # one column: elides long rows rather than scrolling sideways
        self.list.setModel(model)
        self.list.setAccessibleName("My notes")
        self.list.setRootIsDecorated(False)
        self.list.setHeaderHidden(True)
        self.list.setUniformRowHeights(True)
        self.list.setAlternatingRowColors(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.list.installEventFilter(self)
        self.list.setMinimumHeight(44)
        self.info = QLabel()  # notes pending, a note deleted (with Undo)
        self.info.setWordWrap(True)
        self.info.setAccessibleName("About my notes")
        self.undo_button = _button("&Undo", "Bring the deleted note back (Ctrl+Z)")
        self.undo_button.hide()

        self.view = QTextBrowser()
        self.view.setOpenLinks(False)
        self.view.setAccessibleName("Selected note")
        self.view.document().setDocumentMargin(8)
        self.view.setMinimumHeight(44)
        self.edit_button = _button("&Edit", "Edit this note (Enter or F2 in the list)")
        self.delete_button = _button("&Delete", "Delete this note (Delete in the list; Undo brings it back)")
        self.open_button = _button("Open", "Open the passage of this note in the reader")
        self.editor_title = QLabel()
        self.editor_title.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.editor = QPlainTextEdit()
        self.editor.setAccessibleName("Note text")
        self.editor.setPlaceholderText("Write your note. **bold**, *italic*, - lists, # headings. It is saved as "
                                       "you type.")
        self.editor.installEventFilter(self)
        self.editor.setMinimumHeight(44)
        self.editor_status = QLabel()
        self.editor_status.setAccessibleName("Note saved state")
        self.keep_button = _button("Keep mine", "Save your text over the other version")
        self.theirs_button = _button("Take theirs", "Drop your text and edit the version saved elsewhere")
        self.done_button = _button("Done", "Stop editing (Esc or Ctrl+Enter); the text is already saved")
        self.keep_button.hide()
        self.theirs_button.hide()
        self.editor_status.setMinimumWidth(40)

        self.detail = QStackedWidget()
        self.detail.addWidget(self._column(self.view, self.edit_button, self.delete_button, self.open_button))
        self.detail.addWidget(self._column(self.editor, self.editor_status, self.keep_button, self.theirs_button,
                                           self.done_button, title=self.editor_title))
        self.split = QSplitter(Qt.Orientation.Vertical)
        self.split.setObjectName("notesSplit")
        self.split.addWidget(self.list)
        self.split.addWidget(self.detail)
        self.split.setChildrenCollapsible(False)
        self.split.setSizes([120, 180])
        top = QHBoxLayout()
        top.setSpacing(4)
        top.addWidget(self.heading, 1)
        top.addWidget(self.chapter_button)
        top.addWidget(self.all_button)
        top.addWidget(self.add_button)
        strip = QHBoxLayout()
        strip.addWidget(self.info, 1)
        strip.addWidget(self.undo_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 6, 6, 6)
        layout.setSpacing(4)
        layout.addLayout(top)
        layout.addWidget(self.search)
        layout.addWidget(self.split, 1)
        layout.addLayout(strip)
        self._pending = 0
        self._online = False
        self._removed = ""

        self.chapter_button.clicked.connect(lambda: self.set_scope(CHAPTER, emit=True))
        self.all_button.clicked.connect(lambda: self.set_scope(ALL, emit=True))
        self.search.textChanged.connect(self.searchChanged)
        self.add_button.clicked.connect(self.addRequested)
        self.undo_button.clicked.connect(self.undoRequested)
        self.edit_button.clicked.connect(lambda: self._with_current(self.editRequested.emit))
        self.delete_button.clicked.connect(lambda: self._with_current(self.deleteRequested.emit))
        self.open_button.clicked.connect(lambda: self._with_current(self._open))
        self.list.activated.connect(lambda _i: self._with_current(self.editRequested.emit))
        self.list.selectionModel().currentRowChanged.connect(lambda _c, _p: self._show_current())
        self.editor.textChanged.connect(lambda: self.draftChanged.emit(self.editor.toPlainText()))
        self.done_button.clicked.connect(self.doneRequested)
        self.keep_button.clicked.connect(self.keepMineRequested)
        self.theirs_button.clicked.connect(self.takeTheirsRequested)
        self.set_text_size(12.0)
        self._show_current()

    def _column(self, main: QWidget, *buttons: QWidget, title: QLabel | None = None) -> QWidget:
        page = QWidget()
        col = QVBoxLayout(page)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(4)
        if title is not None:
            col.addWidget(title)
        col.addWidget(main, 1)
        row = QHBoxLayout()
        row.setSpacing(6)
        for b in buttons:
            row.addWidget(b, 1 if isinstance(b, QLabel) else 0)  # a status line takes the room left
        if not any(isinstance(b, QLabel) for b in buttons):
            row.addStretch(1)
        col.addLayout(row)
        return page

    # -- state in --------------------------------------------------------------------------------
    def set_text_size(self, reading: float) -> None:
        font = serif_font(max(8.0, reading * 0.9))
        self.view.setFont(font)
        self.editor.setFont(font)

    def set_scope(self, scope: str, *, emit: bool = False) -> None:
        self.scope = scope
        (self.chapter_button if scope == CHAPTER else self.all_button).setChecked(True)
        self.search.setVisible(scope == ALL)
        if emit:
            self.scopeChanged.emit(scope)

    def show_notes(self, notes: tuple[Note, ...], heading: str, empty: str, short_heading: str = "") -> None:
        """List ``notes`` under ``heading`` (``short_heading`` when the pane is too narrow for it; ``empty``
        said when there are none); the selection stays on the same note when it is still listed."""
        before = self.current
        self.model.set_notes(notes, in_chapter=self.scope == CHAPTER)
        self.heading.setText(heading)
        self.heading.set_shorter(*([short_heading] if short_heading else []))
        row = self.model.row_of(before.id) if before is not None else -1
        if self.model.rowCount():
            self.list.setCurrentIndex(self.model.index(max(row, 0), 0))
        self._empty = empty
        self._show_current()

    def select(self, note_id: str) -> bool:
        row = self.model.row_of(note_id)
        if row >= 0:
            self.list.setCurrentIndex(self.model.index(row, 0))
        return row >= 0

    @property
    def current(self) -> Note | None:
        return self.model.note(self.list.currentIndex().row())

    def show_pending(self, count: int) -> None:
        self._pending = count
        self._render_info()

    def set_online(self, online: bool) -> None:
        """Whether the embed proxy is online (pending notes are then being embedded, not waiting)."""
        if online != self._online:
            self._online = online
            self._render_info()

    def show_removed(self, text: str) -> None:
        """A note was deleted (``text`` says which; Undo is offered), or ``""``: nothing to undo."""
        self._removed = text
        self.undo_button.setVisible(bool(text))
        self._render_info()

    def show_editor(self, status: EditorStatus, title: str, text: str | None) -> None:
        """The editor's state; ``text`` replaces the draft shown (a note just opened), ``None`` keeps it."""
        editing = status.state is not EditorState.CLOSED
        self.detail.setCurrentIndex(1 if editing else 0)
        if not editing:
            self._show_current()
            return
        self.editor_title.setText(title)
        if text is not None and text != self.editor.toPlainText():
            self.editor.blockSignals(True)
            self.editor.setPlainText(text)
            self.editor.blockSignals(False)
        conflict = status.state is EditorState.CONFLICT
        self.keep_button.setVisible(conflict)
        self.theirs_button.setVisible(conflict)
        if status.message:
            self.editor_status.setText(status.message)
        elif status.state is EditorState.SAVED and status.note is not None:
            self.editor_status.setText(words.saved_text(status.note.updated))
        else:
            self.editor_status.setText({EditorState.EMPTY: "Not saved until it has some text",
                                        EditorState.UNSAVED: "Saving soon…",
                                        EditorState.SAVING: "Saving…"}.get(status.state, ""))

    # -- internals -------------------------------------------------------------------------------
    def _render_info(self) -> None:
        pending = words.pending_text(self._pending, self._online) if self._pending else ""
        parts = [p for p in (self._removed, pending) if p]
        self.info.setText("  ".join(parts))
        self.info.setVisible(bool(parts))

    def _show_current(self) -> None:
        note = self.current
        for b in (self.edit_button, self.delete_button, self.open_button):
            b.setEnabled(note is not None)
        self.open_button.setEnabled(note is not None and note.ref is not None)
        muted = muted_text(self.palette()).name()
        if note is None:
            self.view.setHtml(f"<p style='color:{muted}; font-style:italic'>{html.escape(self._empty)}</p>")
            return
        head = html.escape(words.where(note, self._names()))
        self.view.setHtml(f"<p style='color:{muted}; font-size:small; margin-top:0'>Your note on {head} · "
                          f"{words.saved_text(note.updated)}</p>{words.note_html(note.text)}")

    def _with_current(self, act: object) -> None:
        note = self.current
        if note is not None and callable(act):
            act(note)

    def _open(self, note: Note) -> None:
        r = note.ref
        if r is not None:
            self.passageRequested.emit(r.book_id, r.chapter, r.verse_start or 0, r.verse_end or r.verse_start or 0)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key, mods = event.key(), event.modifiers()
            if watched is self.list and key == Qt.Key.Key_Delete:
                self._with_current(self.deleteRequested.emit)
                return True
            if watched is self.list and key == Qt.Key.Key_F2:
                self._with_current(self.editRequested.emit)
                return True
            if watched is self.editor and (key == Qt.Key.Key_Escape or (
                    key in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and mods & Qt.KeyboardModifier.ControlModifier)):
                self.doneRequested.emit()
                return True
        return super().eventFilter(watched, event)
