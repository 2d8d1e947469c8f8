"""How much of a long list the window shows, and how it says what it leaves out. No Qt.

A question may name two dozen passages, a settings file may hold ten thousand pins, and each pinned
chunk the database lacks is a warning: one chip, row or menu item each made a window of 31,365 ×
7,918 pixels, and ten thousand pins kept ``--screenshot`` busy for minutes. The window shows the first
few of each and says how many more there are ("… and 356 more"); everything stays in the bundle,
its export and ``--json``.
"""

from __future__ import annotations

from collections.abc import Sequence

#: reference chips above the results
MAX_CHIPS = 6
#: rows of the warning strip (the last one says how many more there are)
MAX_WARNING_ROWS = 4
#: *Unpin* items in the Pins menu
MAX_PIN_ITEMS = 25
#: names listed in one line of text (*How this was searched*, a tooltip)
MAX_LISTED = 10


def more(n: int, what: str = "") -> str:
    """``"and 356 more"`` (``"and 356 more warnings"`` with ``what``)."""
    return f"and {n:,} more" + (f" {what}" if what else "")


def and_more(items: Sequence[str], limit: int = MAX_LISTED, sep: str = ", ") -> str:
    """The first ``limit`` of ``items`` joined, and how many more there are: ``"a, b, c and 356 more"``."""
    shown = sep.join(items[:limit])
    rest = len(items) - limit
    return f"{shown} {more(rest)}" if rest > 0 else shown
