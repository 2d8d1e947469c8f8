"""The filter bar's "My passages" button: search only the passages the reader bookmarked, highlighted or
filed under a label ("search my labelled passages").

Its menu lists *Bookmarks*, *Highlights* and every label of the current workspace's marks, each with how
many passages it holds; the chosen ones (OR) resolve to the passages of :attr:`Filters.passages
<amicus_desktop.core.query.Filters.passages>`. The marks are the current workspace's only, handed in by the
study control (:meth:`set_marks`, read on the notes store's thread); a workspace switch drops the choice
(:meth:`forget`), so a question never searches another workspace's passages. Nothing here is logged.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QToolButton, QWidget

from ...core.references import PassageRef
from ...notes.marks import Mark, MarkChoice, MarkKind, chosen_passages

TITLE = "My passages"


class MarkedPassagesButton(QToolButton):
    """Emits :attr:`changed` when the reader picks or drops a choice, or when the marks a choice holds
    changed (:meth:`passages` is then what the filter holds)."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.menu_ = QMenu(TITLE, self)
        self.menu_.triggered.connect(self._toggled)
        self.setMenu(self.menu_)
        self.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.setAccessibleName(TITLE)
        self.setToolTip("Search only the passages you bookmarked, highlighted or labelled (this workspace's)")
        self._marks: list[Mark] = []
        self.chosen: list[MarkChoice] = []
        self._passages: tuple[PassageRef, ...] = ()
        self._fill()

    # -- state in ------------------------------------------------------------------------------
    def set_marks(self, marks: Sequence[Mark]) -> None:
        """The current workspace's marks: the menu lists what they offer; a choice they no longer hold is
        dropped, and :attr:`changed` fires when the chosen passages are not what they were."""
        self._marks = list(marks)
        offered = {c for c, _n in self._offered()}
        self.chosen = [c for c in self.chosen if c in offered]
        self._fill()
        self._update()

    def forget(self) -> None:
        """Drop the choice and the marks (another workspace, another library) without a signal."""
        self._marks, self.chosen, self._passages = [], [], ()
        self._fill()

    def clear(self) -> None:
        """Drop the choice (the bar's *Clear filters*), without a signal."""
        self.chosen, self._passages = [], ()
        self._fill()

    # -- state out -----------------------------------------------------------------------------
    def passages(self) -> tuple[PassageRef, ...]:
        return self._passages

    def words(self) -> str | None:
        """``my bookmarks`` / ``my passages labelled 'promises'`` … for the bar's summary (``None``: none)."""
        if not self.chosen:
            return None
        said = " or ".join(_words(c) for c in self.chosen)
        n = len(self._passages)
        return f"{said} ({n} passage{'s' if n != 1 else ''})"

    # -- internals -----------------------------------------------------------------------------
    def _offered(self) -> list[tuple[MarkChoice, int]]:
        out: list[tuple[MarkChoice, int]] = []
        for kind in MarkKind:
            choice = MarkChoice(kind=kind)
            n = len(chosen_passages(self._marks, [choice]))
            if n:
                out.append((choice, n))
        labels: dict[str, str] = {}
        for mark in self._marks:
            for label in mark.labels:
                labels.setdefault(label.casefold(), label)
        for label in sorted(labels.values(), key=str.casefold):
            choice = MarkChoice(label=label)
            out.append((choice, len(chosen_passages(self._marks, [choice]))))
        return out

    def _fill(self) -> None:
        self.menu_.clear()
        offered = self._offered()
        for choice, n in offered:
            said = _words(choice)
            action = QAction(f"{said[:1].upper()}{said[1:]} ({n})", self.menu_)
            action.setCheckable(True)
            action.setChecked(choice in self.chosen)
            action.setData(choice)
            self.menu_.addAction(action)
        if not offered:
            none = self.menu_.addAction("No bookmarks, highlights or labels in this workspace yet")
            none.setEnabled(False)
        n = len(self.chosen)
        self.setText(f"{TITLE} ({n})" if n else TITLE)
        self.setAccessibleDescription(f"{n} chosen" if n else "none chosen: all")

    def _toggled(self, action: QAction) -> None:
        choice = action.data()
        if not isinstance(choice, MarkChoice):
            return
        self.chosen = [c for c in self.chosen if c != choice] + ([choice] if action.isChecked() else [])
        self._fill()
        self._update(force=True)

    def _update(self, force: bool = False) -> None:
        passages = tuple(chosen_passages(self._marks, self.chosen)) if self.chosen else ()
        if force or passages != self._passages:
            self._passages = passages
            self.changed.emit()


def _words(choice: MarkChoice) -> str:
    if choice.kind is not None:
        return f"my {choice.kind.value}s"
    return f"labelled “{choice.label}”"
