"""Mapping another tool's rating scale to the golden set's grades 0–3, always explicitly.

Quepid cases are rated on 0–1, 0–3, 1–4 or 1–10; TREC qrels and ``_rank_eval`` take any integers. A rating
is never guessed into a grade: a file is read with a scale that names every rating it holds (a rating the
scale does not name is an error naming its line), and a set is written with a scale that names a rating for
every grade 0–3.

Named scales::

    0-3   0→0 1→1 2→2 3→3 both ways (Quepid's "graded" scale, the golden set's own)
    0-1   in: 0→0 1→2 ("relevant");  out: 0,1→0  2,3→1 (relevant means grade 2 or more, as MRR reads it)
    1-4   in: 1→0 2→1 3→2 4→3;       out: the reverse

or pairs, ``THEIRS=OURS`` when reading (``"0=0,1=1,2=1,3=2,4=3"``) and ``OURS=THEIRS`` when writing
(``"0=0,1=0,2=1,3=1"``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from ...core.text import echo
from ..golden import GRADES


class ScaleError(ValueError):
    """A scale that cannot be used, or a rating a scale does not name; the message says which."""


@dataclass(frozen=True)
class Scale:
    """``to_grade``: their rating → our grade (reading); ``from_grade``: our grade → their rating (writing)."""

    name: str
    to_grade: Mapping[float, int]
    from_grade: Mapping[int, float]

    def grade(self, rating: float, where: str) -> int:
        if rating not in self.to_grade:
            named = ", ".join(number(r) for r in sorted(self.to_grade))
            raise ScaleError(f"{where}: rating {number(rating)} is not on the scale {self.name} ({named}); "
                             "say how to read it with a scale of THEIRS=OURS pairs")
        return self.to_grade[rating]

    def rating(self, grade: int) -> float:
        if grade not in self.from_grade:
            raise ScaleError(f"grade {grade} has no rating on the scale {self.name}; give one with OURS=THEIRS pairs")
        return self.from_grade[grade]


def number(value: float) -> str:
    """A rating as written: ``3``, ``1.5``."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _same(pairs: dict[float, int]) -> dict[int, float]:
    return {g: r for r, g in pairs.items()}


NAMED: dict[str, Scale] = {
    "0-3": Scale("0-3", {0.0: 0, 1.0: 1, 2.0: 2, 3.0: 3}, {0: 0.0, 1: 1.0, 2: 2.0, 3: 3.0}),
    "0-1": Scale("0-1", {0.0: 0, 1.0: 2}, {0: 0.0, 1: 0.0, 2: 1.0, 3: 1.0}),
    "1-4": Scale("1-4", {1.0: 0, 2.0: 1, 3.0: 2, 4.0: 3}, _same({1.0: 0, 2.0: 1, 3.0: 2, 4.0: 3})),
}


def parse_rating(text: str, where: str) -> float:
    """A rating as a file writes it (``"3"``, ``"2.0"``, ``"1.5"``); :class:`ScaleError` for anything else."""
    try:
        value = float(text.strip())
    except ValueError:
        raise ScaleError(f"{where}: the rating '{echo(text, 20)}' is not a number") from None
    if not math.isfinite(value):
        raise ScaleError(f"{where}: the rating '{echo(text, 20)}' is not a number")
    return value


def scale(spec: str, *, reading: bool) -> Scale:
    """A named scale, or pairs: ``THEIRS=OURS`` when ``reading``, ``OURS=THEIRS`` when writing."""
    spec = spec.strip()
    if spec in NAMED:
        return NAMED[spec]
    pairs: list[tuple[float, float]] = []
    for part in filter(None, (p.strip() for p in spec.split(","))):
        left, sep, right = part.partition("=")
        if not sep:
            raise ScaleError(f"scale: '{echo(part, 20)}' is not a pair like 3=2 (or one of {', '.join(NAMED)})")
        pairs.append((parse_rating(left, "scale"), parse_rating(right, "scale")))
    if not pairs:
        raise ScaleError(f"scale: give one of {', '.join(NAMED)} or pairs like 0=0,1=1,2=2,3=3")
    grades = [ours for _theirs, ours in pairs] if reading else [ours for ours, _theirs in pairs]
    bad = [g for g in grades if not float(g).is_integer() or int(g) not in GRADES]
    if bad:
        raise ScaleError(f"scale: {number(bad[0])} is not a grade (0, 1, 2 or 3)")
    if reading:
        to_grade = {theirs: int(ours) for theirs, ours in pairs}
        return Scale(spec, to_grade, {})
    from_grade = {int(ours): theirs for ours, theirs in pairs}
    missing = [g for g in GRADES if g not in from_grade]
    if missing:
        raise ScaleError(f"scale: grade {missing[0]} has no rating; name one for each of 0, 1, 2 and 3")
    return Scale(spec, {}, from_grade)
