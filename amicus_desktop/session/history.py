"""The questions asked in this session, for walking back to an earlier one. No Qt, nothing saved.

Kept in memory only (the app never writes question text anywhere, logs included). A question asked
again moves to the end instead of appearing twice. :meth:`History.older` and :meth:`History.newer`
walk the list like a shell's history: starting past the newest entry (or at it, when the box already
shows it), remembering the draft that was in the box when the walk began so that walking forward
past the newest gives it back.
"""

from __future__ import annotations

#: How many questions a session keeps.
LIMIT = 100


class History:
    """Questions in the order they were last asked (oldest first), and a cursor for walking them."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._items: list[str] = []
        self._limit = limit
        self._cursor: int | None = None  # None: not walking (past the newest)
        self._draft = ""

    @property
    def items(self) -> tuple[str, ...]:
        return tuple(self._items)

    def add(self, text: str) -> None:
        """Record ``text`` as the newest question and end any walk."""
        text = text.strip()
        self._cursor = None
        if not text:
            return
        if text in self._items:
            self._items.remove(text)
        self._items.append(text)
        del self._items[: max(0, len(self._items) - self._limit)]

    def older(self, current: str) -> str | None:
        """The question before the one shown (``current`` is the box's text, kept as the draft when a
        walk begins); ``None`` when there is nothing older."""
        if not self._items:
            return None
        if self._cursor is None:
            self._draft = current
            self._cursor = len(self._items)
            if self._items[-1] == current.strip():  # the box shows the newest already: step past it
                self._cursor -= 1
        if self._cursor == 0:
            return None
        self._cursor -= 1
        return self._items[self._cursor]

    def newer(self) -> str | None:
        """The question after the one shown; past the newest, the draft; ``None`` when not walking."""
        if self._cursor is None:
            return None
        self._cursor += 1
        if self._cursor >= len(self._items):
            self._cursor = None
            return self._draft
        return self._items[self._cursor]
