"""A result's context menu and copying a result: text with its citation, the citation alone, the
chunk id, *Open in reader*, then whatever :attr:`ResultMenu.extenders` add (the pin entry first).

Ctrl+C on a result (the shortcut table's ``copy_result`` action, see :meth:`ResultMenu.use_copy_action`)
copies its text and citation while the results table has the focus.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QMenu

from ...core.results import RetrievedChunk
from ...pin_scopes import DEFAULT_SCOPE
from ...present.export import clip_text
from ...present.titles import citation
from .. import shortcuts
from .models import ChunkRole

if TYPE_CHECKING:
    from .pane import ResultsPane

#: Adds entries to a result's context menu (``menu``, the result it is for).
MenuExtender = Callable[[QMenu, RetrievedChunk], None]


class ResultMenu:
    """The results table's context menu and copy actions, for ``pane`` (whose :attr:`~ResultsPane.message`
    says what was copied and whose :attr:`~ResultsPane.pinRequested` asks for a pin)."""

    def __init__(self, pane: ResultsPane) -> None:
        self._pane = pane
        #: Called in order to add entries to a result's context menu (the pin entry, for one).
        self.extenders: list[MenuExtender] = []

    def use_copy_action(self, action: QAction) -> None:
        """Ctrl+C (``action``, from the shortcut table) copies the selected result while the results
        table has the focus, and nowhere else: text fields keep their own copy."""
        action.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self._pane.results_view.addAction(action)

    def copy_current(self) -> None:
        """Ctrl+C on a result: its text and a citation line."""
        r = self._pane.current_result()
        if r is not None:
            self._copy(clip_text(r.candidate, self._pane.names()), f"Copied result {r.rank} with its citation")

    def _copy(self, text: str, message: str) -> None:
        QGuiApplication.clipboard().setText(text)
        self._pane.message.emit(message)

    def build(self, r: RetrievedChunk) -> QMenu:
        """The context menu of result ``r``: copy text / citation / chunk id, open in the reader, then
        whatever :attr:`extenders` add."""
        pane = self._pane
        menu = QMenu(pane)
        names = pane.names()
        menu.addAction("Copy text", lambda: self._copy(clip_text(r.candidate, names),
                                                       f"Copied result {r.rank} with its citation"))
        menu.addAction("Copy citation", lambda: self._copy(citation(r.candidate, names),
                                                           f"Copied the citation of result {r.rank}"))
        menu.addAction("Copy chunk id", lambda: self._copy(r.chunk_id, f"Copied the chunk id {r.chunk_id}"))
        m = r.candidate.metadata
        open_action = menu.addAction("Open in reader", lambda: pane.passage.passageRequested.emit(
            m.book_id or "", m.chapter_num or 1, m.verse_start or 0, m.verse_end or m.verse_start or 0))
        open_action.setEnabled(bool(m.book_id))
        for extend in self.extenders:
            extend(menu, r)
        return menu

    def popup(self, pos: QPoint) -> None:
        """The results table's context menu at ``pos`` (in its viewport), over a result."""
        view = self._pane.results_view
        index = view.indexAt(pos)
        r = index.data(ChunkRole) if index.isValid() else None
        if isinstance(r, RetrievedChunk):
            self.build(r).popup(view.viewport().mapToGlobal(pos))

    def pin_entries(self, menu: QMenu, r: RetrievedChunk) -> None:
        """The pin entries of a result's context menu (an :attr:`extenders` hook): pin it for questions like this
        one (the default: Ctrl+B), for the open chapter, or for every question — each saying where — or unpin it
        (a pinned one: its scope checked, another scope moves it there)."""
        menu.addSeparator()
        pane = self._pane
        pinned = pane.is_pinned(r.chunk_id)
        current = pane.results_model.pin_scope(r.chunk_id).scope if pinned else None
        for scope, label in pane.pin_choices():
            action = menu.addAction(label)
            action.setCheckable(pinned)
            action.setChecked(scope == current)
            action.setEnabled(scope != current)
            if scope == DEFAULT_SCOPE and not pinned:
                action.setShortcuts(shortcuts.sequences(shortcuts.BY_ID["toggle_pin"]))  # shown, not bound here
            action.triggered.connect(lambda _checked=False, s=scope: pane.pinScopeRequested.emit(r.chunk_id, s))
        if pinned:
            unpin = menu.addAction("Unpin this result")
            unpin.setShortcuts(shortcuts.sequences(shortcuts.BY_ID["toggle_pin"]))  # shown, not bound here
            unpin.triggered.connect(lambda: pane.pinRequested.emit(r.chunk_id))
