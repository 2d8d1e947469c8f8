"""Numbers in words, the same everywhere: an ordinal, a multiplier, a score, the name of a mode's base score. No Qt."""

from __future__ import annotations

from ..core.query import SearchMode


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def fmt_boost(value: float) -> str:
    return f"×{value:g}"


def fmt_score(value: float | None) -> str:
    """``0.5123``; ``—`` for a score that was not computed (a similarity in keyword mode)."""
    return "—" if value is None else f"{value:.4f}"


#: What the ``base`` score is in each mode, in a word (table headers, tooltips).
BASE_NAMES = {SearchMode.SEMANTIC: "similarity", SearchMode.HYBRID: "hybrid base", SearchMode.KEYWORD: "keyword score"}
