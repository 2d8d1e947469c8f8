"""The reader's navigation bar: back and forward (through what was read), book, chapter, previous and next,
the translation and the one beside it, and *Go to…*.

:class:`ReaderNav` shows where the reader is (:meth:`ReaderNav.show_chapter`) and says where the reader
asked to go — it never moves by itself: the session decides, and the pane shows what it decided.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from ..core.references import ChapterRef
from ..store.scripture import BookRow
from ..store.verses import Translation
from .theme import show_as_error


class ReaderNav(QWidget):
    """The row of navigation over the chapter, the *Go to…* box under it and the box's error."""

    chapterRequested = Signal(object)  # ChapterRef
    stepRequested = Signal(int)  # -1 previous, +1 next
    referenceEntered = Signal(str)
    #: the reader should show (and verse search use) this translation id
    translationChosen = Signal(str)
    #: show this translation id beside the text ("": none)
    besideChosen = Signal(str)
    #: back (-1) or forward (+1) through what was read
    historyRequested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._books: list[BookRow] = []
        self._ref: ChapterRef | None = None

        self.translation_combo = QComboBox()
        self.translation_combo.setAccessibleName("Translation")
        self.translation_combo.setToolTip("Translation of the text (and of verse search)")
        self.translation_combo.hide()  # shown when the database holds more than one

        self.beside_combo = QComboBox()
        self.beside_combo.setAccessibleName("Translation beside")
        self.beside_combo.setToolTip("A second translation beside the text, verse by verse (Ctrl+Shift+T)")
        self.beside_combo.hide()

        self.back_button = self._tool(QStyle.StandardPixmap.SP_ArrowLeft, "Back")
        self.forward_button = self._tool(QStyle.StandardPixmap.SP_ArrowRight, "Forward")
        self.show_history(False, False, "", "")

        self.book_combo = QComboBox()
        self.book_combo.setAccessibleName("Book")
        self.book_combo.setToolTip("Book")
        self.book_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.book_combo.setMinimumContentsLength(12)
        self.chapter_spin = QSpinBox()
        self.chapter_spin.setAccessibleName("Chapter")
        self.chapter_spin.setToolTip("Chapter")
        self.chapter_spin.setMinimum(1)
        self.chapter_spin.setKeyboardTracking(False)
        self.prev_button = QToolButton()
        self.prev_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_ArrowBack))
        self.prev_button.setAccessibleName("Previous chapter")
        self.prev_button.setToolTip("Previous chapter")
        self.prev_button.setAutoRaise(True)
        self.next_button = QToolButton()
        self.next_button.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_ArrowForward))
        self.next_button.setAccessibleName("Next chapter")
        self.next_button.setToolTip("Next chapter")
        self.next_button.setAutoRaise(True)
        self.goto_edit = QLineEdit()
        self.goto_edit.setPlaceholderText("Go to… (Rom 9, John 3:16)")
        self.goto_edit.setAccessibleName("Go to reference")
        self.goto_edit.setClearButtonEnabled(True)
        self.goto_edit.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.goto_error = QLabel()
        self.goto_error.setWordWrap(True)
        self.goto_error.hide()

        nav = QHBoxLayout()
        nav.setSpacing(6)
        nav.addWidget(self.prev_button)
        nav.addWidget(self.book_combo)
        nav.addWidget(self.chapter_spin)
        nav.addWidget(self.next_button)
        nav.addStretch(1)
        texts = QHBoxLayout()  # Go to… and the translations: a row of its own, readable in a narrow reader
        texts.setSpacing(6)
        texts.addWidget(self.back_button)  # beside the "address": back and forward through what was read
        texts.addWidget(self.forward_button)
        texts.addWidget(self.goto_edit, 1)
        texts.addWidget(self.translation_combo)
        texts.addWidget(self.beside_combo)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        layout.addLayout(nav)
        layout.addLayout(texts)
        layout.addWidget(self.goto_error)

        self.book_combo.activated.connect(self._book_chosen)
        self.chapter_spin.valueChanged.connect(self._chapter_chosen)
        self.prev_button.clicked.connect(lambda: self.stepRequested.emit(-1))
        self.next_button.clicked.connect(lambda: self.stepRequested.emit(1))
        self.goto_edit.returnPressed.connect(self._goto)
        self.goto_edit.textEdited.connect(lambda _t: self.goto_error.hide())
        self.translation_combo.activated.connect(
            lambda i: self.translationChosen.emit(str(self.translation_combo.itemData(i))))
        self.beside_combo.activated.connect(lambda i: self.besideChosen.emit(str(self.beside_combo.itemData(i) or "")))
        self.back_button.clicked.connect(lambda: self.historyRequested.emit(-1))
        self.forward_button.clicked.connect(lambda: self.historyRequested.emit(1))

    def _tool(self, icon: QStyle.StandardPixmap, name: str) -> QToolButton:
        button = QToolButton()
        button.setIcon(self.style().standardIcon(icon))
        button.setAccessibleName(name)
        button.setAutoRaise(True)
        return button

    def show_history(self, can_back: bool, can_forward: bool, back_to: str, forward_to: str) -> None:
        """Enable back and forward as the reading history allows; their tooltips name where they go."""
        self.back_button.setEnabled(can_back)
        self.forward_button.setEnabled(can_forward)
        self.back_button.setToolTip(f"Back to {back_to} (Alt+Left)" if back_to else "Back (Alt+Left)")
        self.forward_button.setToolTip(f"Forward to {forward_to} (Alt+Right)" if forward_to else "Forward (Alt+Right)")

    def show_beside(self, translations: tuple[Translation, ...], beside: str | None) -> None:
        """The choice of a translation beside the text: none, or one of ``translations``; ``beside`` chosen."""
        self.beside_combo.clear()
        self.beside_combo.addItem("+ none", "")
        self.beside_combo.setItemData(0, "One translation", Qt.ItemDataRole.ToolTipRole)
        for t in translations:
            self.beside_combo.addItem(f"+ {t.abbreviation or t.name}", t.translation_id)
            self.beside_combo.setItemData(self.beside_combo.count() - 1, f"{t.name} beside the text",
                                          Qt.ItemDataRole.ToolTipRole)
            if t.translation_id == beside:
                self.beside_combo.setCurrentIndex(self.beside_combo.count() - 1)
        self.beside_combo.setVisible(bool(translations))

    def set_books(self, books: list[BookRow]) -> None:
        self._books = list(books)
        self.book_combo.blockSignals(True)
        self.book_combo.clear()
        for b in self._books:
            self.book_combo.addItem(b.name, b.book_id)
        self.book_combo.blockSignals(False)
        self._sync()

    def book(self, book_id: str) -> BookRow | None:
        """The database's row for ``book_id`` (``None``: not among the books)."""
        return next((b for b in self._books if b.book_id == book_id), None)

    def show_chapter(self, ref: ChapterRef | None) -> None:
        """Show ``ref`` as where the reader is (``None`` leaves the controls as they are); a move elsewhere puts
        away what the *Go to* box said of a reference that went nowhere."""
        if ref is not None and ref != self._ref:
            self.goto_error.hide()
        self._ref = ref
        self._sync()

    def set_translations(self, translations: tuple[Translation, ...], current: str | None) -> None:
        """The translations the database holds, ``current`` chosen (``None``: the default)."""
        self.translation_combo.clear()
        for t in translations:
            self.translation_combo.addItem(t.abbreviation or t.name, t.translation_id)
            self.translation_combo.setItemData(self.translation_combo.count() - 1, t.name,
                                               Qt.ItemDataRole.ToolTipRole)
            if t.translation_id == current or (current is None and t.default):
                self.translation_combo.setCurrentIndex(self.translation_combo.count() - 1)
        self.translation_combo.setVisible(len(translations) > 1)

    def focus_goto(self) -> None:
        self.goto_edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.goto_edit.selectAll()

    def show_goto_error(self, message: str) -> None:
        self.goto_error.setText(message)
        show_as_error(self.goto_error)
        self.goto_error.show()

    def _sync(self) -> None:
        ref = self._ref
        self.book_combo.blockSignals(True)
        self.chapter_spin.blockSignals(True)
        if ref is not None:
            i = self.book_combo.findData(ref.book_id)
            if i >= 0:
                self.book_combo.setCurrentIndex(i)
            book = self.book(ref.book_id)
            self.chapter_spin.setMaximum(max(1, book.chapters if book else 999))
            self.chapter_spin.setValue(ref.chapter)
            ids = [b.book_id for b in self._books]
            first = bool(ids) and ref.book_id == ids[0] and ref.chapter <= 1
            last = bool(ids) and ref.book_id == ids[-1] and book is not None and ref.chapter >= book.chapters
            self.prev_button.setEnabled(not first)
            self.next_button.setEnabled(not last)
        self.book_combo.blockSignals(False)
        self.chapter_spin.blockSignals(False)

    def _book_chosen(self, index: int) -> None:
        book_id = self.book_combo.itemData(index)
        if book_id and (self._ref is None or book_id != self._ref.book_id):
            self.chapterRequested.emit(ChapterRef(book_id, 1))

    def _chapter_chosen(self, value: int) -> None:
        book_id = self.book_combo.currentData()
        if book_id:
            self.chapterRequested.emit(ChapterRef(book_id, value))

    def _goto(self) -> None:
        text = self.goto_edit.text().strip()
        if text:
            self.referenceEntered.emit(text)
