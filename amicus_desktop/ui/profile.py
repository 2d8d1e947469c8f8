"""The profile editor: preferred scholars and traditions, chosen from those in the database.

Every tick applies at once (the session re-ranks the last results and saves the profile).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton, QVBoxLayout, QWidget

from ..core.query import BoostWeights, Profile
from .theme import scaled_font


class ProfilePanel(QWidget):
    """Two checkable lists; emits :attr:`profileEdited` on every change."""

    profileEdited = Signal(object)  # Profile

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._updating = False
        self.intro = QLabel("Results by a preferred scholar or tradition get a boost. Changes apply at once.")
        self.intro.setWordWrap(True)
        self.intro.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.scholars_label = QLabel()
        self.scholars_label.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.scholars = QListWidget()
        self.scholars.setAccessibleName("Preferred scholars")
        self.traditions_label = QLabel()
        self.traditions_label.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.traditions = QListWidget()
        self.traditions.setAccessibleName("Preferred traditions")
        self.clear_button = QPushButton("Clear preferences")
        self.clear_button.setAccessibleName("Clear preferences")
        self.set_weights(BoostWeights())

        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 10)
        layout.setSpacing(6)
        layout.addWidget(self.intro)
        layout.addSpacing(4)
        layout.addWidget(self.scholars_label)
        layout.addWidget(self.scholars, 3)
        layout.addWidget(self.traditions_label)
        layout.addWidget(self.traditions, 2)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.clear_button)
        layout.addLayout(row)

        self.scholars.itemChanged.connect(self._changed)
        self.traditions.itemChanged.connect(self._changed)
        self.clear_button.clicked.connect(self._clear)

    def set_weights(self, weights: BoostWeights) -> None:
        self.scholars_label.setText(f"Preferred scholars (×{weights.scholar:g})")
        self.traditions_label.setText(f"Preferred traditions (×{weights.tradition:g})")

    def set_facets(self, facets: dict[str, list[tuple[str, int]]], profile: Profile) -> None:
        self._updating = True
        try:
            self._fill(self.scholars, facets.get("scholar_id", []), profile.preferred_scholars, "chunk")
            self._fill(self.traditions, facets.get("tradition", []), profile.preferred_traditions, "chunk")
        finally:
            self._updating = False

    def set_profile(self, profile: Profile) -> None:
        self._updating = True
        try:
            pairs = ((self.scholars, profile.preferred_scholars), (self.traditions, profile.preferred_traditions))
            for lst, chosen in pairs:
                for i in range(lst.count()):
                    item = lst.item(i)
                    ticked = item.data(Qt.ItemDataRole.UserRole) in chosen
                    item.setCheckState(Qt.CheckState.Checked if ticked else Qt.CheckState.Unchecked)
        finally:
            self._updating = False

    def profile(self) -> Profile:
        return Profile.of(self._checked(self.scholars), self._checked(self.traditions))

    def check(self, kind: str, value: str, on: bool = True) -> None:
        """Tick or untick ``value`` in ``"scholar"``/``"tradition"`` (as a click would)."""
        lst = self.scholars if kind == "scholar" else self.traditions
        for i in range(lst.count()):
            item = lst.item(i)
            if item.data(Qt.ItemDataRole.UserRole) == value:
                item.setCheckState(Qt.CheckState.Checked if on else Qt.CheckState.Unchecked)
                return
        raise KeyError(value)

    # -- internals -------------------------------------------------------------------------
    @staticmethod
    def _fill(lst: QListWidget, values: list[tuple[str, int]], chosen: frozenset[str], unit: str) -> None:
        lst.clear()
        present = {v for v, _n in values}
        rows = list(values) + [(v, -1) for v in sorted(chosen - present)]
        for value, count in rows:
            if count >= 0:
                label = f"{value}   ({count:,} {unit}{'' if count == 1 else 's'})"
            else:
                label = f"{value}   (not in this database)"
            item = QListWidgetItem(label)
            item.setData(Qt.ItemDataRole.UserRole, value)
            item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsSelectable)
            item.setCheckState(Qt.CheckState.Checked if value in chosen else Qt.CheckState.Unchecked)
            lst.addItem(item)
        if not rows:
            item = QListWidgetItem("None in this database")
            item.setFlags(Qt.ItemFlag.NoItemFlags)
            lst.addItem(item)

    @staticmethod
    def _checked(lst: QListWidget) -> list[str]:
        out = []
        for i in range(lst.count()):
            item = lst.item(i)
            value = item.data(Qt.ItemDataRole.UserRole)
            if value and item.checkState() == Qt.CheckState.Checked:
                out.append(value)
        return out

    def _changed(self, _item: QListWidgetItem) -> None:
        if not self._updating:
            self.profileEdited.emit(self.profile())

    def _clear(self) -> None:
        self.set_profile(Profile())
        self.profileEdited.emit(Profile())
