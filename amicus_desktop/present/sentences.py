"""Text cut for one line: its sentences (not broken after "i.e." or an initial), the first of them, and
shortening at a word. No Qt, no I/O.
"""

from __future__ import annotations

import re

_ABBREV = re.compile(
    r"(?:\b(?:i\.e|e\.g|cf|viz|etc|al|pl|sc|lit|ch|vs|cl|seq|mg|ib|id|opp|ff|Mr|Mrs|Dr|St|Mt)\.|\b[A-Za-z]\."
    r"|(?:^|\s)\(?\d{1,2}\.|(?:^|\s)[IVX]{1,4}\.)$"
)
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"”’)]*\s+")


def text_lines(text: str) -> list[str]:
    """The non-empty lines of ``text``, stripped."""
    return [ln.strip() for ln in text.strip().splitlines() if ln.strip()]


def sentences(text: str) -> list[str]:
    """Sentences of ``text`` (one line), not cut after "i.e.", "cf." or an initial ("C. I.")."""
    out: list[str] = []
    for piece in _SENTENCE_END.split(" ".join(text.split())):
        if out and _ABBREV.search(out[-1]):
            out[-1] += " " + piece
        elif piece:
            out.append(piece)
    return out


def shorten(text: str, limit: int) -> str:
    """``text`` on one line, cut at a word boundary to at most ``limit`` characters (with "…")."""
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[: max(1, limit - 1)]
    if " " in cut[limit // 2:]:
        cut = cut[: cut.rfind(" ")]
    return cut.rstrip(" ,;:—-") + "…"


def first_sentence(text: str, limit: int = 60) -> str:
    """The first sentence of ``text``'s first line, shortened to ``limit`` characters."""
    lines = text_lines(text)
    if not lines:
        return ""
    first = sentences(lines[0])
    return shorten(first[0] if first else lines[0], limit)
