"""The profile dock: preferred scholars and traditions (Ctrl+Shift+P, or the "Profile:" button by the
context). Its width comes out of the reader, never the results table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer

from ...core.query import BoostWeights, Profile
from ...session import Facets
from ..profile import ProfilePanel
from .dock import Dock

if TYPE_CHECKING:
    from ..main_window import MainWindow

#: The dock's width when it opens.
WIDTH = 250


class ProfileDock(Dock[ProfilePanel]):
    """The :class:`~..profile.ProfilePanel` in a dock. It holds the last facets the library loaded, so
    a panel made later (were the dock lazy) shows what one made at the start would."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window
        self._facets: Facets | None = None
        self._sizes_before: list[int] | None = None
        # Made at once (not lazy): its controls keep their place in the Tab order, before the workbench's.
        super().__init__("Profile", "profileDock", window, lazy=False)
        self.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea)
        self.visibilityChanged.connect(self._visibility)

    def create_widget(self) -> ProfilePanel:
        session = self._window.session
        panel = ProfilePanel()
        panel.set_weights(session.prefs.settings.weights)
        if self._facets is not None:
            panel.set_facets(self._facets, session.prefs.profile)
        panel.profileEdited.connect(session.set_profile)
        return panel

    # -- the session's state -----------------------------------------------------------------
    def set_facets(self, facets: Facets, profile: Profile) -> None:
        self._facets = facets
        if self.created:
            self.panel.set_facets(facets, profile)

    def set_weights(self, weights: BoostWeights) -> None:
        if self.created:
            self.panel.set_weights(weights)

    def set_profile(self, profile: Profile) -> None:
        if self.created:
            self.panel.set_profile(profile)

    # -- showing and hiding ------------------------------------------------------------------
    def toggle(self) -> None:
        """Show the dock with the focus in its scholars (its width taken from the reader), or hide it."""
        visible = not self.isVisible()
        if visible:
            split = self._window.main_split
            self._sizes_before = split.sizes()
            results_width = self._sizes_before[1]
            self.setVisible(True)
            self._window.resizeDocks([self], [WIDTH], Qt.Orientation.Horizontal)
            # The dock's width comes out of the reader, not the results table.
            QTimer.singleShot(0, self, lambda: self._keep_results_width(results_width))
            self.panel.scholars.setFocus(Qt.FocusReason.ShortcutFocusReason)
        else:
            self.setVisible(False)

    def _visibility(self, visible: bool) -> None:
        if not visible and self._sizes_before is not None:
            sizes, self._sizes_before = self._sizes_before, None
            QTimer.singleShot(0, self, lambda: self._window.main_split.setSizes(sizes))

    def _keep_results_width(self, width: int) -> None:
        split = self._window.main_split
        total = sum(split.sizes())
        reader = max(280, total - width)
        split.setSizes([reader, max(0, total - reader)])

    def detach(self) -> None:
        """The window is closing: the dock reports its visibility while Qt destroys it; ignore that."""
        self.visibilityChanged.disconnect(self._visibility)
