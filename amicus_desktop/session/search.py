"""How the window searches: the mode, the filters and the pins (CONTRACT section 6). No Qt.

:class:`Search` is the session's part for the choices that shape candidate generation rather than
the ranking: the search mode and the pins are the user's and outlive the window (kept in the
settings file through :class:`~.preferences.Preferences`); the filters belong to this window (a
narrowing for the questions at hand, cleared when another database opens). Each change is an
:class:`~.events.Event`; the session decides whether it asks again.

Each pin has a scope (:mod:`amicus_desktop.pin_scopes`): every question, the passage it was pinned in, or
questions like the one it was pinned for (the default). :meth:`Search.applying` (by :mod:`.pins`) says which
pins a question gets — the only pins the session asks for.
"""

from __future__ import annotations

from ..core.query import Filters, SearchMode
from ..core.references import ChapterRef
from ..pin_scopes import DEFAULT_SCOPE, PinScope, Scope, scope_of
from .events import Event
from .pins import applying
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

    @property
    def scopes(self) -> tuple[PinScope, ...]:
        return self._prefs.settings.pin_scopes

    def scope_of(self, chunk_id: str) -> PinScope:
        """Where pin ``chunk_id`` applies (``always`` for a pin without a scope)."""
        return scope_of(self.scopes, chunk_id)

    def applying(self, question: str, chapter: ChapterRef | None) -> tuple[str, ...]:
        """The pins that belong in the answer to ``question`` ranked for ``chapter``, in pin order."""
        return applying(self.pins, self.scopes, question, chapter)

    def set_pins(self, pins: tuple[str, ...], scopes: tuple[PinScope, ...] | None = None) -> bool:
        """Pin exactly ``pins`` (in that order, saved), with ``scopes`` when given (else each keeps its own);
        ``True`` when that changed them."""
        if not self._prefs.set_pins(pins, scopes):
            return False
        self.pins_changed.emit(self.pins)
        return True

    def pin(self, chunk_id: str, scope: Scope = DEFAULT_SCOPE, *, question: str = "",
            chapter: ChapterRef | None = None) -> bool:
        """Pin ``chunk_id`` (last, or where it is) for ``scope``: ``question`` is the one it is pinned for,
        ``chapter`` the passage. A scope that cannot be anchored (no chapter open, no question) is ``always``."""
        if (scope == "passage" and chapter is None) or (scope == "question" and not question.strip()):
            scope = "always"
        anchor = str(chapter) if scope == "passage" else question.strip()[:500] if scope == "question" else ""
        entry = PinScope(chunk_id, scope, anchor)
        others = tuple(s for s in self.scopes if s.chunk_id != chunk_id)
        pins = self.pins if chunk_id in self.pins else (*self.pins, chunk_id)
        return self.set_pins(pins, (*others, entry))

    def unpin(self, chunk_id: str) -> bool:
        return self.set_pins(tuple(p for p in self.pins if p != chunk_id))

    def toggle_pin(self, chunk_id: str, *, question: str = "", chapter: ChapterRef | None = None) -> bool:
        """Pin ``chunk_id`` for the default scope (questions like ``question``), or unpin it if it is pinned.
        Returns whether it is pinned now."""
        if self.is_pinned(chunk_id):
            self.unpin(chunk_id)
            return False
        self.pin(chunk_id, question=question, chapter=chapter)
        return True
