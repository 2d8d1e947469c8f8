"""The profile editor: the reader's overlay (CONTRACT section 12) — preferred scholars and traditions chosen
from those in the database, forbidden sources, and the words it boosts or suppresses — with import and export.

Three tabs: *Prefer* (the profile: boosts), *Forbid* and *Words* (:mod:`.overlay_parts`). Every tick and word
applies at once (the session re-ranks the last results, or asks again when the boosted words changed, and
saves). *Import…* reads an overlay file whole, *Export…* writes the one in use, *Remove* goes back to no
overlay (``no_overlay``: nothing forbidden, no words weighed; the preferences stay).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ..core.names import DEFAULT_NAMES, Names
from ..core.query import BoostWeights, Profile
from ..overlays import Overlay
from .overlay_parts import ForbiddenPanel, VocabularyPanel, checked, fill_checklist, tick
from .theme import scaled_font

#: the role id of an overlay the reader starts in the editor (by forbidding a source or adding a word)
NEW_ROLE = "my-overlay"


class ProfilePanel(QWidget):
    """The overlay editor. Emits :attr:`profileEdited` on every preference, :attr:`overlayEdited` (the new
    overlay, ``None`` for none) on every forbidden source or word, and asks for an import or an export."""

    profileEdited = Signal(object)  # Profile
    overlayEdited = Signal(object)  # Overlay | None
    importRequested = Signal()
    exportRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._updating = False
        self._overlay: Overlay | None = None
        self._facets: dict[str, list[tuple[str, int]]] = {}
        self._names: Names = DEFAULT_NAMES
        self.overlay_label = QLabel()
        self.overlay_label.setWordWrap(True)
        self.overlay_label.setTextFormat(Qt.TextFormat.PlainText)
        self.overlay_label.setAccessibleName("Overlay in use")
        self.import_button = QPushButton("Import…")
        self.import_button.setToolTip("Use an overlay file (JSON): its preferences, forbidden sources and words")
        self.export_button = QPushButton("Export…")
        self.export_button.setToolTip("Save the preferences, forbidden sources and words as an overlay file")
        self.remove_button = QPushButton("Remove")
        self.remove_button.setToolTip("No overlay: nothing is forbidden and no word weighed (preferences stay)")
        self.remove_button.setAccessibleName("Remove the overlay")
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
        self.forbidden = ForbiddenPanel()
        self.vocabulary = VocabularyPanel()
        self.set_weights(BoostWeights())

        prefer = QWidget()
        inner = QVBoxLayout(prefer)
        inner.setContentsMargins(0, 6, 0, 0)
        inner.setSpacing(6)
        inner.addWidget(self.intro)
        inner.addWidget(self.scholars_label)
        inner.addWidget(self.scholars, 3)
        inner.addWidget(self.traditions_label)
        inner.addWidget(self.traditions, 2)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.clear_button)
        inner.addLayout(row)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(prefer, "Prefer")
        self.tabs.addTab(self.forbidden, "Forbid")
        self.tabs.addTab(self.vocabulary, "Words")

        buttons = QHBoxLayout()
        buttons.setSpacing(4)
        for button in (self.import_button, self.export_button, self.remove_button):
            buttons.addWidget(button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 10)
        layout.setSpacing(6)
        layout.addWidget(self.overlay_label)
        layout.addLayout(buttons)
        layout.addWidget(self.tabs, 1)

        self.scholars.itemChanged.connect(self._changed)
        self.traditions.itemChanged.connect(self._changed)
        self.clear_button.clicked.connect(self._clear)
        self.forbidden.edited.connect(self._forbidden_edited)
        self.vocabulary.edited.connect(self._words_edited)
        self.vocabulary.scopeEdited.connect(
            lambda every: self._edited(vocabulary_scope="every_question" if every else "related"))
        self.import_button.clicked.connect(self.importRequested.emit)
        self.export_button.clicked.connect(self.exportRequested.emit)
        self.remove_button.clicked.connect(lambda: self.overlayEdited.emit(None))
        self.set_overlay(None)
        self._show_forbidden()

    def set_weights(self, weights: BoostWeights) -> None:
        self.scholars_label.setText(f"Preferred scholars (×{weights.scholar:g})")
        self.traditions_label.setText(f"Preferred traditions (×{weights.tradition:g})")

    def set_facets(self, facets: dict[str, list[tuple[str, int]]], profile: Profile,
                   names: Names | None = None) -> None:
        self._facets = facets
        if names is not None:
            self._names = names
        self._updating = True
        try:
            fill_checklist(self.scholars, facets.get("scholar_id", []), profile.preferred_scholars,
                           lambda s: self._names.scholar(s).name)
            fill_checklist(self.traditions, facets.get("tradition", []), profile.preferred_traditions)
        finally:
            self._updating = False
        self._show_forbidden()

    # -- the overlay ------------------------------------------------------------------------
    def set_overlay(self, overlay: Overlay | None) -> None:
        """Show ``overlay`` (without its preferred sources, which are the profile); ``None``: no overlay. The
        lists are filled again only when it is not the overlay they show already (an edit made here)."""
        same = overlay == self._overlay
        self._overlay = overlay
        if overlay is None:
            self.overlay_label.setText("No overlay: nothing is forbidden and no word is weighed. Forbid a source "
                                       "or add a word to start one, or import a file.")
        else:
            forbidden = len(overlay.forbidden_scholars) + len(overlay.forbidden_source_types)
            words = len(overlay.boost_terms) + len(overlay.suppress_terms)
            self.overlay_label.setText(f"Overlay “{overlay.role_id}”: {forbidden} forbidden source"
                                       f"{'' if forbidden == 1 else 's'}, {words} weighed word"
                                       f"{'' if words == 1 else 's'}.")
            self.overlay_label.setToolTip(overlay.mission or "")
        self.remove_button.setEnabled(overlay is not None)
        weight = overlay.vocabulary_weight if overlay is not None else None
        self.vocabulary.set_weight(weight or BoostWeights().vocabulary)
        if not same:
            self.vocabulary.set_terms(overlay.boost_terms if overlay else (), overlay.suppress_terms if overlay else (),
                                      overlay is not None and overlay.vocabulary_scope == "every_question")
            self._show_forbidden()

    def overlay(self) -> Overlay | None:
        return self._overlay

    def _show_forbidden(self) -> None:
        o = self._overlay
        self.forbidden.set_sources(self._facets.get("scholar_id", []), self._facets.get("source_type", []),
                                   o.forbidden_scholars if o else (), o.forbidden_source_types if o else (),
                                   self._names)

    def _edited(self, **changes: object) -> None:
        base = self._overlay if self._overlay is not None else Overlay(NEW_ROLE)
        self._overlay = base.replace(**changes)
        self.overlayEdited.emit(self._overlay)

    def _forbidden_edited(self, scholars: tuple[str, ...], kinds: tuple[str, ...]) -> None:
        self._edited(forbidden_scholars=scholars, forbidden_source_types=kinds)

    def _words_edited(self, boost: tuple[str, ...], suppress: tuple[str, ...]) -> None:
        self._edited(boost_terms=boost, suppress_terms=suppress)

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
        return Profile.of(checked(self.scholars), checked(self.traditions))

    def check(self, kind: str, value: str, on: bool = True) -> None:
        """Tick or untick ``value`` in ``"scholar"``/``"tradition"`` (as a click would)."""
        tick(self.scholars if kind == "scholar" else self.traditions, value, on)

    # -- internals -------------------------------------------------------------------------
    def _changed(self, _item: QListWidgetItem) -> None:
        if not self._updating:
            self.profileEdited.emit(self.profile())

    def _clear(self) -> None:
        self.set_profile(Profile())
        self.profileEdited.emit(Profile())
