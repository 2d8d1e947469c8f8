"""The overlay's own parts in the profile editor: forbidden sources, and the words it boosts or suppresses.

Each part edits one side of an :class:`~amicus_desktop.overlays.Overlay` and emits :attr:`edited` with the
new values; the :class:`~.profile.ProfilePanel` puts them into the overlay and the session applies it
(CONTRACT section 12). Scholars are listed by their display names (the database's own, else the built-in
ones), kinds of source by the names the results show.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..core.names import DEFAULT_NAMES, Names
from ..core.query import SOURCE_TYPES
from ..present.titles import source_label
from .theme import scaled_font

_CHECKABLE = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsSelectable


def _heading(text: str, parent: QWidget) -> QLabel:
    label = QLabel(text)
    label.setFont(scaled_font(parent.font(), 1.0, bold=True))
    return label


def _note(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
    return label


def checked(lst: QListWidget) -> list[str]:
    """The values (``UserRole``) of a checklist's ticked rows, in its order."""
    out = []
    for i in range(lst.count()):
        item = lst.item(i)
        value = item.data(Qt.ItemDataRole.UserRole)
        if value and item.checkState() == Qt.CheckState.Checked:
            out.append(value)
    return out


def fill_checklist(lst: QListWidget, values: list[tuple[str, int]], chosen: Iterable[str],
                   label: Callable[[str], str] = str) -> None:
    """Fill ``lst`` with one checkable row per ``(value, chunk count)``, named by ``label`` (a scholar's name,
    not the id, which is the row's tooltip and data), ticked when chosen; a chosen value the library lacks is
    listed too, marked "not in this database". An empty list says so in a row that cannot be ticked."""
    lst.clear()
    present = {v for v, _n in values}
    for value, count in [*values, *((v, -1) for v in sorted(set(chosen) - present))]:
        where = "not in this database" if count < 0 else f"{count:,} chunk{'' if count == 1 else 's'}"
        item = QListWidgetItem(f"{label(value)}   ({where})")
        item.setData(Qt.ItemDataRole.UserRole, value)
        item.setToolTip(value)
        item.setFlags(_CHECKABLE)
        item.setCheckState(Qt.CheckState.Checked if value in set(chosen) else Qt.CheckState.Unchecked)
        lst.addItem(item)
    if lst.count() == 0:
        item = QListWidgetItem("None in this database")
        item.setFlags(Qt.ItemFlag.NoItemFlags)
        lst.addItem(item)


def tick(lst: QListWidget, value: str, on: bool = True) -> None:
    """Tick or untick the row of a checklist holding ``value`` (as a click would); ``KeyError`` if none does."""
    for i in range(lst.count()):
        item = lst.item(i)
        if item.data(Qt.ItemDataRole.UserRole) == value:
            item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
            return
    raise KeyError(value)


