"""The library growing in the background: the app continues ``build-db --resume`` on the library it built.

The first launch (the welcome page's *Build*, or ``scripts/dev.sh run``) writes a library with the text of all
66 books and the study material of the demo's two (``build-db --all --resume --stop-after 2``), still marked
growing. When the window opens **that** library — the one in the data folder, still growing — this module runs
``amicus-desktop build-db --all --resume --progress json --low-priority`` on it as a child process (a
:class:`QProcess`: nothing of the build runs on the UI thread or in this process), reads its progress lines,
and shows them in the status bar ("Preparing the whole Bible: 12 of 66 books · about 40 min left") with
*Pause* and *Continue*. Each book is written whole in one transaction (:mod:`amicus_desktop.store.growing`):
when the child says a book is in, the session re-reads the library's coverage, so that book is searchable at
once; when the child ends with the library complete, the session re-opens it. A library the user opened from
elsewhere is never built on (only ``paths.default_db_path()``), and a finished one never is.

Pausing stops the child (the book in progress is started again on *Continue*; the books written stay and are
never embedded again). Whether it is paused is kept in the window's settings (``growth/paused``): a restart
continues unless the reader paused it. ``AMICUS_GROW_BOOKS`` (book ids, comma-separated) limits the books
grown (at the normal CPU priority), for tests and quick tries.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path

from PySide6.QtCore import QObject, QProcess, QSettings, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QWidget

from .. import paths
from ..core.books import BOOKS
from ..session import DbState, Session
from ..store.schema import BUILD_STATE, GROWING
from .elided import ElidedLabel

log = logging.getLogger("amicus.ui")

#: Book ids (comma-separated) to grow instead of all 66: for tests and quick tries.
BOOKS_ENV = "AMICUS_GROW_BOOKS"
PAUSED_KEY = "growth/paused"


class Phase(Enum):
    IDLE = "idle"  # not the app's own growing library: nothing to do, nothing shown
    RUNNING = "running"
    PAUSED = "paused"
    FAILED = "failed"
    DONE = "done"


@dataclass(frozen=True)
class Progress:
    """The last thing the builder said: books in, the book being written, seconds left (None: unknown)."""

    books_done: int
    books_total: int
    book: str = ""
    eta: float | None = None


def builder_command(db: Path, books: Sequence[str] | None) -> tuple[str, list[str]]:
    """The program and arguments that continue growing ``db`` (``books``: ``None`` for all 66, at a low CPU
    priority; a few books — tests, quick tries — at the normal one)."""
    if getattr(sys, "frozen", False):  # a bundled app is its own command line
        program, args = sys.executable, []
    else:
        program, args = sys.executable, ["-m", "amicus_desktop"]
    args += ["build-db", "--resume", "--progress", "json", "--out", str(db)]
    args += ["--all", "--low-priority"] if books is None else ["--books", ",".join(books)]
    return program, args


def status_text(phase: Phase, p: Progress) -> str:
    """The status bar's sentence for the growth (empty when there is none to show)."""
    books = f"{p.books_done} of {p.books_total} books"
    if phase is Phase.RUNNING:
        if p.eta is None:
            left = "estimating the time left"
        elif p.eta < 60:
            left = "less than a minute left"
        else:
            minutes = math.ceil(p.eta / 60)
            left = (f"about {minutes} min left" if minutes < 90
                    else f"about {minutes // 60} h {minutes % 60:02d} min left")
        return f"Preparing the whole Bible: {books} · {left}"
    if phase is Phase.PAUSED:
        return f"Whole Bible paused: {books} searchable"
    if phase is Phase.FAILED:
        return f"Preparing the whole Bible stopped: {books} searchable"
    return ""


def grow_books() -> list[str] | None:
    value = os.environ.get(BOOKS_ENV, "").strip()
    return [b.strip() for b in value.split(",") if b.strip()] or None


def is_own_growing_library(db: DbState) -> bool:
    """Whether ``db`` is the library the app built in the data folder and it is still growing."""
    if not db.ready or db.info is None:
        return False
    return (_same_file(db.path, paths.default_db_path())
            and db.info.meta.get(BUILD_STATE) == GROWING)


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


