"""How the window searches: the mode, the filters and the pins (CONTRACT section 6). No Qt.

:class:`Search` is the session's part for the choices that shape candidate generation rather than
the ranking: the search mode and the pins are the user's and outlive the window (kept in the
settings file through :class:`~.preferences.Preferences`); the filters belong to this window (a
narrowing for the questions at hand, cleared when another database opens). Each change is an
:class:`~.events.Event`; the session decides whether it asks again.
"""

from __future__ import annotations

from ..core.query import Filters, SearchMode
from .events import Event
from .preferences import Preferences

#: The order Ctrl+M walks through.
MODES: tuple[SearchMode, ...] = (SearchMode.SEMANTIC, SearchMode.HYBRID, SearchMode.KEYWORD)


class Search:
    """Events: :attr:`mode_changed`, :attr:`filters_changed`, :attr:`pins_changed`."""

    def __init__(self, prefs: Preferences) -> None:
        self._prefs = prefs
        self.filters = Filters()
        self.mode_changed: Event[SearchMode] = Event("search mode changed")
        self.filters_changed: Event[Filters] = Event("filters changed")
        self.pins_changed: Event[tuple[str, ...]] = Event("pins changed")

    # -- the mode (saved) ------------------------------------------------------------------
    @property
    def mode(self) -> SearchMode:
        return self._prefs.settings.search_mode

    def set_mode(self, mode: SearchMode) -> bool:
        """Use (and save) ``mode``; ``True`` when that changed it."""
        if not self._prefs.set_search_mode(mode):
            return False
        self.mode_changed.emit(mode)
        return True

    def next_mode(self) -> SearchMode:
        """The mode after the current one, in :data:`MODES` order (wrapping)."""
        return MODES[(MODES.index(self.mode) + 1) % len(MODES)]

    # -- the filters (this window) ---------------------------------------------------------
    def set_filters(self, filters: Filters) -> bool:
        """Search only chunks matching ``filters`` from now on; ``True`` when that changed them."""
        if filters == self.filters:
            return False
        self.filters = filters
        self.filters_changed.emit(filters)
        return True

    # -- the pins (saved) ------------------------------------------------------------------
    @property
    def pins(self) -> tuple[str, ...]:
        return self._prefs.settings.pins

    def is_pinned(self, chunk_id: str) -> bool:
        return chunk_id in self.pins

    def set_pins(self, pins: tuple[str, ...]) -> bool:
        """Pin exactly ``pins`` (in that order, saved); ``True`` when that changed them."""
        if not self._prefs.set_pins(pins):
            return False
        self.pins_changed.emit(self.pins)
        return True

    def toggle_pin(self, chunk_id: str) -> bool:
        """Pin ``chunk_id`` (last), or unpin it if it is pinned. Returns whether it is pinned now."""
        pinned = not self.is_pinned(chunk_id)
        self.set_pins((*self.pins, chunk_id) if pinned else tuple(p for p in self.pins if p != chunk_id))
        return pinned