class ForbiddenPanel(QWidget):
    """Two checkable lists — scholars by display name, kinds of source — whose ticks are never shown.

    :attr:`edited` carries ``(scholar ids, source types)`` on every tick.
    """

    edited = Signal(object, object)  # tuple[str, ...], tuple[str, ...]

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._updating = False
        self.scholars = QListWidget()
        self.scholars.setAccessibleName("Forbidden scholars")
        self.kinds = QListWidget()
        self.kinds.setAccessibleName("Forbidden kinds of source")
        for lst in (self.scholars, self.kinds):  # a long name wraps in the narrow dock, never scrolls sideways
            lst.setWordWrap(True)
            lst.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(_note("A ticked source is never shown: its chunks are listed under Rejected, with the "
                               "rule that removed them."))
        layout.addWidget(_heading("Forbidden scholars", self))
        layout.addWidget(self.scholars, 3)
        layout.addWidget(_heading("Forbidden kinds of source", self))
        layout.addWidget(self.kinds, 2)
        self.scholars.itemChanged.connect(self._changed)
        self.kinds.itemChanged.connect(self._changed)

    def set_sources(self, scholars: Iterable[tuple[str, int]], kinds: Iterable[tuple[str, int]],
                    forbidden_scholars: Iterable[str], forbidden_kinds: Iterable[str],
                    names: Names = DEFAULT_NAMES) -> None:
        """The library's scholars and kinds (with chunk counts), ticked as the overlay forbids them."""
        # only the kinds the library holds (in the contract's order), and a forbidden one it lacks, marked so
        counts = {k: n for k, n in kinds if n > 0}
        held = [(k, counts[k]) for k in SOURCE_TYPES if k in counts] + [(k, n) for k, n in counts.items()
                                                                         if k not in SOURCE_TYPES]
        self._updating = True
        try:
            fill_checklist(self.scholars, list(scholars), set(forbidden_scholars), lambda s: names.scholar(s).name)
            fill_checklist(self.kinds, held, set(forbidden_kinds), source_label)
        finally:
            self._updating = False

    def forbidden(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(checked(self.scholars)), tuple(checked(self.kinds))

    def check(self, kind: str, value: str, on: bool = True) -> None:
        """Tick or untick ``value`` in ``"scholar"``/``"kind"`` (as a click would)."""
        tick(self.scholars if kind == "scholar" else self.kinds, value, on)

    def _changed(self, _item: QListWidgetItem) -> None:
        if not self._updating:
            self.edited.emit(*self.forbidden())


class TermList(QWidget):
    """One list of words or phrases with a field to add one and a button to remove the selected ones."""

    edited = Signal(object)  # tuple[str, ...]

    def __init__(self, title: str, placeholder: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = _heading(title, self)
        self.terms = QListWidget()
        self.terms.setAccessibleName(title)
        self.terms.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        self.field = QLineEdit()
        self.field.setPlaceholderText(placeholder)
        self.field.setAccessibleName(f"{title}: a word to add")
        self.field.setMaxLength(64)
        self.add_button = QPushButton("Add")
        self.remove_button = QPushButton("Remove")
        self.remove_button.setAccessibleName(f"Remove the selected words from {title}")
        row = QHBoxLayout()
        row.setSpacing(4)
        row.addWidget(self.field, 1)
        row.addWidget(self.add_button)
        row.addWidget(self.remove_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        layout.addWidget(self.heading)
        layout.addWidget(self.terms, 1)
        layout.addLayout(row)
        self.add_button.clicked.connect(self.add_typed)
        self.field.returnPressed.connect(self.add_typed)
        self.remove_button.clicked.connect(self.remove_selected)

    def values(self) -> tuple[str, ...]:
        return tuple(self.terms.item(i).text() for i in range(self.terms.count()))

    def set_values(self, terms: Iterable[str]) -> None:
        self.terms.clear()
        self.terms.addItems(list(terms))

    def add_typed(self) -> None:
        """Add the word in the field (spaces around it dropped; a word already listed, in any case, is not
        added twice) and announce the new list."""
        term = " ".join(self.field.text().split())
        self.field.clear()
        if not term or term.casefold() in {t.casefold() for t in self.values()}:
            return
        self.terms.addItem(term)
        self.edited.emit(self.values())

    def remove_selected(self) -> None:
        rows = sorted((self.terms.row(i) for i in self.terms.selectedItems()), reverse=True)
        if not rows:
            return
        for row in rows:
            self.terms.takeItem(row)
        self.edited.emit(self.values())


class VocabularyPanel(QWidget):
    """The words an overlay boosts and suppresses. :attr:`edited` carries ``(boost, suppress)``;
    :attr:`scopeEdited` whether the boosted words count in every question (else where the question relates)."""

    edited = Signal(object, object)  # tuple[str, ...], tuple[str, ...]
    scopeEdited = Signal(bool)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.boost = TermList("Boosted words", "e.g. covenant")
        self.suppress = TermList("Suppressed words", "e.g. dispensation")
        self.note = _note("")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 6, 0, 0)
        layout.setSpacing(8)
        layout.addWidget(self.note)
        layout.addWidget(self.boost, 1)
        layout.addWidget(self.suppress, 1)
        self.everywhere = QCheckBox("Count boosted words in every question")
        self.everywhere.setToolTip("Off (the default): a boosted word multiplies only the passages the question itself "
                                   "is about (close in meaning to its best match), so it does not lift its passages "
                                   "into an unrelated question. On: every passage that holds it, and the results "
                                   "header says so.")
        self.everywhere.clicked.connect(self.scopeEdited.emit)
        layout.addWidget(self.everywhere)
        self.boost.edited.connect(lambda _terms: self.edited.emit(self.boost.values(), self.suppress.values()))
        self.suppress.edited.connect(lambda _terms: self.edited.emit(self.boost.values(), self.suppress.values()))
        self.set_weight(1.1)

    def set_weight(self, weight: float) -> None:
        self.note.setText(f"A result holding a boosted word counts ×{weight:g}, one holding a suppressed word "
                          f"÷{weight:g} (whole words, any case; “covenants” is another word). Boosted words are "
                          "also searched for.")
        self.boost.heading.setText(f"Boosted words (×{weight:g})")
        self.suppress.heading.setText(f"Suppressed words (÷{weight:g})")

    def set_terms(self, boost: Iterable[str], suppress: Iterable[str], everywhere: bool = False) -> None:
        self.boost.set_values(boost)
        self.suppress.set_values(suppress)
        self.everywhere.setChecked(everywhere)
