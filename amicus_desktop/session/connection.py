"""The embed proxy as the app sees it: the current engine's connectivity, relayed. No Qt.

The state machine itself is :class:`~amicus_desktop.connectivity.ConnectivityMonitor` (one per
engine). :class:`Connection` outlives engines: it follows whichever monitor is current, ignores
a replaced one, and is where asking reports what the proxy did.
"""

from __future__ import annotations

from ..connectivity import Connectivity, ConnectivityMonitor, ProxyState
from ..core.errors import AmicusError
from ..core.results import ModelInfo
from .events import Event


class Connection:
    """Events: :attr:`changed` (every new :class:`Connectivity`), :attr:`went_offline` (the
    moment the proxy became unreachable; not repeated while it stays so)."""

    def __init__(self, url: str) -> None:
        self.state = Connectivity(ProxyState.CHECKING, url)
        self._monitor: ConnectivityMonitor | None = None
        self.changed: Event[Connectivity] = Event("connectivity")
        self.went_offline: Event[Connectivity] = Event("went offline")

    @property
    def can_search(self) -> bool:
        return self.state.can_search

    def follow(self, monitor: ConnectivityMonitor) -> None:
        """Relay ``monitor`` from now on (and its state right away); a previous one is ignored."""
        self._monitor = monitor
        monitor.subscribe(lambda state: self._update(monitor, state))
        self._update(monitor, monitor.state)

    def unfollow(self) -> None:
        """The engine is closing: its monitor's last words are no longer news."""
        self._monitor = None

    def retry_now(self) -> None:
        """Probe the proxy now (no-op while a probe is in flight)."""
        if self._monitor is not None:
            self._monitor.retry_now()

    def report_success(self, model: ModelInfo) -> None:
        if self._monitor is not None:
            self._monitor.report_success(model)

    def report_error(self, err: AmicusError) -> None:
        if self._monitor is not None:
            self._monitor.report_error(err)

    def _update(self, monitor: ConnectivityMonitor, state: Connectivity) -> None:
        if monitor is not self._monitor:
            return
        previous, self.state = self.state, state
        if state.state is ProxyState.OFFLINE and previous.state is not ProxyState.OFFLINE:
            self.went_offline.emit(state)
        self.changed.emit(state)
