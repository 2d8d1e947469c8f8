"""File ▸ Add documents to a library…: choose a JSON Lines file, watch it ingest, read the report.

The same work and report as ``amicus-desktop ingest`` (:mod:`amicus_desktop.session.ingest`): documents,
chunks (new, replaced, unchanged), how many were embedded, and every skipped line with its problem. The
work runs on a worker thread through :class:`~amicus_desktop.session.background.Op` with plain values
(two paths, the proxy, a cancel event and a :class:`~.build_dialog.ProgressBox`); a timer reads the box.
Nothing here waits on I/O: the file choosers are Qt's, the rest is the worker's.
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..corpus.ingest import IngestReport
from ..session.background import Op, Tasks
from ..session.ingest import IngestRequest, failure_text, ingest_work, report_rows
from .build_dialog import ProgressBox, show_embedding, stage_text
from .theme import scaled_font

log = logging.getLogger("amicus.ui")

CORPUS_FILTER = "JSON Lines documents (*.jsonl *.ndjson *.json);;All files (*)"
LIBRARY_FILTER = "Scripture libraries (*.db *.sqlite *.sqlite3);;All files (*)"


class IngestDialog(QDialog):
    """Ingests a corpus into ``library`` (the open one by default); :attr:`ingested` carries the report."""

    ingested = Signal(object)  # the IngestReport, when the library was written

    def __init__(self, library: Path, proxy_url: str, token: str | None = None, *, open_library: Path | None = None,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add documents to a library")
        self.setModal(True)
        self._proxy_url, self._token = proxy_url, token
        self._open_library = open_library
        self._tasks = Tasks("ingest dialog")
        self._cancel = threading.Event()
        self._box = ProgressBox()
        self.report: IngestReport | None = None
        self.error: str | None = None
        self.running = False

        title = QLabel("Add documents to a library")
        title.setFont(scaled_font(self.font(), 1.2, bold=True))
        intro = QLabel(
            "Each line of a JSON Lines file is one document and its chunks. Chunks are added to the library, "
            "or replace the ones with the same chunk id; chunks that did not change are not embedded again. "
            "Lines with a problem are skipped and listed. If the ingest fails or you cancel, the library "
            "stays exactly as it was."
        )
        intro.setWordWrap(True)
        self.corpus_edit = QLineEdit()
        self.corpus_edit.setPlaceholderText("Choose a .jsonl file…")
        self.corpus_edit.setAccessibleName("Documents file")
        self.library_edit = QLineEdit(str(library))
        self.library_edit.setAccessibleName("Library")
        self.library_note = QLabel()
        self.library_note.setWordWrap(True)
        choose_corpus = QPushButton("Choose…")
        choose_corpus.clicked.connect(self.choose_corpus)
        choose_library = QPushButton("Choose…")
        choose_library.clicked.connect(self.choose_library)
        form = QGridLayout()
        form.addWidget(QLabel("Documents:"), 0, 0)
        form.addWidget(self.corpus_edit, 0, 1)
        form.addWidget(choose_corpus, 0, 2)
        form.addWidget(QLabel("Library:"), 1, 0)
        form.addWidget(self.library_edit, 1, 1)
        form.addWidget(choose_library, 1, 2)
        form.addWidget(self.library_note, 2, 1, 1, 2)

        self.stage = QLabel("")
        self.bar = QProgressBar()
        self.bar.setAccessibleName("Ingest progress")
        self.bar.hide()
        self.detail = QLabel("")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        self.summary = QWidget()
        self.summary_form = QFormLayout(self.summary)
        self.summary_form.setContentsMargins(0, 0, 0, 0)
        self.summary.hide()
        self.errors_label = QLabel("")
        self.errors = QTableWidget(0, 2)
        self.errors.setHorizontalHeaderLabels(["Line", "Problem"])
        self.errors.setAccessibleName("Skipped lines")
        self.errors.verticalHeader().hide()
        # a row's height follows its wrapped problem whenever the column's width changes (the dialog shown or
        # resized): sized once, while the table was still hidden, the rows overlapped until resized by hand
        self.errors.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.errors.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.errors.setWordWrap(True)
        header = self.errors.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.errors_label.hide()
        self.errors.hide()

        self.ingest_button = QPushButton("Ingest")
        self.ingest_button.setDefault(True)
        self.ingest_button.clicked.connect(self.start)
        self.open_button = QPushButton("Open this library")
        self.open_button.hide()
        self.close_button = QPushButton("Close")
        self.close_button.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.open_button)
        buttons.addWidget(self.ingest_button)
        buttons.addWidget(self.close_button)

        layout = QVBoxLayout(self)
        layout.setSpacing(10)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self.stage)
        layout.addWidget(self.bar)
        layout.addWidget(self.detail)
        layout.addWidget(self.summary)
        layout.addWidget(self.errors_label)
        layout.addWidget(self.errors, 1)
        layout.addLayout(buttons)
        self.resize(640, self.sizeHint().height())
        self._timer = QTimer(self)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self._poll)
        self.corpus_edit.textChanged.connect(self._update_ready)
        self.library_edit.textChanged.connect(self._update_ready)
        self._update_ready()

    # -- choosing ----------------------------------------------------------------------------
    def choose_corpus(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Choose the documents to add", self.corpus_edit.text(),
                                              CORPUS_FILTER)
        if path:
            self.corpus_edit.setText(path)

    def choose_library(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Add to which library?", self.library_edit.text(), LIBRARY_FILTER,
                                              options=QFileDialog.Option.DontConfirmOverwrite)
        if path:
            self.library_edit.setText(path)

    @property
    def library(self) -> Path:
        return Path(self.library_edit.text().strip()).expanduser()

    def _update_ready(self) -> None:
        library = self.library_edit.text().strip()
        if not library:
            note = "Choose the library to add to, or a new file to make one."
        elif self._open_library is not None and self.library == self._open_library:
            note = "The library open now: it is opened again when the ingest finishes."
        else:
            note = "When the ingest finishes, a new version of this library replaces it (or a new library is made)."
        self.library_note.setText(note)
        self.ingest_button.setEnabled(not self.running and bool(self.corpus_edit.text().strip()) and bool(library))

    # -- running ------------------------------------------------------------------------------
    def start(self) -> None:
        """Ingest the chosen file into the chosen library on a worker thread."""
        if self.running or not self.ingest_button.isEnabled():
            return
        request = IngestRequest(Path(self.corpus_edit.text().strip()).expanduser(), self.library,
                                self._proxy_url, self._token)
        self.running, self.report, self.error = True, None, None
        self._cancel = threading.Event()
        self._box = ProgressBox()
        cancel, box = self._cancel, self._box  # plain values only reach the worker
        self._set_inputs_enabled(False)
        self.summary.hide()
        self.errors_label.hide()
        self.errors.hide()
        self.open_button.hide()
        self.stage.setText("Reading the documents…")
        self.detail.setText("")
        self.detail.show()
        self.bar.setRange(0, 0)
        self.bar.show()
        self.close_button.setText("Cancel")
        self._timer.start()
        log.info("ingest started")
        Op(lambda: ingest_work(request, cancel, box), self._finished).failure(self._failed).run_in_background(
            self._tasks)

    def cancel(self) -> None:
        self._cancel.set()
        self.stage.setText("Cancelling… (the library stays as it was)")
        self.close_button.setEnabled(False)

    def reject(self) -> None:  # Close, Esc, the window's close button: a running ingest is cancelled first
        if self.running:
            self.cancel()
            return
        self._tasks.shutdown()
        super().reject()

    def _finished(self, report: IngestReport) -> None:
        self._done()
        self.report = report
        log.info("ingest finished", extra={"written": report.written, "skipped": len(report.errors)})
        self.stage.setText("Done." if not report.errors else "Done, with lines skipped.")
        self.bar.hide()
        self.detail.setText("")
        self.detail.hide()
        self.show_report(report)
        if report.written:
            self.ingested.emit(report)

    def _failed(self, exc: Exception) -> None:
        self._done()
        self.error = failure_text(exc, self.library)
        log.warning("ingest ended", extra={"error": type(exc).__name__})
        self.stage.setText("Nothing was added.")
        self.bar.hide()
        self.detail.setText(self.error)
        self.detail.show()

    def _done(self) -> None:
        self.running = False
        self._timer.stop()
        self.close_button.setText("Close")
        self.close_button.setEnabled(True)
        self._set_inputs_enabled(True)

    def _set_inputs_enabled(self, enabled: bool) -> None:
        for w in (self.corpus_edit, self.library_edit):
            w.setEnabled(enabled)
        self._update_ready()

    def _poll(self) -> None:
        snap = self._box.read()
        if snap.stage == "starting":
            return
        self.stage.setText(stage_text(snap.stage))
        show_embedding(snap, self.bar, self.detail)

    # -- the report ---------------------------------------------------------------------------
    def show_report(self, report: IngestReport) -> None:
        """The counts, and every skipped line with its problem."""
        while self.summary_form.rowCount():
            self.summary_form.removeRow(0)
        for label, value in report_rows(report):
            text = QLabel(value)
            text.setWordWrap(True)
            text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            self.summary_form.addRow(f"{label}:", text)
        self.summary.show()
        errors = report.errors
        self.errors.setRowCount(len(errors))
        for row, e in enumerate(errors):
            line = QTableWidgetItem(str(e.line))
            line.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            self.errors.setItem(row, 0, line)
            self.errors.setItem(row, 1, QTableWidgetItem(e.message))
        skipped = len({e.line for e in errors})
        self.errors_label.setText(f"{skipped} line{'s' * (skipped != 1)} skipped — fix them and ingest the file again "
                                  "(the lines already in are not embedded twice):")
        self.errors_label.setWordWrap(True)
        self.errors_label.setVisible(bool(errors))
        self.errors.setVisible(bool(errors))
        self.open_button.setVisible(report.written and self._open_library != report.path)
