"""The profile dock: the reader's overlay — preferred scholars and traditions, forbidden sources, weighed
words — with import and export (Ctrl+Shift+P, or the "Profile:" button by the context). Its width comes out
of the reader, never the results table. Reading and writing an overlay file run off the UI thread
(:class:`~amicus_desktop.session.background.Op`, the window's tasks)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ...core.query import BoostWeights, Profile
from ...files import FileWriteError
from ...overlays import Overlay, OverlayError
from ...session import Facets
from ...session.background import Op
from ...session.export import protected_paths
from ...session.overlay_store import read_work, write_work
from ..profile import NEW_ROLE, ProfilePanel
from .dock import Dock

if TYPE_CHECKING:
    from ..main_window import MainWindow

log = logging.getLogger("amicus.ui")

#: The dock's width when it opens.
WIDTH = 250
#: what the file dialogs offer
OVERLAY_FILTER = "Overlays (*.json)"


class ProfileDock(Dock[ProfilePanel]):
    """The :class:`~..profile.ProfilePanel` in a dock, made when first shown. It holds the last facets the
    library loaded, so the panel made then shows what one made at the start would."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window
        self._facets: Facets | None = None
        self._sizes_before: list[int] | None = None
        #: the last file dialog (tests answer it)
        self.dialog: QFileDialog | None = None
        # Made when first shown (its controls then take the dock's place in the Tab order: dock.py).
        super().__init__("Profile", "profileDock", window)
        self.setAllowedAreas(Qt.DockWidgetArea.LeftDockWidgetArea | Qt.DockWidgetArea.RightDockWidgetArea)
        self.visibilityChanged.connect(self._visibility)

    def create_widget(self) -> ProfilePanel:
        session = self._window.session
        panel = ProfilePanel()
        panel.set_weights(session.prefs.settings.weights)
        if self._facets is not None:
            panel.set_facets(self._facets, session.prefs.profile, session.library.names)
        panel.set_overlay(session.prefs.overlay)
        panel.profileEdited.connect(session.set_profile)
        panel.overlayEdited.connect(session.set_overlay)
        panel.importRequested.connect(self.import_overlay)
        panel.exportRequested.connect(self.export_overlay)
        return panel

    # -- the session's state -----------------------------------------------------------------
    def set_facets(self, facets: Facets, profile: Profile) -> None:
        self._facets = facets
        if self.created:
            self.panel.set_facets(facets, profile, self._window.session.library.names)

    def set_overlay(self, overlay: Overlay | None) -> None:
        if self.created:
            self.panel.set_overlay(overlay)

    def set_weights(self, weights: BoostWeights) -> None:
        if self.created:
            self.panel.set_weights(weights)

    def set_profile(self, profile: Profile) -> None:
        if self.created:
            self.panel.set_profile(profile)

    # -- files -------------------------------------------------------------------------------
    def _file_dialog(self, title: str, save: bool) -> QFileDialog:
        start = str(Path.home() / (f"{self._overlay_to_write().role_id}.json" if save else ""))
        dialog = QFileDialog(self._window, title, start)
        dialog.setObjectName("overlaySaveDialog" if save else "overlayOpenDialog")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setNameFilters([OVERLAY_FILTER, "All files (*)"])
        if save:
            dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
            dialog.setDefaultSuffix("json")
        else:
            dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        self.dialog = dialog
        return dialog

    def import_overlay(self) -> None:
        """*Import…*: choose an overlay file; it is read and checked off the UI thread, then used whole."""
        dialog = self._file_dialog("Import an overlay", save=False)
        dialog.fileSelected.connect(lambda path: self.import_from(Path(path)))
        dialog.open()

    def import_from(self, path: Path) -> None:
        w = self._window

        def done(overlay: Overlay) -> None:
            w.session.set_overlay(overlay, whole=True)
            w.show_status(f"Overlay “{overlay.role_id}” in use, from {path.name}.")

        Op(read_work(path), done).failure(lambda exc: self._failed("Import failed", exc)).run_in_background(w.tasks)

    def export_overlay(self) -> None:
        """*Export…*: save the overlay in use — with the profile's preferences — as a file."""
        dialog = self._file_dialog("Export the overlay", save=True)
        dialog.fileSelected.connect(lambda path: self.export_to(Path(path)))
        dialog.open()

    def export_to(self, path: Path) -> None:
        w = self._window
        work = write_work(self._overlay_to_write(), path, protected_paths(w.session))
        Op(work, lambda written: w.show_status(f"Overlay saved as {written}.")).failure(
            lambda exc: self._failed("Export failed", exc)).run_in_background(w.tasks)

    def _overlay_to_write(self) -> Overlay:
        """The overlay in use with the profile's preferences; without one, a new overlay of the profile alone."""
        prefs = self._window.session.prefs
        return prefs.overlay_document() or Overlay(NEW_ROLE).replace(
            preferred_scholars=tuple(sorted(prefs.profile.preferred_scholars)),
            preferred_traditions=tuple(sorted(prefs.profile.preferred_traditions)))

    def _failed(self, title: str, exc: Exception) -> None:
        if isinstance(exc, (OverlayError, FileWriteError)):
            message = str(exc) if isinstance(exc, OverlayError) else exc.message
        else:
            log.error("overlay file failed", exc_info=exc)
            message = f"{title} ({type(exc).__name__}); see the log."
        box = QMessageBox(QMessageBox.Icon.Warning, title, message, QMessageBox.StandardButton.Ok, self._window)
        box.setObjectName("overlayFailed")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self._window.show_status(message)
        box.open()

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
