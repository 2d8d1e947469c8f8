"""Run Python's cyclic garbage collector on the Qt thread only.

Python collects reference cycles in whichever thread happens to allocate when a threshold is
crossed — here, often the DB thread. If such a cycle holds the last reference to a QObject, Qt
destroys that object on the wrong thread: its timers are not unregistered and the next timer tick
crashes in ``QTimerInfoList::activateTimers`` (seen in this project's test runs). Like qutebrowser,
we switch automatic collection off and collect from a QTimer on the Qt thread instead, with the
same generation thresholds.
"""

from __future__ import annotations

import gc
import logging

import shiboken6
from PySide6.QtCore import QCoreApplication, QObject, QTimer

log = logging.getLogger("amicus.ui")

INTERVAL_MS = 500


class MainThreadGC(QObject):
    """While alive (and started), automatic GC is off and collection runs on this object's thread."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._threshold = gc.get_threshold()
        self._was_enabled = gc.isenabled()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)

    def start(self) -> MainThreadGC:
        gc.disable()
        self._timer.start()
        return self

    def stop(self) -> None:
        self._timer.stop()
        gc.collect()
        if self._was_enabled:
            gc.enable()

    def check(self) -> None:
        g0, g1, g2 = gc.get_count()
        t0, t1, t2 = self._threshold
        if g0 > t0:
            gc.collect(0)
            if g1 > t1:
                gc.collect(1)
                if g2 > t2:
                    gc.collect(2)


_instance: MainThreadGC | None = None


def ensure_started() -> MainThreadGC:
    """The process-wide collector, parented to the QApplication (created and started once).

    Every :class:`~amicus_desktop.ui.main_window.MainWindow` calls this, so any program or test
    suite that shows the window is protected, not only ``run_app``.
    """
    global _instance
    if _instance is None or not shiboken6.isValid(_instance):
        _instance = MainThreadGC(QCoreApplication.instance()).start()
    return _instance
