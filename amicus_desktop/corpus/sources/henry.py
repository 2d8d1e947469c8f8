"""Matthew Henry's Concise Commentary: book introductions, chapter outlines and section notes.

The module heads each section note "Verses 1-8" and stores it once, linked over those verses. Inside
a note Henry sometimes names the verse he turns to — "Christ's discourse of gospel truths, ver. 11-13,
shows …" — and where the module lost a heading, that is the only sign of it: John 3's note is linked
over 3:1-8 only, verses 9-21 have no note of their own, and the note runs on through 3:21 (God so
loved the world, 3:16). So a section is **split at Henry's own verse markers** (:func:`split_section`)
and each part carries the verses it is about. Never invented: a marker splits only when it names a
verse after the part before it, inside the section's *reach* (its verses plus any verses after it
that no note covers, up to the next note), not in the section's first sentence, and leaves no
part under :data:`MIN_PART_WORDS` words; every other marker stays plain text (docs/DATA.md gives
the counts and the reasons).

The module writes those markers as ``ver. #(11-13)``; the text keeps them as Henry printed them,
``ver. 11-13``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import groupby

from ...core.books import Book
from ...store.writer import ChunkRecord
from ..chunking import split_text, word_count
from ..library import Library
from ..sword import to_text
from .common import Scope, mark_parts, meta, record

_MH_BOOK = "\x10BOOK\x10"
_MH_CHAPTER = "\x10CHAPTER\x10"
_MH_VERSES = re.compile(r"<hi type=\"bold\">\s*Verses?\s+(\d+)(?:\s*[-–,]\s*(\d+))?\.?\s*</hi>", re.I)
_MH_MARK = re.compile(r"\x10(BOOK|CHAPTER|V (\d+) (\d+))\x10")
#: the module's form of an in-text verse reference: "ver. #(11-13)", "ver.#(4)", "Verses #(22-23)"
_HASH_REF = re.compile(r"#\((\d[\d\s,–-]*)\)")
#: Henry's verse markers as the module writes them once ``#(…)`` is gone (every form found in the
#: whole module: "ver. 18", "ver. 13-14", "ver.4", "verse 32", "Verses 22-23", "Verses 12,13").
MARKER = re.compile(r"\b(?:ver\.|verses?\b)\s*(\d+)(?:\s*[-–,]\s*(\d+))?", re.I)
#: where a sentence may start: after . ! ? (and closing quotes) before a capital, or a new paragraph
_SENTENCE_BREAK = re.compile(r"[.!?][\"”’)]*\s+(?=[\"“‘(]?[A-Z])|\n\s*\n")
#: words whose full stop ends no sentence ("St. Paul", "ch. 1:13", "ver. 9", "i.e. the")
_ABBREVIATIONS = frozenset({"st", "mr", "mrs", "dr", "ch", "ver", "vs", "viz", "cf", "i.e", "e.g", "comp"})
#: a split may not leave a part shorter than this (Acts 25:13's "Agrippa had the government of
#: Galilee." before "ver. 16" would be a six-word chunk)
MIN_PART_WORDS = 15


def _mh_marked(raw: str) -> str:
    raw = re.sub(r"<title type=\"x-ms\">[^<]*</title>", _MH_BOOK, raw)
    raw = re.sub(r"<title type=\"x-s2\">[^<]*</title>", _MH_CHAPTER, raw)
    return _MH_VERSES.sub(
        lambda m: f"\x10V {m.group(1)} {m.group(2) or m.group(1)}\x10", raw
    )


def _outline(text: str) -> str:
    """MHCC's chapter outline: 'Chapter Outline', then topic / '(1-5)' pairs → 'topic (1-5)' lines."""
    lines = [ln.strip() for ln in text.replace("\n\n", "\n").split("\n") if ln.strip()]
    if lines and lines[0].lower().startswith("chapter outline"):
        lines = lines[1:]
    out: list[str] = []
    for ln in lines:
        if re.fullmatch(r"\(\s*[\d\s,–-]+\)", ln) and out:
            out[-1] += " " + ln.replace(" ", "")
        else:
            out.append(ln)
    return "\n".join(out)


# -- splitting a section at Henry's verse markers ----------------------------------------------