class GrowthStatus(QWidget):
    """The status bar's part: the sentence and one button (Pause, Continue or Try again)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # elided (whole in its tooltip) in a narrow window: beside an answer's timings it held the window at 1,198 px
        self.label = ElidedLabel()
        self.label.setAccessibleName("Whole Bible preparation")
        self.button = QPushButton()
        self.button.setFlat(True)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 0, 4, 0)
        row.setSpacing(6)
        row.addWidget(self.label)
        row.addWidget(self.button)
        self.hide()


class LibraryGrowth(QObject):
    """Runs and watches the child that grows the app's own library; :attr:`widget` shows it."""

    changed = Signal()

    def __init__(self, session: Session, qsettings: QSettings | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.qsettings = qsettings
        self.books = grow_books()
        self.widget = GrowthStatus()
        self.widget.button.clicked.connect(self._on_button)
        self.phase = Phase.IDLE
        self.progress = Progress(0, self._total())
        self.error = ""
        self.db: Path | None = None
        self.process: QProcess | None = None
        self._buffer = b""

    # -- what the window tells it ------------------------------------------------------------
    def on_db(self, db: DbState) -> None:
        """The library opened (or another one): grow it if it is the app's own and still growing."""
        if not is_own_growing_library(db):
            if db.ready:  # another library, or this one complete: nothing to grow here
                self._stop_child()
                self._set(Phase.DONE if self.phase is Phase.RUNNING and self.db == db.path else Phase.IDLE)
            return
        assert db.info is not None
        done = len([b for b in db.info.meta.get("corpus_books", "").split(",") if b])
        self.db = db.path
        self.progress = Progress(done, self._total(), self.progress.book, self.progress.eta)
        if self.process is not None:
            self._set(self.phase)
        elif self.paused:
            self._set(Phase.PAUSED)
        elif self.phase is not Phase.FAILED:
            self.start()

    @property
    def paused(self) -> bool:
        return bool(self.qsettings is not None and self.qsettings.value(PAUSED_KEY, False, type=bool))

    def _remember_paused(self, paused: bool) -> None:
        if self.qsettings is not None:
            self.qsettings.setValue(PAUSED_KEY, paused)
            self.qsettings.sync()

    # -- the child -----------------------------------------------------------------------------
    def start(self) -> None:
        """Start (or continue) the build in a child process."""
        if self.db is None or self.process is not None:
            return
        program, args = builder_command(self.db, self.books)
        proc = QProcess(self)
        proc.setProcessChannelMode(QProcess.ProcessChannelMode.SeparateChannels)
        proc.setStandardOutputFile(QProcess.nullDevice())
        proc.readyReadStandardError.connect(self._read)
        proc.finished.connect(self._finished)
        proc.errorOccurred.connect(self._error)
        self.process = proc
        self._buffer = b""
        self.error = ""
        self._set(Phase.RUNNING)
        log.info("growing the library in the background", extra={"books": "all" if self.books is None
                                                                   else len(self.books)})
        proc.start(program, args)

    def pause(self) -> None:
        self._remember_paused(True)
        self._stop_child()
        self._set(Phase.PAUSED)

    def resume(self) -> None:
        self._remember_paused(False)
        self.start()

    def shutdown(self) -> None:
        """The window closes: stop the child (the books written stay; the next start continues)."""
        self._stop_child(wait=True)

    def _stop_child(self, *, wait: bool = False) -> None:
        proc, self.process = self.process, None
        if proc is None:
            return
        if proc.state() is QProcess.ProcessState.NotRunning:
            proc.deleteLater()
            return
        proc.finished.connect(proc.deleteLater)  # gone once it has ended (never destroyed while it runs)
        if os.name == "posix":
            proc.terminate()  # SIGTERM: the book in progress is rolled back; the file stays whole
        else:
            proc.kill()
        if wait:
            proc.waitForFinished(3000)

    def _read(self) -> None:
        proc = self.sender()
        if not isinstance(proc, QProcess) or proc is not self.process:
            return
        self._buffer += bytes(proc.readAllStandardError().data())
        *lines, self._buffer = self._buffer.split(b"\n")
        for raw in lines:
            self._line(raw.decode("utf-8", "replace").strip())

    def _line(self, line: str) -> None:
        if not line.startswith("{"):
            if line:
                self.error = line  # build-db's own sentence when it fails
            return
        try:
            event = json.loads(line)
        except ValueError:
            return
        stage = str(event.get("stage", ""))
        done = event.get("books_done")
        books_done = int(done) if isinstance(done, int) else self.progress.books_done
        eta = event.get("eta")
        book = stage.split(": ", 1)[1] if stage.startswith("book ") and ": " in stage else self.progress.book
        self.progress = Progress(books_done, self._total(), book,
                                 float(eta) if isinstance(eta, int | float) else self.progress.eta)
        self._set(self.phase)
        if stage.startswith("wrote "):
            self.session.library_grew()

    def _finished(self, code: int, _status: QProcess.ExitStatus) -> None:
        proc = self.sender()
        if proc is not self.process:
            return  # one we stopped
        self.process = None
        if isinstance(proc, QProcess):
            proc.deleteLater()
        if code == 0:
            log.info("the library is complete")
            self.session.reload()  # an ordinary library now: open it again (its coverage, its search file)
            self._set(Phase.DONE)
        else:
            log.warning("growing the library stopped", extra={"code": code})
            self.error = self.error or f"the builder ended with code {code}"
            self._set(Phase.FAILED)

    def _error(self, error: QProcess.ProcessError) -> None:
        if error is QProcess.ProcessError.FailedToStart and self.sender() is self.process:
            self.process = None
            self.error = "the builder could not be started"
            self._set(Phase.FAILED)

    # -- showing it ------------------------------------------------------------------------------
    def _on_button(self) -> None:
        if self.phase is Phase.RUNNING:
            self.pause()
        else:
            self.resume()

    def _set(self, phase: Phase) -> None:
        self.phase = phase
        w = self.widget
        text = status_text(phase, self.progress)
        w.label.setText(text)
        w.label.set_shorter(*(text.split(": ", 1)[1:]))  # "12 of 66 books · about 40 min left" in a narrow window
        tip = [f"Study material is being written for every book; {self.progress.book} now."
               if phase is Phase.RUNNING and self.progress.book else
               "Every book can be read now; a book can be searched once its study material is written."]
        if phase is Phase.FAILED and self.error:
            tip.append(self.error)
        w.label.setToolTip("\n".join(tip))
        w.button.setText({Phase.RUNNING: "Pause", Phase.PAUSED: "Continue"}.get(phase, "Try again"))
        w.button.setAccessibleName(w.button.text())
        w.setVisible(bool(text))
        self.changed.emit()

    def _total(self) -> int:
        return len(BOOKS) if self.books is None else len(self.books)


__all__ = ["LibraryGrowth", "Phase", "Progress", "builder_command", "is_own_growing_library", "status_text"]
