"""A real proxy process that goes up and down on a timer, for the flapping fault tests."""

from __future__ import annotations

import threading

from tests.support.proxy import ProxyProcess


class Flapper:
    """Start/SIGKILL ``proxy`` every ``period`` seconds on a background thread until :meth:`settle`.

    ``cycles`` counts the times it came up. :meth:`settle` stops flapping and leaves the proxy up.
    """

    def __init__(self, proxy: ProxyProcess, period: float = 1.0) -> None:
        self.proxy = proxy
        self.period = period
        self.cycles = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.proxy.start()
            self.cycles += 1
            if self._stop.wait(self.period):
                break
            self.proxy.kill()
            self._stop.wait(self.period)

    def start(self) -> Flapper:
        self._thread.start()
        return self

    def settle(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        if not self.proxy.running:
            self.proxy.start()