@dataclass(frozen=True)
class Part:
    """A stretch of a section note and the verses it is about."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Verdict:
    """What became of one verse marker in a section: ``accepted`` splits it there, else ``reason``."""

    marker: str
    start: int
    end: int
    accepted: bool
    reason: str  # "inside" / "after the section's verses" when accepted; why not otherwise


def _sentence_start(text: str, pos: int) -> int:
    """Where the sentence holding ``text[pos]`` begins (0 in the first sentence)."""
    best = 0
    for m in _SENTENCE_BREAK.finditer(text):
        if m.end() > pos:
            break
        word = re.search(r"([\w.]+)[.!?][\"”’)]*\s*$", text[: m.start() + 1])
        before = word.group(1).lower() if word else ""
        if m.group(0).startswith("\n") or (before not in _ABBREVIATIONS and not re.fullmatch(r"[a-z]", before)):
            best = m.end()
    return best


def split_section(text: str, start: int, end: int, reach: int) -> tuple[list[Part], list[Verdict]]:
    """``text`` (a note on ``start``-``end``) cut where Henry names the verse he turns to.

    ``reach`` ≥ ``end`` is the last verse the note may be about: its own, or the last of the verses
    after it that no note covers. A marker "ver. a-b" splits the note at the start of its sentence
    when ``start`` < a, b ≤ ``reach``, a is after the previous split's verse, the sentence is not
    the note's first (nor the previous split's) and the part it closes has at least
    :data:`MIN_PART_WORDS` words. The part before the first split keeps the section's verses (and
    the uncovered ones up to a-1 when a lies past ``end``); a part from a marker runs to the verse
    before the next split, or to the section's end — or to ``reach`` when the marker already lies
    past ``end``: the module stored those verses' note inside this one.
    """
    verdicts: list[Verdict] = []
    splits: list[tuple[int, int, int]] = []  # (position, first verse, last verse)
    previous = start
    for m in MARKER.finditer(text):
        a = int(m.group(1))
        b = int(m.group(2)) if m.group(2) and int(m.group(2)) > a else a
        label = " ".join(m.group(0).split())
        pos = _sentence_start(text, m.start())
        if a < start or b > reach:
            reason = "outside the section's verses"
        elif a == start:
            reason = "the section's own first verse"
        elif a <= previous:
            reason = "not after the verse of the part before"
        elif pos == 0:
            reason = "in the section's first sentence"
        elif splits and pos == splits[-1][0]:
            reason = "in the same sentence as the split before"
        elif word_count(text[splits[-1][0] if splits else 0: pos]) < MIN_PART_WORDS:
            reason = f"would leave a part under {MIN_PART_WORDS} words"
        else:
            splits.append((pos, a, b))
            previous = a
            verdicts.append(Verdict(label, a, b, True, "inside" if a <= end else "after the section's verses"))
            continue
        verdicts.append(Verdict(label, a, b, False, reason))
    if not splits:
        return [Part(start, end, text.strip())], verdicts
    parts = [Part(start, max(end, splits[0][1] - 1), text[: splits[0][0]].strip())]
    for i, (pos, a, b) in enumerate(splits):
        if i + 1 < len(splits):
            nxt_pos, nxt_a, _ = splits[i + 1]
            parts.append(Part(a, max(b, nxt_a - 1), text[pos:nxt_pos].strip()))
        else:
            last = max(b, end) if a <= end else reach
            parts.append(Part(a, last, text[pos:].strip()))
    return parts, verdicts


# -- the module's entries → segments → chunks ---------------------------------------------------

@dataclass(frozen=True)
class Segment:
    """A stretch of one entry: a book introduction, a chapter outline, or a note on some verses."""

    kind: str  # "book_intro", "outline", "note" or "heading" (text before a later chapter's title)
    start: int
    end: int
    text: str


def entry_segments(raw: str, chapter: int, verse: int, verse_end: int, last: int) -> list[Segment]:
    """An entry cut at the module's book title, chapter title and "Verses 1-5" headings.

    Text before any of them belongs to the entry's own verses — or, in a chapter's heading slot
    (``verse`` 0), to the book's introduction when it is the first chapter (one-chapter books keep
    it there) and to nothing otherwise.
    """
    pieces = _MH_MARK.split(to_text(_HASH_REF.sub(r"\1", _mh_marked(raw))))
    if verse == 0:
        kind, start, end = ("book_intro", 0, 0) if chapter == 1 else ("heading", 0, 0)
    else:
        kind, start, end = "note", verse, verse_end
    current = pieces[0]
    segments: list[Segment] = []
    i = 1
    while i < len(pieces):
        segments.append(Segment(kind, start, end, current))
        tag, a, b = pieces[i], pieces[i + 1], pieces[i + 2]
        current = pieces[i + 3]
        i += 4
        if tag == "BOOK":
            kind, start, end = "book_intro", 0, 0
        elif tag == "CHAPTER":
            kind, start, end = "outline", 1, last
        else:
            kind, start, end = "note", int(a), int(b)
    segments.append(Segment(kind, start, end, current))
    out = []
    for seg in segments:
        body = seg.text.strip()
        if seg.kind == "heading" or not body or word_count(body) < 3:
            continue
        if seg.kind == "note":
            s = max(1, min(seg.start, last))
            seg = Segment("note", s, max(s, min(seg.end, last)), body)
        out.append(Segment(seg.kind, seg.start, seg.end, body))
    return out


def reaches(segments: list[Segment], last: int) -> dict[int, int]:
    """For each note's first verse, the last verse it may be about: its own last verse, or the verse
    before the next note when the verses between have no note (the module lost that heading)."""
    starts = sorted({s.start for s in segments if s.kind == "note"})
    out: dict[int, int] = {}
    for seg in segments:
        if seg.kind != "note":
            continue
        following = [s for s in starts if s > seg.start]
        nxt = following[0] if following else last + 1
        out[seg.start] = max(seg.end, nxt - 1, out.get(seg.start, 0))
    return out


def mhcc_chunks(library: Library, scope: Scope) -> Iterator[ChunkRecord]:
    module = library.verse_module("mhcc")
    v11n = module.v11n
    for book in scope.books:
        book_intro_done = False
        for chapter, entries in groupby(module.entries(book.osis), key=lambda e: e.chapter):
            if chapter == 0:
                continue  # the book's heading slot holds only markup in this module
            last = v11n.verse_count(book.osis, chapter)
            segments = [seg for e in entries for seg in entry_segments(e.raw, chapter, e.verse, e.verse_end, last)]
            reach = reaches(segments, last)
            for seg in segments:
                if seg.kind == "book_intro":
                    if book_intro_done:
                        continue
                    book_intro_done = True
                    yield from mark_parts(
                        record(f"mhcc:{book.book_id}:intro#{n}", "chapter_panel", f"MHCC:{book.osis}", part,
                               meta("matthew-henry", book_id=book.book_id, panel_type="book_intro"))
                        for n, part in enumerate(split_text(seg.text), start=1)
                    )
                elif seg.kind == "outline":
                    yield record(
                        f"mhcc:{book.book_id}:{chapter}:outline", "chapter_panel",
                        f"MHCC:{book.osis}.{chapter}", _outline(seg.text),
                        meta("matthew-henry", book_id=book.book_id, chapter_num=chapter,
                             verse_start=1, verse_end=last, panel_type="outline"),
                    )
                else:
                    parts, _ = split_section(seg.text, seg.start, seg.end, reach[seg.start])
                    for part in parts:
                        yield from _note_chunks(book, chapter, part)


def _note_chunks(book: Book, chapter: int, part: Part) -> list[ChunkRecord]:
    span = f"{part.start}-{part.end}"
    return mark_parts(
        record(f"mhcc:{book.book_id}:{chapter}:{span}#{n}", "section_panel",
               f"MHCC:{book.osis}.{chapter}.{span}", text,
               meta("matthew-henry", book_id=book.book_id, chapter_num=chapter,
                    verse_start=part.start, verse_end=part.end, panel_type="note"))
        for n, text in enumerate(split_text(part.text), start=1)
    )


__all__ = ["MARKER", "Part", "Segment", "Verdict", "entry_segments", "mhcc_chunks", "reaches", "split_section"]
