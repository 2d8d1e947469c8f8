"""Run Python's cyclic garbage collector on the Qt thread only.

Python collects reference cycles in whichever thread happens to allocate when a threshold is
crossed — here, often the DB thread. If such a cycle holds the last reference to a QObject, Qt
destroys that object on the wrong thread: its timers are not unregistered and the next timer tick
crashes in ``QTimerInfoList::activateTimers`` (seen in this project's test runs). Like qutebrowser,
we switch automatic collection off and collect from a QTimer on the Qt thread instead, with the
same generation thresholds.

Start one at application start-up, before any window exists (``ui/app.py``, the screenshot
generator, the UI tests' session fixture), and stop it at the end.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500


class QtThreadGC(QObject):
    """While started, automatic GC is off and collection runs on this object's (the Qt) thread."""

    def __init__(self, parent: QObject | None = None, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__(parent)
        self._threshold = gc.get_threshold()
        self._was_enabled = gc.isenabled()
        self._timer = QTimer(self)
        self._timer.setInterval(interval_ms)
        self._timer.timeout.connect(self.check)

    def start(self) -> QtThreadGC:
        gc.disable()
        self._timer.start()
        return self

    def stop(self) -> None:
        """Collect once more and give collection back to Python (as it was before :meth:`start`)."""
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
