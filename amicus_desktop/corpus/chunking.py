"""Splitting long notes into retrieval-sized chunks, and small text helpers.

Sizes: a chunk of a long note holds about 120–200 words (never more than ``MAX_WORDS`` unless a
single sentence is longer). The project's local embedding model reads 256 word pieces — roughly
190 English words — so longer chunks would be embedded only in part. A note shorter than
``MAX_WORDS`` stays one chunk, however short.
"""

from __future__ import annotations

import math
import re

TARGET_WORDS = 170
MAX_WORDS = 220
MIN_WORDS = 120

_SENTENCE = re.compile(r"(?:(?<=[.!?;:])|(?<=[.!?][\"”’)]))\s+(?=[\"“‘(]?[A-Z0-9])")


def word_count(text: str) -> int:
    return len(text.split())


def sentences(paragraph: str) -> list[str]:
    parts = [p.strip() for p in _SENTENCE.split(paragraph) if p and p.strip()]
    return parts or [paragraph]


def _units(text: str, limit: int = MAX_WORDS) -> list[tuple[int, str]]:
    """(paragraph number, text) units: paragraphs, with paragraphs longer than ``limit`` words cut
    at sentence ends (the pieces keep their paragraph number, so they rejoin with a space)."""
    units: list[tuple[int, str]] = []
    for p, para in enumerate(re.split(r"\n\s*\n", text)):
        para = " ".join(para.split())
        if not para:
            continue
        if word_count(para) <= limit:
            units.append((p, para))
            continue
        for sent in sentences(para):
            words = sent.split()
            while len(words) > limit * 1.5:  # a single over-long "sentence" is cut at words
                units.append((p, " ".join(words[:limit])))
                words = words[limit:]
            units.append((p, " ".join(words)))
    return units


def _join(units: list[tuple[int, str]]) -> str:
    out = ""
    last = None
    for p, text in units:
        if out:
            out += " " if p == last else "\n\n"
        out += text
        last = p
    return out


def split_text(text: str, *, target: int = TARGET_WORDS, maximum: int = MAX_WORDS) -> list[str]:
    """``text`` as one or more chunks of balanced size (paragraphs kept whole where they fit).

    Within a chunk, paragraphs are separated by blank lines. A ``maximum`` below ``MAX_WORDS`` also
    cuts paragraphs longer than it at sentence ends (a larger one cuts them at ``MAX_WORDS``).
    """
    units = _units(text, min(maximum, MAX_WORDS))
    if not units:
        return []
    total = sum(word_count(u) for _, u in units)
    if total <= maximum:
        return [_join(units)]
    n = max(2, math.ceil(total / target))
    goal = total / n
    chunks: list[list[tuple[int, str]]] = [[]]
    size = 0
    for unit in units:
        w = word_count(unit[1])
        # close the chunk when adding would overshoot the balanced goal by more than half the unit
        if chunks[-1] and (size + w / 2 > goal or size + w > maximum):
            chunks.append([])
            size = 0
        chunks[-1].append(unit)
        size += w
    # a short tail joins its predecessor when the two still fit
    if len(chunks) > 1:
        tail = sum(word_count(u) for _, u in chunks[-1])
        prev = sum(word_count(u) for _, u in chunks[-2])
        if tail < MIN_WORDS // 2 and tail + prev <= maximum + MIN_WORDS // 2:
            chunks[-2].extend(chunks.pop())
    return [_join(c) for c in chunks if c]


def first_words(text: str, n: int) -> str:
    """The first ``n`` words of ``text``, ending at a sentence end when one is near, else with '…'."""
    words = " ".join(text.split()).split()
    if len(words) <= n:
        return " ".join(words)
    cut = " ".join(words[:n])
    end = max(cut.rfind(". "), cut.rfind("; "), cut.rfind("? "), cut.rfind("! "))
    if end > len(cut) * 0.5:
        return cut[: end + 1]
    return cut.rstrip(",;:") + " …"


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
