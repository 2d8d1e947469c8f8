"""Which part of a longer note a chunk is: written by the builder, read by titles. No Qt, no I/O.

A note too long for one chunk is cut into several (``corpus.chunking.split_text``); each part keeps
the note's place, so without more its parts would all read "Matthew Henry, Concise Commentary —
Romans 7:1-6". The builder therefore ends a part's ``source_id`` with ``#n/N`` (``MHCC:Rom.7.1-6#2/3``:
part 2 of 3); a note in one piece keeps its plain ``source_id``. This is the only place that format
is written down: :func:`with_part` makes it, :func:`part_of` reads it.
"""

from __future__ import annotations

import re

_PART = re.compile(r"#(\d+)/(\d+)$")


def with_part(source_id: str, n: int, total: int) -> str:
    """``source_id`` marked as part ``n`` of ``total`` (unchanged when the note is one part)."""
    if total <= 1:
        return source_id
    if not 1 <= n <= total:
        raise ValueError(f"part {n} of {total}")
    return f"{source_id}#{n}/{total}"


def part_of(source_id: str) -> tuple[int, int] | None:
    """``(n, total)`` for a part's ``source_id`` (``…#2/3`` → ``(2, 3)``); ``None`` for a whole note
    or anything that does not end that way (a database built by someone else)."""
    m = _PART.search(source_id)
    if not m:
        return None
    n, total = int(m.group(1)), int(m.group(2))
    return (n, total) if 1 <= n <= total and total > 1 else None


def describe(part: tuple[int, int]) -> str:
    """``part 2 of 3``."""
    return f"part {part[0]} of {part[1]}"


__all__ = ["describe", "part_of", "with_part"]
