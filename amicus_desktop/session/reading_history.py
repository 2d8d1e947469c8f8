"""Where the reader has been, for going back and forward as a browser does. No Qt, nothing saved.

(``history.py`` beside it holds the *questions* asked; this holds the *places* read.) Every move of the
reader is a visit: a chapter chosen or stepped to, a typed reference, a result or a verse opened, a
commentary note or (later) a cross-reference followed. A visit after going back drops the places ahead,
as a browser does; the same place twice in a row is one visit. :meth:`ReadingHistory.back` and
:meth:`ReadingHistory.forward` move the cursor and say where to go; the move they cause is not a new visit
(:meth:`ReadingHistory.visit` is told so by the caller, see :mod:`.navigation`).
"""

from __future__ import annotations

from ..core.references import PassageRef
from .events import Event

#: How many places a session keeps (the oldest are dropped first).
LIMIT = 200


class ReadingHistory:
    """The places visited, oldest first, and which one is current. :attr:`changed` fires on every change."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._places: list[PassageRef] = []
        self._index = -1
        self._limit = max(2, limit)
        self.changed: Event[ReadingHistory] = Event("reading history changed")

    @property
    def places(self) -> tuple[PassageRef, ...]:
        return tuple(self._places)

    @property
    def current(self) -> PassageRef | None:
        return self._places[self._index] if self._places else None

    @property
    def can_back(self) -> bool:
        return self._index > 0

    @property
    def can_forward(self) -> bool:
        return 0 <= self._index < len(self._places) - 1

    def visit(self, place: PassageRef) -> None:
        """Record ``place`` as where the reader is now (the places ahead of the cursor are dropped)."""
        place = _plain(place)
        if self.current == place:
            return
        del self._places[self._index + 1:]
        self._places.append(place)
        overflow = max(0, len(self._places) - self._limit)
        del self._places[:overflow]
        self._index = len(self._places) - 1
        self.changed.emit(self)

    def back(self) -> PassageRef | None:
        """The place before the current one (the cursor moves there), ``None`` at the oldest."""
        return self._move(-1) if self.can_back else None

    def forward(self) -> PassageRef | None:
        """The place after the current one (the cursor moves there), ``None`` at the newest."""
        return self._move(1) if self.can_forward else None

    def peek(self, delta: int) -> PassageRef | None:
        """The place ``delta`` steps away without moving (for a tooltip), ``None`` past either end."""
        i = self._index + delta
        return self._places[i] if self._places and 0 <= i < len(self._places) else None

    def _move(self, delta: int) -> PassageRef:
        self._index += delta
        self.changed.emit(self)
        return self._places[self._index]


def _plain(place: PassageRef) -> PassageRef:
    """The place without how it was typed ("Jn 3:16" and "John 3:16" are one place)."""
    return PassageRef(place.book_id, place.chapter, place.verse_start, place.verse_end)
