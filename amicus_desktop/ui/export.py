"""*Export results…* and *Copy as Amicus context*: the save dialog, the clipboard, and what the status
bar or a message box says. The work itself is ``session/export.py``'s, run on a worker thread as an
:class:`~amicus_desktop.session.background.Op` among the window's background tasks (cancelled when
the window closes, so no outcome reaches a closed window)."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ..context import Context
from ..core.results import RetrievalResult
from ..present import describe, states
from ..present.export import ExportError, ExportFormat
from ..session.background import Op
from ..session.export import context_work, export_work

if TYPE_CHECKING:
    from .main_window import MainWindow

log = logging.getLogger("amicus.ui")

#: where the last export went, in the window's QSettings (``config_dir()/window.ini``)
EXPORT_FOLDER_KEY = "export/folder"


class Exporter(QObject):
    """The window's export and copy-as-context commands; :attr:`dialog` is the last save dialog."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self.dialog: QFileDialog | None = None
        self._folder: str | None = None  # without a window QSettings (tests, screenshots): this run only

    # -- copy as Amicus context ------------------------------------------------------------
    def copy_context(self) -> None:
        """*Copy as Amicus context*: the results assembled within the budget (off the UI thread: the
        tokenizer loads and counts there), then put on the clipboard."""
        w = self._window
        work = context_work(w.session)
        if work is None:
            w.show_status(states.COPY_NOTHING)
            return
        Op(work, self._context_built).failure(self._context_failed).run_in_background(w.tasks)

    def _context_built(self, ctx: Context) -> None:
        QGuiApplication.clipboard().setText(ctx.text)
        self._window.show_status(describe.context_copied(ctx))

    def _context_failed(self, exc: Exception) -> None:
        log.error("context assembly failed", exc_info=exc)
        self._window.show_status(f"Could not assemble the context ({type(exc).__name__}); see the log.")

    # -- export ----------------------------------------------------------------------------
    def export_results(self) -> None:
        """File ▸ Export results…: a save dialog for JSON or CSV; the file is written off the UI thread."""
        w = self._window
        view = w.session.question.view
        if view is None:
            w.show_status(states.EXPORT_NOTHING)
            return
        dialog = QFileDialog(w, "Export results", str(self.start_folder() / "amicus-results.json"))
        dialog.setObjectName("exportDialog")
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile)
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setNameFilters(list(states.EXPORT_FILTERS.values()))
        dialog.setDefaultSuffix("json")
        dialog.filterSelected.connect(lambda f: dialog.setDefaultSuffix(
            "csv" if f == states.EXPORT_FILTERS["csv"] else "json"))
        result = view.result

        def chosen(path: str) -> None:
            self.remember_folder(Path(path).parent)
            fmt = ExportFormat.for_path(Path(path))
            if fmt is None:
                csv = dialog.selectedNameFilter() == states.EXPORT_FILTERS["csv"]
                fmt = ExportFormat.CSV if csv else ExportFormat.JSON
            self.export_to(result, Path(path), fmt)

        dialog.fileSelected.connect(chosen)
        self.dialog = dialog
        dialog.open()

    def start_folder(self) -> Path:
        """Where the save dialog opens: the folder of the last export (kept with the window's layout),
        else the home folder."""
        qs = self._window.qsettings
        saved = qs.value(EXPORT_FOLDER_KEY) if qs is not None else self._folder
        return Path(str(saved)) if saved else Path.home()  # a folder gone since: the dialog says so

    def remember_folder(self, folder: Path) -> None:
        self._folder = str(folder)
        qs = self._window.qsettings
        if qs is not None:
            qs.setValue(EXPORT_FOLDER_KEY, str(folder))

    def export_to(self, result: RetrievalResult, path: Path, fmt: ExportFormat) -> asyncio.Task[None] | None:
        """Write ``result`` to ``path`` off the UI thread; the status bar or a message box says how it
        went before the task ends (``None`` once the window has closed)."""
        w = self._window

        def failed(exc: Exception) -> None:
            if isinstance(exc, ExportError):
                self._export_failed(exc.message)
            else:
                log.error("export crashed", exc_info=exc)
                self._export_failed(f"Export failed ({type(exc).__name__}); see the log.")

        op = Op(export_work(w.session, result, path, fmt), lambda rows: w.show_status(states.exported(rows, str(path))))
        return op.failure(failed).run_in_background(w.tasks)

    def _export_failed(self, message: str) -> None:
        w = self._window
        box = QMessageBox(QMessageBox.Icon.Warning, "Export failed", message, QMessageBox.StandardButton.Ok, w)
        box.setObjectName("exportFailed")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        w.show_status(message)
        box.open()
