"""The window's dialogs: open a database, Settings…, build the demo database, add documents to a
library, the keyboard shortcuts (F1) and About. Each ends in one call on the session (or in nothing)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QDialog, QMessageBox

from .. import __version__, paths
from ..present import states
from . import shortcuts
from .settings_dialog import SettingsDialog, choose_database

if TYPE_CHECKING:
    from ..corpus.ingest import IngestReport
    from .main_window import MainWindow

log = logging.getLogger("amicus.ui")


class WindowDialogs(QObject):
    """Opens ``window``'s dialogs and applies what they return."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self._build_task: asyncio.Task[None] | None = None
        self.ingest_dialog: QDialog | None = None

    def open_database(self) -> None:
        w = self._window
        path = choose_database(w, str(w.session.prefs.endpoints.db_path.parent))
        if path:
            w.session.open_database(path)

    def open_settings(self) -> None:
        w = self._window
        prefs = w.session.prefs
        writable = prefs.store.writable
        dialog = SettingsDialog(prefs.settings, writable=writable, notice=None if writable else prefs.store.notice,
                                parent=w, in_use=prefs.in_use())
        if dialog.exec() == SettingsDialog.DialogCode.Accepted:
            w.session.apply_settings(dialog.result_settings())

    def build_demo(self) -> None:
        from .build_dialog import BuildDialog

        w = self._window
        out = paths.default_db_path()
        dialog = BuildDialog(out, parent=w)
        dialog.finishedOk.connect(lambda _report: w.session.open_database(out))
        dialog.failed.connect(lambda msg: log.warning("demo build failed", extra={"reason": msg[:200]}))
        dialog.show()
        self._build_task = dialog.start()

    def ingest_corpus(self) -> None:
        """File ▸ Add documents to a library…: into the open library unless the dialog is told otherwise;
        the library written is opened (again) when the ingest finishes."""
        from .ingest_dialog import IngestDialog

        w = self._window
        endpoints = w.session.prefs.endpoints
        open_library = Path(endpoints.db_path)
        dialog = IngestDialog(open_library, endpoints.proxy_url, endpoints.token, open_library=open_library, parent=w)

        def reopen(report: IngestReport) -> None:
            if report.path == open_library:  # the library open now has a new version: read it again
                w.session.open_database(report.path)

        def open_other() -> None:
            w.session.open_database(dialog.library)
            dialog.accept()

        dialog.ingested.connect(reopen)
        dialog.open_button.clicked.connect(open_other)
        self.ingest_dialog = dialog
        dialog.show()

    def show_shortcuts(self) -> None:
        dialog = shortcuts.ShortcutsDialog(self._window)
        dialog.exec()

    def show_about(self) -> None:
        QMessageBox.about(self._window, "About Amicus Desktop",
                          states.about_html(__version__, paths.config_dir(), paths.log_dir()))
