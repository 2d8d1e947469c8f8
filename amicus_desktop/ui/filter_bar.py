"""The filter bar above the results: which chunks may be found at all (CONTRACT section 6 filters).

Collapsible. Its header is always visible: a toggle ("Filters (2)", the count of active kinds), a
summary of what is active in words, and *Clear filters*. Opened, it shows four menu buttons —
source types, books (with Old/New Testament), scholars (display names from the database),
traditions — each a list of checkable choices with chunk counts, and *My passages*: the reader's
bookmarks, highlights and labels (:mod:`.study.passages_menu`). The bar only shows and requests:
the filters live in the session (``session/search.py``), which asks again when they change.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QMenu, QPushButton, QToolButton, QVBoxLayout, QWidget

from ..core.books import BY_ID
from ..core.names import Names
from ..core.query import USER_NOTE, Filters
from ..present import describe
from ..present.notes import MY_NOTES
from ..session import Facets
from ..store.scripture import BookRow
from .elided import ElidedLabel
from .study.passages_menu import MarkedPassagesButton

TESTAMENTS = (("OT", "Old Testament"), ("NT", "New Testament"))
KINDS = ("source_types", "books", "scholars", "traditions")


class FilterBar(QFrame):
    """Emits :attr:`filtersChanged` (a :class:`Filters`) when the user changes or clears them."""

    filtersChanged = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Filters")
        self._filters = Filters()
        self._names = Names()
        self._books: list[BookRow] = []
        self.toggle = QToolButton()
        self.toggle.setCheckable(True)
        self.toggle.setAutoRaise(True)
        self.toggle.setAccessibleName("Show or hide the filters")
        self.toggle.setToolTip("Search only some sources, books, scholars or traditions (Ctrl+Shift+F)")
        self.summary = ElidedLabel()  # shortened, not wrapped, in a narrow column (the whole text in its tooltip)
        self.summary.setAccessibleName("Active filters")
        self.summary.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.clear_button = QPushButton("Clear filters")
        self.clear_button.setAccessibleName("Clear filters")
        self.clear_button.setToolTip("Remove every filter and search the whole library again")

        self.menus: dict[str, QMenu] = {}
        self.buttons: dict[str, QToolButton] = {}
        self.body = QWidget()
        body = QHBoxLayout(self.body)
        body.setContentsMargins(0, 0, 0, 0)
        body.setSpacing(6)
        for kind, title in zip(KINDS, ("Source types", "Books", "Scholars", "Traditions"), strict=True):
            menu = QMenu(title, self)
            menu.triggered.connect(self._chosen)
            button = QToolButton()
            button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
            button.setMenu(menu)
            button.setAccessibleName(title)
            self.menus[kind] = menu
            self.buttons[kind] = button
            body.addWidget(button)
        self.marked = MarkedPassagesButton()
        self.marked.changed.connect(self._marked_changed)
        body.addWidget(self.marked)
        body.addStretch(1)
        self.body.hide()

        header = QHBoxLayout()
        header.setContentsMargins(0, 0, 0, 0)
        header.setSpacing(8)
        header.addWidget(self.toggle)
        header.addWidget(self.summary, 1)
        header.addWidget(self.clear_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 2, 12, 4)
        layout.setSpacing(4)
        layout.addLayout(header)
        layout.addWidget(self.body)
        self.toggle.toggled.connect(self.set_open)
        self.clear_button.clicked.connect(self.clear)
        self._render()

    # -- state in --------------------------------------------------------------------------
    def set_choices(self, facets: Facets, books: list[BookRow], names: Names, my_notes: int | None = None) -> None:
        """What can be chosen: the database's source types, books, scholars and traditions — and the reader's
        own notes ("My notes", with ``my_notes`` the workspace's count) when there is a workspace."""
        self._names, self._books = names, list(books)
        mine = [(USER_NOTE, MY_NOTES, my_notes)] if my_notes is not None else []
        self._fill("source_types", [(t, describe.source_label(t), n) for t, n in facets.get("source_type", [])] + mine)
        present = {b.book_id for b in books}
        testaments = [(code, name) for code, name in TESTAMENTS
                      if any(BY_ID[b].testament == code for b in present if b in BY_ID)]
        self._fill("books", [(b.book_id, b.name, None) for b in books], testaments=testaments)
        self._fill("scholars", sorted(((sid, names.scholar(sid).name, n) for sid, n in facets.get("scholar_id", [])),
                                      key=lambda c: c[1].lower()))
        self._fill("traditions", [(t, t, n) for t, n in facets.get("tradition", [])])
        self._render()

    def set_filters(self, filters: Filters) -> None:
        """Show ``filters`` as the active ones (no signal)."""
        self._filters = filters
        if not filters.passages:
            self.marked.clear()
        self._render()

    @property
    def filters(self) -> Filters:
        return self._filters

    @property
    def is_open(self) -> bool:
        return self.body.isVisible() or self.toggle.isChecked()

    def set_open(self, opened: bool) -> None:
        self.toggle.setChecked(opened)
        self.body.setVisible(opened)
        self._render()

    def toggle_open(self) -> None:
        """Open or close the bar (the ``filters`` shortcut); opened, the first filter has the focus."""
        opened = not self.toggle.isChecked()
        self.set_open(opened)
        if opened:
            self.buttons["source_types"].setFocus(Qt.FocusReason.ShortcutFocusReason)

    def clear(self) -> None:
        if self._filters.active:
            self._filters = Filters()
            self.marked.clear()
            self._render()
            self.filtersChanged.emit(self._filters)

    # -- internals -------------------------------------------------------------------------
    def _fill(self, kind: str, choices: Iterable[tuple[str, str, int | None]],
              testaments: list[tuple[str, str]] | None = None) -> None:
        menu = self.menus[kind]
        menu.clear()
        for code, name in testaments or []:
            action = QAction(f"All of the {name}", menu)
            action.setCheckable(True)
            action.setData(("testament", code))
            menu.addAction(action)
        if testaments:
            menu.addSeparator()
        for value, label, count in choices:
            action = QAction(f"{label} ({count})" if count is not None else label, menu)
            action.setCheckable(True)
            action.setData((kind, value))
            menu.addAction(action)
        if menu.isEmpty():
            none = menu.addAction("None in this database")
            none.setEnabled(False)

    def _chosen(self, action: QAction) -> None:
        kind, value = action.data()
        values = {k: list(getattr(self._filters, k)) for k in KINDS}
        if kind == "testament":
            books = [b.book_id for b in self._books if b.book_id in BY_ID and BY_ID[b.book_id].testament == value]
            if action.isChecked():
                values["books"] += [b for b in books if b not in values["books"]]
            else:
                values["books"] = [b for b in values["books"] if b not in books]
        elif action.isChecked():
            values[kind].append(value)
        else:
            values[kind] = [v for v in values[kind] if v != value]
        chosen = Filters.of(values["source_types"], values["books"], values["scholars"], values["traditions"],
                            self._filters.passages)
        refused = chosen.too_many()  # a bound on the values of one kind (core/query.py)
        if refused is None:
            self._filters = chosen
        self._render()
        if refused is not None:
            self.summary.setText(refused)
            return
        self.filtersChanged.emit(self._filters)

    def _marked_changed(self) -> None:
        self._filters = replace(self._filters, passages=self.marked.passages())
        self._render()
        self.filtersChanged.emit(self._filters)

    def _render(self) -> None:
        f = self._filters
        count = sum(1 for k in (*KINDS, "passages") if getattr(f, k))
        arrow = "▾" if self.toggle.isChecked() else "▸"
        self.toggle.setText(f"{arrow} Filters ({count})" if count else f"{arrow} Filters")
        self.summary.setText(describe.filters_summary(f, self._names, self.marked.words()))
        self.clear_button.setEnabled(f.active)
        selected = {k: set(getattr(f, k)) for k in KINDS}
        for kind, menu in self.menus.items():
            n = len(selected[kind])
            title = menu.title()
            self.buttons[kind].setText(f"{title} ({n})" if n else title)
            self.buttons[kind].setAccessibleDescription(f"{n} chosen" if n else "none chosen: all")
            for action in menu.actions():
                data = action.data()
                if not isinstance(data, tuple):
                    continue
                kind_of, value = data
                if kind_of == "testament":
                    books = {b.book_id for b in self._books if b.book_id in BY_ID
                             and BY_ID[b.book_id].testament == value}
                    action.setChecked(bool(books) and books <= selected["books"])
                else:
                    action.setChecked(value in selected[kind_of])
