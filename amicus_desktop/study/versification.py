"""Where the library's WEB and KJV number the text differently, and how the parallel view keeps them in step.

Both SWORD modules the builder reads are in the KJV's versification, so every chapter of the two has the
same verse numbers — except where the WEB's text is not the KJV's. Measured on the whole-Bible library
(verse numbers per chapter of ``verses`` against ``verses_kjv``, every chapter of the 66 books):

* **Verses the WEB omits** (its text follows manuscripts without them; the module has no such verse):
  Luke 17:36, Acts 8:37, Acts 15:34, Acts 24:7 — and Romans 16:25–27, which is not omitted but *moved*:
* **Romans 16:25–27, the doxology**, stands in the WEB after Romans 14:23, as the Majority Text places it;
  the module, which has no Romans 14:24–26, holds it at the end of its 14:23 ("Now to him who is able to
  establish you…"). Aligned by number, the WEB's 14:23 would sit beside the KJV's shorter 14:23 with the
  doxology in it, and the KJV's 16:25–27 beside nothing.

:func:`aligned_rows` aligns two translations' chapter by verse number and then by :data:`MOVED`: the moved
words get a row of their own, beside a line saying where the other translation has them, and the verses
the moved words are missing from say where they are instead of "not in the WEB". 3 John 1:14–15, Malachi
4 and Joel 2–3, the Psalms' titles: the two modules agree there (both versified as the KJV), so they
align by number. No Qt, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..core.references import ChapterRef, PassageRef


@dataclass(frozen=True)
class Moved:
    """Words ``translation`` has at the end of verse ``at`` (from ``opening`` on) that the other
    translations of the library have at ``to``."""

    translation: str
    at: PassageRef
    opening: str
    to: PassageRef


MOVED: tuple[Moved, ...] = (
    Moved("WEB", PassageRef("romans", 14, 23, 23), "Now to him who is able to establish you",
          PassageRef("romans", 16, 25, 27)),
)


@dataclass(frozen=True)
class Row:
    """One row of the parallel view: ``verse``'s text on each side (``None``: that side has none here) and,
    where a side has none, what to say instead (``None``: "not in the …"). ``moved``: the row holds words
    one side moved (the verse's own row comes before it)."""

    verse: int
    left: str | None
    right: str | None
    left_note: str | None = None
    right_note: str | None = None
    moved: bool = False


def aligned_rows(ref: ChapterRef | None, left: Sequence[tuple[int, str]], left_translation: str,
                 right: Sequence[tuple[int, str]], right_translation: str) -> list[Row]:
    """The chapter ``ref`` in two translations, a row per verse number either holds, in order, with the
    words :data:`MOVED` says one of them has elsewhere on rows of their own (see the module docstring)."""
    lmap, rmap = dict(left), dict(right)
    rows = [Row(n, lmap.get(n), rmap.get(n)) for n in sorted(lmap.keys() | rmap.keys())]
    if ref is None:
        return rows
    sides = {left_translation.upper(): "left", right_translation.upper(): "right"}
    for move in MOVED:
        side = sides.get(move.translation.upper())
        if side is None or left_translation.upper() == right_translation.upper():
            continue
        other = right_translation if side == "left" else left_translation
        if move.at.chapter_ref == ref:
            rows = _split(rows, move, side, other)
        if move.to.chapter_ref == ref:
            rows = [_elsewhere(r, move, side) for r in rows]
    return rows


def _split(rows: list[Row], move: Moved, side: str, other: str) -> list[Row]:
    out: list[Row] = []
    for row in rows:
        text = row.left if side == "left" else row.right
        at = text.find(move.opening) if row.verse == move.at.verse_start and text else -1
        if text is None or at <= 0:
            out.append(row)
            continue
        head, tail = text[:at].rstrip(), text[at:]
        said = f"({other} at {move.to.label()})"
        if side == "left":
            out += [Row(row.verse, head, row.right, row.left_note, row.right_note),
                    Row(row.verse, tail, None, right_note=said, moved=True)]
        else:
            out += [Row(row.verse, row.left, head, row.left_note, row.right_note),
                    Row(row.verse, None, tail, left_note=said, moved=True)]
    return out


def _elsewhere(row: Row, move: Moved, side: str) -> Row:
    start, end = move.to.verse_start or 0, move.to.verse_end or move.to.verse_start or 0
    if not start <= row.verse <= end:
        return row
    said = f"(in the {move.translation} at the end of {move.at.label()})"
    if side == "left" and row.left is None:
        return Row(row.verse, None, row.right, said, row.right_note)
    if side == "right" and row.right is None:
        return Row(row.verse, row.left, None, row.left_note, said)
    return row

