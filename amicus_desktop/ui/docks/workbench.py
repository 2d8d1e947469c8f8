"""The curator workbench dock (Ctrl+Shift+W) and the dialogs around it: File ▸ New golden set…, Open golden
set…, and the judgments files of the Judges tab (import and export: Quepid, TREC, ``_rank_eval``).

In a window too narrow for the reader, the results and the workbench side by side, the reader steps aside
while the workbench is open and comes back when there is room again — as the window is resized, not only
when the dock opens — so the window can always be made as narrow as the results and the workbench need.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtWidgets import QDialog, QFileDialog, QInputDialog, QLineEdit

from ... import paths
from ...evaluate.interchange import FORMATS
from ...session.workbench import Workbench
from ..workbench import WorkbenchPanel
from ..workbench.import_dialog import ImportDialog
from .dock import Dock

if TYPE_CHECKING:
    from ..main_window import MainWindow

#: what the results pane says when a result was copied ("Copied result 3 with its citation")
_COPIED = re.compile(r"^Copied (?:result (\d+)|the citation of result (\d+))")
#: The dock's width when it opens.
WIDTH = 560
#: room the dock's frame and the splitter handles take beside the widgets' own minimums
MARGIN = 24


class WorkbenchDock(Dock[WorkbenchPanel]):
    """The :class:`~..workbench.WorkbenchPanel` over ``workbench`` in a dock."""

    def __init__(self, window: MainWindow, workbench: Workbench) -> None:
        self._window = window
        self.workbench = workbench
        self.dialog: QFileDialog | QInputDialog | QDialog | None = None  # the last dialog opened (tests answer it)
        # Made when first shown (~ 6 MB of widgets the start-up no longer holds): the base puts its controls in
        # the dock's place in the Tab order and its tabs' mnemonics (Alt+S: Snapshots) before the menu bar's.
        super().__init__("Curator workbench", "workbenchDock", window)
        self.visibilityChanged.connect(self._visibility)
        self._record_use(window)
        window.installEventFilter(self)

    def widget_created(self, panel: WorkbenchPanel) -> None:
        window = self._window
        panel.askGolden.connect(self.ask_golden)
        panel.importRequested.connect(self.import_judgments)
        panel.exportRequested.connect(self.export_judgments)
        panel.preview.passage.passageRequested.connect(window.peek_passage)
        window.signals.passageLoaded.connect(panel.preview.passage.show_verses)

    def _record_use(self, window: MainWindow) -> None:
        """What the reader does with a result, told to the workbench's record of use (which keeps it only with
        this workspace's consent): opened (Enter or a double-click), copied (Ctrl+C or the menu), pinned, added to
        context (the results selected when *Copy as Amicus context* runs, when fewer than all are)."""
        results, usage = window.results, self.workbench.usage

        def opened() -> None:
            r = results.current_result()
            if r is not None:
                usage.acted(r.chunk_id, "opened")

        def message(text: str) -> None:
            found = _COPIED.match(text)
            view = window.session.question.view
            if found is not None and view is not None:
                rank = int(found.group(1) or found.group(2))
                hit = next((r for r in view.result.results if r.rank == rank), None)
                if hit is not None:
                    usage.acted(hit.chunk_id, "copied")

        def context() -> None:
            chosen = results.selected_results()
            view = window.session.question.view
            if view is not None and 0 < len(chosen) < len(view.result.results):
                for r in chosen:
                    usage.acted(r.chunk_id, "context")

        results.results_view.activated.connect(lambda _index: opened())
        results.message.connect(message)
        results.pinScopeRequested.connect(lambda chunk_id, _scope: usage.acted(chunk_id, "pinned"))
        results.copyContextRequested.connect(context)
        def switched(_info: object) -> None:
            usage.load()  # another workspace's record: this one's is dropped at once

        window.session.notebook.workspaces.changed.connect(switched)
        usage.load()

    def create_widget(self) -> WorkbenchPanel:
        return WorkbenchPanel(self.workbench)

    def toggle(self) -> None:
        """Show the curator workbench with the focus on its ranking, or hide it."""
        if self.isVisible():
            self.setVisible(False)
            return
        window = self._window
        width = window.width()
        window.left_split.setVisible(width >= self._needed(with_reader=True))
        self.setVisible(True)
        self._allow_narrow(True)
        window.resizeDocks([self], [WIDTH], Qt.Orientation.Horizontal)
        if window.left_split.isHidden():  # showing the dock grew the window before the layout caught up
            QTimer.singleShot(50, self, lambda: self._shrink_to(width))
        self.panel.focus_ranking()
        QTimer.singleShot(0, self, self.panel.focus_ranking)  # once the re-shown dock can take it

    # -- the reader steps aside in a narrow window ----------------------------------------------
    def _needed(self, *, with_reader: bool) -> int:
        """The window width the results and the workbench need (and the reader, ``with_reader``)."""
        window = self._window
        right = window.main_split.widget(1)
        results = right.minimumSizeHint().width() if right is not None else 0
        reader = window.left_split.minimumSizeHint().width() + window.main_split.handleWidth() if with_reader else 0
        return results + reader + self.panel.minimumSizeHint().width() + MARGIN

    def _allow_narrow(self, open_: bool) -> None:
        """While the workbench is open the reader's own minimum width does not hold the window wide (it steps
        aside instead, :meth:`_fit_reader`); closed, the reader's minimum counts again."""
        self._window.left_split.setMinimumWidth(1 if open_ else 0)
        self._window.main_split.updateGeometry()  # the window's minimum (cached with the reader's) follows now
        self._window.stack.updateGeometry()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._window and event.type() == QEvent.Type.Resize and self.isVisible():
            self._fit_reader()
        return False

    def _fit_reader(self) -> None:
        window = self._window
        fits = window.width() >= self._needed(with_reader=True)
        if fits == window.left_split.isHidden():
            window.left_split.setVisible(fits)

    def _shrink_to(self, width: int) -> None:
        window = self._window
        layout = window.layout()
        if layout is not None:
            layout.activate()  # the minimum without the reader
        window.resize(width, window.height())

    def _visibility(self, visible: bool) -> None:
        self._allow_narrow(visible)
        if visible:
            self._fit_reader()
        else:
            self._window.left_split.setVisible(True)

    # -- golden sets -------------------------------------------------------------------------
    def new_golden_set(self, name: str | None = None) -> None:
        if name is None:
            dialog = QInputDialog(self._window)
            dialog.setObjectName("newGoldenSet")
            dialog.setWindowTitle("New golden set")
            dialog.setLabelText("Name of the golden set (it is saved in your data folder):")
            dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
            # wide enough for its title and label: a bare QInputDialog cut "New golden set" short
            words = dialog.fontMetrics().horizontalAdvance(dialog.labelText())
            dialog.setMinimumWidth(max(420, words + 60))
            self.dialog = dialog
            dialog.textValueSelected.connect(self._create_golden)
            dialog.open()
            return
        self._create_golden(name)

    def _create_golden(self, name: str) -> None:
        if self.workbench.golden_job.new_golden(name) is not None and not self.isVisible():
            self.toggle()

    def open_golden_set(self, path: str | None = None) -> None:
        if path is None:
            start = paths.golden_dir()  # the curator's own sets (a shipped one opened from elsewhere is copied here)
            with contextlib.suppress(OSError):
                start.mkdir(parents=True, exist_ok=True)
            path, _ = QFileDialog.getOpenFileName(self._window, "Open a golden set", str(start),
                                                  "Golden sets (*.json);;All files (*)")
            if not path:
                return
        self.workbench.golden_job.open_golden(path)
        if not self.isVisible():
            self.toggle()

    def ask_golden(self, query_id: str) -> None:
        """Ask the golden question ``query_id`` as the set asks it: its chapter open, its text in the box."""
        found = self.workbench.golden_job.question(query_id)
        if found is None:
            return
        text, chapter = found
        if chapter is not None:
            self._window.session.set_chapter(chapter)
        self._window.ask.edit.setText(text)  # the question box says what was asked
        self._window.ask_control.ask(text)
        self.panel.focus_ranking()

    # -- judgments files ---------------------------------------------------------------------
    def _file_dialog(self, title: str, save: bool) -> QFileDialog:
        golden = self.workbench.golden_job.golden_path
        dialog = QFileDialog(self._window, title, str(golden.parent if golden is not None else paths.golden_dir()))
        dialog.setObjectName("judgmentsDialog")
        dialog.setOption(QFileDialog.Option.DontUseNativeDialog, True)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave if save else QFileDialog.AcceptMode.AcceptOpen)
        dialog.setFileMode(QFileDialog.FileMode.AnyFile if save else QFileDialog.FileMode.ExistingFile)
        dialog.setNameFilters([f"{f.label} ({' '.join('*' + s for s in f.suffixes)})" for f in FORMATS.values()])
        self.dialog = dialog
        return dialog

    @staticmethod
    def _format(dialog: QFileDialog) -> str:
        chosen = dialog.selectedNameFilter()
        return next((name for name, f in FORMATS.items() if chosen.startswith(f.label)), "quepid")

    def import_judgments(self, path: str | None = None, fmt: str = "quepid", scale: str = "0-3",
                         judge: str | None = None) -> None:
        """Judges ▸ Import judgments…: a file of another tool's ratings into the open set. Whose ratings they are
        (filled in from the file's judge column when it has one, never its name) and their scale are asked for
        (:class:`~..workbench.import_dialog.ImportDialog`: a rating is never guessed into a grade)."""
        if path is not None and judge is not None:
            self.workbench.interchange.import_file(path, fmt, scale, judge)
            return
        if path is not None:
            self._ask_judge(path, fmt)
            return
        dialog = self._file_dialog("Import judgments", save=False)
        dialog.fileSelected.connect(lambda file: self._ask_judge(file, self._format(dialog)))
        dialog.open()

    def _ask_judge(self, path: str, fmt: str) -> None:
        """Read the judges ``path`` names (off the UI thread), then ask for the judge and the scale."""
        task = self.workbench.interchange.named_judges(path, fmt)

        def read(done: asyncio.Task[list[str] | None]) -> None:
            named = None if done.cancelled() else done.result()
            if named is None:
                return  # the notice line says why the file cannot be read
            ask = ImportDialog(Path(path).name, fmt, named, self._window)
            self.dialog = ask
            ask.accepted.connect(lambda: self.workbench.interchange.import_file(
                path, fmt, ask.scale(), ask.judge() or None))
            ask.open()

        task.add_done_callback(read)

    def export_judgments(self, path: str | None = None, fmt: str = "quepid", scale: str = "0-3") -> None:
        """Judges ▸ Export judgments…: the open set's grades for another tool."""
        if path is not None:
            self.workbench.interchange.export_file(path, fmt, scale)
            return
        dialog = self._file_dialog("Export judgments", save=True)
        dialog.fileSelected.connect(lambda file: self.workbench.interchange.export_file(
            file, self._format(dialog), scale))
        dialog.open()

    def detach(self) -> None:
        """The window is closing: the panel stops listening and the workbench's work under way stops."""
        if self.created:
            self.panel.detach()
        self.workbench.close()
