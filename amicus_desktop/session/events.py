"""A typed observer list: how the session's parts tell listeners that something changed. No Qt.

Each part of the session (:mod:`amicus_desktop.session`) owns :class:`Event` attributes; the Qt
adapter in ``ui/`` connects to them and re-emits Qt signals, tests connect plain callbacks. It is
a dozen lines rather than a dependency because it must stay typed under ``mypy --strict``
(``Event[DbState]`` only takes listeners of a ``DbState``) and must keep one broken listener from
stopping the others or the state change that fired it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Generic, TypeVar

log = logging.getLogger("amicus.session")

T = TypeVar("T")

Listener = Callable[[T], None]


class Event(Generic[T]):
    """Listeners called in the order they connected, on the emitting thread (the event loop's).

    A listener that raises is logged and skipped; the others still run.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._listeners: list[Listener[T]] = []

    def connect(self, listener: Listener[T]) -> Callable[[], None]:
        """Call ``listener(value)`` on every :meth:`emit`; returns a function that disconnects it."""
        self._listeners.append(listener)
        return lambda: self.disconnect(listener)

    def disconnect(self, listener: Listener[T]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    def emit(self, value: T) -> None:
        for listener in list(self._listeners):
            try:
                listener(value)
            except Exception:
                log.exception("listener failed", extra={"event": self.name})

    def __repr__(self) -> str:
        return f"<Event {self.name} ({len(self._listeners)} listeners)>"
