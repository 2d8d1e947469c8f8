"""Building the demo database from the welcome page, with a progress dialog.

The build runs on a plain worker thread with plain arguments (an output path, a cancel
``threading.Event`` and a :class:`ProgressBox`); the dialog polls the box with a QTimer and awaits
the job's future on the Qt loop. No widget and no QObject method ever reaches the worker.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QDialog, QHBoxLayout, QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from .theme import scaled_font

log = logging.getLogger("amicus.ui")


@dataclass
class Snapshot:
    stage: str = "starting"
    done: int = 0
    total: int = 0
    rate: float = 0.0
    eta: float | None = None


class ProgressBox:
    """Thread-safe holder of the latest progress (written by the worker, read by the UI)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._snap = Snapshot()

    def __call__(self, progress: Any) -> None:  # the build's ``progress`` callback
        snap = Snapshot(str(progress.stage), int(progress.done), int(progress.total),
                        float(getattr(progress, "rate", 0.0) or 0.0), getattr(progress, "eta", None))
        with self._lock:
            self._snap = snap

    def read(self) -> Snapshot:
        with self._lock:
            return self._snap


def demo_build_job(out: str, cancel: threading.Event, progress: ProgressBox) -> Any:
    """(worker thread) Start the app's own library at ``out`` with the local embedding model: the text of all
    66 books and the demo's two books' study material; the window grows the rest in the background
    (:mod:`.growth`). Cancelled, it keeps what it wrote, and the next start continues it."""
    from ..corpus import DEMO_BOOKS
    from ..corpus.grow import grow_database
    from ..embedding import get_backend

    return grow_database(Path(out), None, get_backend("local"), progress=progress, cancel=cancel,
                         stop_after=len(DEMO_BOOKS))


class BuildDialog(QDialog):
    """Runs ``job(out, cancel, progress)`` and shows its progress; :attr:`finished_ok` on success."""

    finishedOk = Signal(object)  # the job's result (a BuildReport)
    failed = Signal(str)

    def __init__(
        self,
        out: Path,
        job: Callable[[str, threading.Event, ProgressBox], Any] = demo_build_job,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Building the demo database")
        self.setModal(True)
        self.out = Path(out)
        self._job = job
        self._cancel = threading.Event()
        self._box = ProgressBox()
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self.result_value: Any = None
        self.error: str | None = None

        title = QLabel("Building the demo database")
        title.setFont(scaled_font(self.font(), 1.2, bold=True))
        intro = QLabel(
            "Writing the text of all 66 books (World English Bible and KJV), then reading the study material "
            "(Matthew Henry, Scofield, Strong's, Nave's) for Romans and John and embedding it on this computer. "
            f"It is saved to {self.out}; the rest of the Bible is prepared in the background while you use the app."
        )
        intro.setWordWrap(True)
        self.stage = QLabel("Starting…")
        self.bar = QProgressBar()
        self.bar.setRange(0, 0)
        self.bar.setAccessibleName("Build progress")
        self.detail = QLabel("")
        self.detail.setWordWrap(True)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.clicked.connect(self.cancel)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setSpacing(10)
        layout.addWidget(title)
        layout.addWidget(intro)
        layout.addSpacing(6)
        layout.addWidget(self.stage)
        layout.addWidget(self.bar)
        layout.addWidget(self.detail)
        layout.addLayout(row)
        self.resize(520, self.sizeHint().height())
        self._timer = QTimer(self)
        self._timer.setInterval(150)
        self._timer.timeout.connect(self._poll)

    def start(self) -> asyncio.Task[None]:
        self._timer.start()
        return asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        self._executor = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="amicus-build")
        out, cancel, box, job = str(self.out), self._cancel, self._box, self._job  # plain values only
        future = self._executor.submit(job, out, cancel, box)
        try:
            self.result_value = await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            cancel.set()
            raise
        except Exception as exc:  # BuildCancelled, missing modules, embedding failure…
            cancelled = cancel.is_set()
            self.error = "cancelled" if cancelled else f"{type(exc).__name__}: {exc}"
            log.warning("demo build ended", extra={"cancelled": cancelled, "error": type(exc).__name__})
            self._timer.stop()
            self._executor.shutdown(wait=False)
            if cancelled:
                self.reject()
            else:
                self._show_failure(str(exc))
                self.failed.emit(str(exc))
            return
        self._timer.stop()
        self._executor.shutdown(wait=False)
        log.info("demo build finished")
        self.finishedOk.emit(self.result_value)
        self.accept()

    def cancel(self) -> None:
        if self.error is not None:
            self.reject()
            return
        self._cancel.set()
        self.stage.setText("Cancelling… (the next start continues)")
        self.cancel_button.setEnabled(False)

    def reject(self) -> None:  # Esc / close: cancel the build first
        if self.result_value is None and self.error is None:
            self.cancel()
            return
        super().reject()

    def _poll(self) -> None:
        snap = self._box.read()
        self.stage.setText(stage_text(snap.stage))
        if not show_embedding(snap, self.bar, self.detail):
            self.detail.setText("")

    def _show_failure(self, message: str) -> None:
        self.stage.setText("The demo database could not be built.")
        self.bar.setRange(0, 1)
        self.bar.setValue(0)
        self.detail.setText(message)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.cancel_button.setText("Close")
        self.cancel_button.setEnabled(True)


def show_embedding(snap: Snapshot, bar: QProgressBar, detail: QLabel) -> bool:
    """While chunks are embedded: how many of how many, at what rate, how long is left (``True``); before
    the embedding has a total, a busy bar (``False``, ``detail`` untouched)."""
    if snap.total > 0 and snap.stage == "embedding":
        bar.setRange(0, snap.total)
        bar.setValue(snap.done)
        eta = f", about {duration_text(snap.eta)} left" if snap.eta else ""
        detail.setText(f"{snap.done:,} of {snap.total:,} chunks · {snap.rate:,.0f} per second{eta}")
        return True
    bar.setRange(0, 0)
    return False


def stage_text(stage: str) -> str:
    if stage == "embedding":
        return "Embedding chunks…"
    if stage == "finishing":
        return "Writing the index…"
    if stage == "done":
        return "Done."
    return stage[:1].upper() + stage[1:] + "…"


def duration_text(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 90:
        return f"{seconds} s"
    return f"{seconds // 60} min {seconds % 60:02d} s"
