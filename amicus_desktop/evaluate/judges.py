"""Who judged what, and when: the ``judges`` key of a golden question (CONTRACT section 8).

A question's ``judgments`` hold the *set's* grade of each chunk — what ``eval`` scores. Beside them,
``judges`` records each judge's own grade and when it was given, several judges per chunk::

    "judges": {"<chunk_id>": [{"by": "ana", "grade": 3, "at": "2026-11-27T10:02:11Z"},
                              {"by": "ben", "grade": 2, "at": "2026-11-28T09:40:00Z"}]}

One entry per judge per chunk (a judge who grades again replaces their entry). ``at`` is UTC, ISO 8601,
and may be absent for a rating whose time is unknown. A file without ``judges`` is a set whose judges
were not recorded; agreement (:mod:`amicus_desktop.evaluate.agreement`) needs two judges or more.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..core.text import echo

KEY = "judges"


@dataclass(frozen=True)
class Rating:
    """One judge's grade of one chunk for one question."""

    by: str
    grade: int
    at: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"by": self.by, "grade": self.grade}
        if self.at:
            out["at"] = self.at
        return out


def now() -> str:
    """The current time as a rating records it: ``2026-11-27T10:02:11Z``."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


Ratings = dict[str, tuple[Rating, ...]]


def with_rating(ratings: Mapping[str, tuple[Rating, ...]], chunk_id: str, rating: Rating | None,
                by: str) -> Ratings:
    """``ratings`` with judge ``by``'s entry for ``chunk_id`` replaced by ``rating`` (``None`` removes it)."""
    out = dict(ratings)
    kept = tuple(r for r in out.get(chunk_id, ()) if r.by != by)
    if rating is not None:
        kept = (*kept, rating)
    if kept:
        out[chunk_id] = kept
    else:
        out.pop(chunk_id, None)
    return out


def parse(value: Any, where: str, grade: Any) -> Ratings:
    """The ``judges`` object of a question; ``grade(value, where)`` checks a grade (raising the golden
    set's error). ``ValueError`` naming the key that is wrong."""
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected an object of chunk id → list of ratings")
    out: Ratings = {}
    for chunk_id, entries in value.items():
        here = f"{where}['{echo(chunk_id, 60)}']"
        if not isinstance(entries, list):
            raise ValueError(f"{here}: expected a list of ratings")
        seen: set[str] = set()
        ratings = []
        for i, entry in enumerate(entries):
            at_i = f"{here}[{i}]"
            if not isinstance(entry, dict):
                raise ValueError(f"{at_i}: expected an object with 'by' and 'grade'")
            by, at = entry.get("by"), entry.get("at", "")
            if not isinstance(by, str) or not by.strip():
                raise ValueError(f"{at_i}.by: expected the judge's name")
            if by in seen:
                raise ValueError(f"{at_i}.by: '{echo(by, 40)}' rates this chunk twice")
            seen.add(by)
            if not isinstance(at, str):
                raise ValueError(f"{at_i}.at: expected a time as text (2026-11-27T10:02:11Z)")
            ratings.append(Rating(by, grade(entry.get("grade"), f"{at_i}.grade"), at))
        if ratings:
            out[str(chunk_id)] = tuple(ratings)
    return out


def to_json(ratings: Mapping[str, tuple[Rating, ...]]) -> dict[str, list[dict[str, Any]]]:
    return {cid: [r.to_json() for r in rs] for cid, rs in ratings.items()}
