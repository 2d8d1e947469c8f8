"""Reading a dictionary entry the way this project's builder and other lexicons write it: its Strong's
number, its headword, the body of a Strong's entry without the derivation, and a short gloss. No Qt, no I/O.
"""

from __future__ import annotations

import re

from .sentences import sentences, shorten, text_lines

_NUMBER = re.compile(r"\b([GH]\d+[a-z]?)\b")
_GLOSSES = re.compile(r"\bGlosses:\s*(?P<glosses>[^\n]+?)\.?(?:\n|$)")
_STRONGS_HEAD = re.compile(r"—\s*Strong's\s+(?:Greek|Hebrew)\s+[GH]\d+\w*\.\s*")
_DERIVATION = re.compile(
    r"^(from|of|a primitive|corresponding|probably|perhaps|the same|apparently|by|an? (?:prolonged|"
    r"primary|orthographical)|comparative|superlative|contracted|\(?properly)\b",
    re.IGNORECASE,
)
_KJV = re.compile(r"\bKJV renders it:\s*(?P<kjv>[^\n]+?)\.?$")
_PAREN = re.compile(r"\s*\([^()]*\)")


def strongs_number(source_id: str, text: str) -> str:
    """``G2182``, from the id or the opening of the text; empty when neither has one."""
    m = _NUMBER.search(source_id) or _NUMBER.search(text[:200])
    return m.group(1) if m else ""


def headword(first_line: str) -> str:
    """The headword at the start of a lexicon entry: up to " (" or " —" or ","."""
    m = re.match(r"^(.+?)(?:\s+\(|\s+—|,)", first_line)
    word = m.group(1).strip() if m else ""
    return word if len(word) <= 40 else ""


def short_gloss(definition: str, words: int = 8) -> str:
    """A short gloss from a dictionary definition: "an inventor, i.e. contriver" → "inventor"."""
    text = _PAREN.sub("", definition).strip()
    text = re.split(r";|:|,\s*i\.e\.|,\s*e\.g\.|\s—\s|\.\s", text, maxsplit=1)[0]
    text = re.sub(r"^(?:an?|the)\s+", "", text.strip(" .,;"), flags=re.IGNORECASE)
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def strongs_body(text: str) -> list[str]:
    """The sentences of a Strong's entry after its head, without the derivation (a sentence that
    starts like one, "from G2147.", or cites another number, "a diminutive of G5597.")."""
    m = _STRONGS_HEAD.search(text)
    if not m:
        return []
    rest = sentences(text[m.end():])
    while len(rest) > 1 and (_DERIVATION.match(rest[0]) or _NUMBER.search(rest[0])):
        rest = rest[1:]
    return rest


def lexicon_gloss(text: str) -> str:
    m = _GLOSSES.search(text)
    if m:
        glosses = [g.strip() for g in m.group("glosses").split(";") if g.strip()]
        return shorten("; ".join(glosses[:2]), 60)
    body = strongs_body(text)
    if body and not body[0].startswith("KJV renders"):
        return short_gloss(body[0])
    kjv = _KJV.search(text)
    if kjv:
        return short_gloss(kjv.group("kjv"))
    # another lexicon's "headword (…) — definition. …"
    lines = text_lines(text)
    after = re.search(r"\s—\s(.+)", lines[0]) if lines else None
    first = sentences(after.group(1)) if after else []
    return short_gloss(first[0]) if first else ""
