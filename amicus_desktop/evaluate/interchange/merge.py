"""Bringing ratings read from another tool into a golden set, under a judge's name.

Each rating is read with an explicit scale (:mod:`.scales`) and recorded as the judge's own grade, with the
time of the import (``judges``: :mod:`amicus_desktop.evaluate.judges`). A question is matched by id when the
file gives one the set holds, else by its text (case and spacing ignored, as the workbench matches the
question on screen); a question the set does not hold is added, in the file's order. The *set's* grade
(``judgments``, what ``eval`` scores) is taken from the file where the set has none; where it has one, it is
kept unless ``replace`` — so a second judge's file adds their ratings for an agreement, and changes nothing
``eval`` measures until a curator settles the differences.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ..golden import GoldenQuery, GoldenSet
from ..judges import Rating
from .formats import InterchangeError, Rated
from .scales import Scale


@dataclass(frozen=True)
class MergeSummary:
    """What an import did."""

    ratings: int
    questions_added: int
    grades_added: int
    grades_replaced: int
    #: chunks whose set grade was kept though the file rates them differently
    grades_differing: int

    def sentence(self) -> str:
        parts = [f"{self.ratings} ratings read", f"{self.questions_added} questions added",
                 f"{self.grades_added} grades added"]
        if self.grades_replaced:
            parts.append(f"{self.grades_replaced} grades replaced")
        if self.grades_differing:
            parts.append(f"{self.grades_differing} differ from the set's grade, which was kept "
                         "(see Judges for the agreement)")
        return ", ".join(parts) + "."

    def to_json(self) -> dict[str, Any]:
        return {"ratings": self.ratings, "questions_added": self.questions_added, "grades_added": self.grades_added,
                "grades_replaced": self.grades_replaced, "grades_differing": self.grades_differing}


def key(text: str) -> str:
    """How a question's text is matched: case and spacing ignored."""
    return " ".join(text.split()).casefold()


def _new_id(taken: set[str], wanted: str | None) -> str:
    if wanted and wanted not in taken:
        return wanted
    n = len(taken) + 1
    while f"q{n}" in taken:
        n += 1
    return f"q{n}"


def merge(golden: GoldenSet, rated: list[Rated], scale: Scale, judge: str | None, at: str, *,
          replace_grades: bool = False, topics: dict[str, str] | None = None) -> tuple[GoldenSet, MergeSummary]:
    """``golden`` with ``rated`` recorded as ``judge``'s ratings at ``at`` (a rating whose line names its judge
    is that judge's); :class:`InterchangeError` (naming the line) for a rating off the scale, one whose judge
    nobody named, or a question given by an id alone that neither the set nor ``topics`` holds."""
    by_id = {q.id: q for q in golden.queries}
    order = [q.id for q in golden.queries]
    by_text = {key(q.query): q.id for q in golden.queries}
    added = set_added = replaced = differing = 0
    for item in rated:
        try:
            grade = scale.grade(item.rating, item.where)
        except ValueError as exc:
            raise InterchangeError(str(exc)) from None
        by = item.judge or (judge.strip() if judge else "")
        if not by:
            raise InterchangeError(f"{item.where}: the file does not say whose rating this is: name the judge")
        qid = item.query_id if item.query_id in by_id else None
        text = item.query or (topics or {}).get(item.query_id or "")
        if qid is None and text is not None:
            qid = by_text.get(key(text))
        if qid is None:
            if text is None:
                raise InterchangeError(f"{item.where}: question '{item.query_id}' is not in the set and the file "
                                       "does not give its text (give a topics file)")
            qid = _new_id(set(by_id), item.query_id)
            by_id[qid] = GoldenQuery(qid, text, {})
            order.append(qid)
            by_text[key(text)] = qid
            added += 1
        q = by_id[qid].rate(item.chunk_id, Rating(by, grade, at))
        current = q.judgments.get(item.chunk_id)
        if current is None or (replace_grades and current != grade):
            set_added += current is None
            replaced += current is not None
            q = replace(q, judgments={**q.judgments, item.chunk_id: grade})
        elif current != grade:
            differing += 1
        by_id[qid] = q
    merged = replace(golden, queries=tuple(by_id[i] for i in order))
    return merged, MergeSummary(len(rated), added, set_added, replaced, differing)
