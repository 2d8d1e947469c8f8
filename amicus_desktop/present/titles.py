"""One-line titles, snippets and citation lines for chunks. No Qt, no I/O.

A result row has to say what it is at a glance: ``δικαιόω (dikaióō, G1344) — word study in Romans``,
``Strong's G2182 ἐφευρετής — discoverer``, ``Matthew Henry, Concise Commentary — Romans 9:6-13``,
``Nave's Topical Bible — Demons, in John``. The chunk text alone does not always say it (notes
rarely name their passage, lexicon entries start with a pronunciation), and ids are for machines.

Everything here works from what any scripture.db holds — ``source_type``, ``source_id``, ``text``
and ``chunk_metadata`` — plus two lookups (:class:`~amicus_desktop.core.names.Names`): book names
and scholars. It reads the shapes this project's builder writes (docs/DATA.md) where it can and falls
back to a generic form (the kind of chunk, who wrote it, the passage, or the opening words) for
anything else, so a chunk from another builder's database still gets a sensible line.

- :func:`title` — what the row is; one part of a note cut into several says which
  (``Matthew Henry, Concise Commentary — John 3:11-21 (part 2 of 6)``, read from the ``source_id``
  by :mod:`amicus_desktop.core.parts`), so no two parts of one note share a title.
- :func:`snippet` — its first meaningful sentence(s), without the header the title came from.
- :func:`citation` — the line that opens a chunk in assembled context: kind, scholar (display
  name) and work, reference; the reader's own note is "Your note on Romans 9:11".
"""

from __future__ import annotations

import re
from typing import Protocol

from ..core import parts
from ..core.names import DEFAULT_NAMES, Names
from ..core.query import USER_NOTE, SourceType
from ..core.results import ChunkMetadata
from .lexicon import headword, lexicon_gloss, strongs_body, strongs_number
from .sentences import first_sentence, sentences, shorten, text_lines

SOURCE_LABELS: dict[str, str] = {
    SourceType.SECTION_PANEL: "Section note",
    SourceType.CHAPTER_PANEL: "Chapter note",
    SourceType.WORD_STUDY: "Word study",
    SourceType.LEXICON_ENTRY: "Lexicon entry",
    SourceType.DEBATE_TOPIC: "Debate topic",
    SourceType.CROSS_REF_THREAD_NOTE: "Cross-reference",
    SourceType.JOURNEY_STOP: "Journey stop",
    SourceType.META_FAQ: "Help",
    USER_NOTE: "Your note",
}

#: How a chapter panel's ``panel_type`` reads before its reference ("outline of Romans 9").
PANEL_WORDS: dict[str, str] = {
    "book_intro": "introduction to",
    "outline": "outline of",
    "intro": "overview of",
    "title": "the title of",
}

SNIPPET_CHARS = 160
_HEAD_CHARS = 90  # a first line longer than this is text, not a header

_WORD_STUDY = re.compile(
    r"^Word study:\s*(?P<name>.+?),\s*Strong's\s+(?:Greek|Hebrew)\s+(?P<num>[GH]\d+\w*),\s*in\s+(?P<book>[^.]+)\.?$"
)
_CHAIN = re.compile(r"^Scofield reference chain:\s*(?P<topic>.+?)\s+—\s+the fuller note is at\s+(?P<target>[^.]+)\.?$")
_QUOTED_BY = re.compile(r"^Quoted by\s+(?P<by>.+?)\s*\(")


class ChunkLike(Protocol):
    """What a chunk needs for a title: a ``Candidate``, a ranked ``RetrievedChunk``, a
    ``ChunkRecord`` or any look-alike."""

    @property
    def source_type(self) -> str: ...

    @property
    def source_id(self) -> str: ...

    @property
    def text(self) -> str: ...

    @property
    def metadata(self) -> ChunkMetadata: ...


def source_label(source_type: str) -> str:
    """``Section note``, ``Lexicon entry``…; an unknown type reads as its words."""
    return SOURCE_LABELS.get(source_type, source_type.replace("_", " ").strip().capitalize() or "Chunk")


def _join(lead: str, rest: str) -> str:
    """``lead — rest``, or ``lead`` alone when there is nothing to add."""
    return f"{lead} — {rest}" if rest else lead


def _is_header(line: str) -> bool:
    return len(line) <= _HEAD_CHARS and " — " in line


# -- who and what ------------------------------------------------------------------------------

def author_work(meta: ChunkMetadata, names: Names = DEFAULT_NAMES, *, full: bool = False) -> str:
    """``Matthew Henry, Concise Commentary``; ``Nave's Topical Bible`` (the work names its author,
    so the name is left out unless ``full``); just the name without a known work; empty without a
    scholar."""
    if not meta.scholar_id:
        return ""
    s = names.scholar(meta.scholar_id)
    if not s.work:
        return s.name
    if s.work_names_author() and not full:
        return s.work
    return f"{s.name}, {s.work}"


def _lexicon_label(meta: ChunkMetadata, names: Names) -> str:
    """``Strong's`` (work titled "Strong's …"), ``Abbott-Smith`` (surname), else ``Lexicon``."""
    if not meta.scholar_id:
        return "Lexicon"
    s = names.scholar(meta.scholar_id)
    if s.surname and s.work and f"{s.surname}'s".lower() in s.work.lower():
        return f"{s.surname}'s"
    return s.surname or s.name


def _title_lexicon(chunk: ChunkLike, names: Names) -> str:
    lines = text_lines(chunk.text)
    first = lines[0] if lines else ""
    number, lemma = strongs_number(chunk.source_id, chunk.text), headword(first)
    label = _lexicon_label(chunk.metadata, names)
    if not (number or lemma):
        return _join(label, first_sentence(chunk.text))
    head = " ".join(p for p in (label, number, lemma) if p)
    if first.rstrip(".").endswith(", continued"):
        return f"{head} — continued"
    gloss = lexicon_gloss(chunk.text)
    return f"{head} — {gloss}" if gloss else head


def _title_word_study(chunk: ChunkLike, names: Names) -> str:
    lines = text_lines(chunk.text)
    m = _WORD_STUDY.match(lines[0]) if lines else None
    meta = chunk.metadata
    book = names.book(meta.book_id) if meta.book_id else (m.group("book") if m else "")
    where = f" in {book}" if book else ""
    if not m:
        return _join("Word study", names.reference(meta) or first_sentence(chunk.text))
    name, number = m.group("name").strip(), m.group("num")
    inner = re.fullmatch(r"(?P<lemma>.+?)\s*\((?P<tr>[^()]+)\)", name)
    word = f"{inner.group('lemma')} ({inner.group('tr')}, {number})" if inner else f"{name} ({number})"
    return f"{word} — word study{where}"


def _title_commentary(chunk: ChunkLike, names: Names) -> str:
    meta = chunk.metadata
    ref = names.reference(meta)
    who = author_work(meta, names) or source_label(chunk.source_type)
    if meta.panel_type == "quotation":
        name = names.scholar(meta.scholar_id).name if meta.scholar_id else "A quotation"
        m = _QUOTED_BY.match(chunk.text)
        who = f"{name}, quoted by {m.group('by').strip()}" if m else f"{name}, quoted"
    words = PANEL_WORDS.get(meta.panel_type or "") if chunk.source_type == SourceType.CHAPTER_PANEL else None
    if words and meta.book_id:
        # a panel about a whole chapter or book: "outline of Romans 9", not "Romans 9:1-33"
        whole = ChunkMetadata(book_id=meta.book_id, chapter_num=meta.chapter_num)
        return f"{who} — {words} {names.reference(whole)}"
    return _join(who, ref or first_sentence(chunk.text))


def _title_thread(chunk: ChunkLike, names: Names) -> str:
    lines = text_lines(chunk.text)
    first = lines[0] if lines else ""
    meta = chunk.metadata
    m = _CHAIN.match(first)
    if m:
        where = f", in {names.book(meta.book_id)}" if meta.book_id else ""
        return f"Scofield reference chain — {m.group('topic')} ({m.group('target')}){where}"
    if _is_header(first):
        return first.rstrip(".")
    who = author_work(meta, names) or source_label(chunk.source_type)
    return _join(who, names.reference(meta) or first_sentence(chunk.text))


def _generic(chunk: ChunkLike, names: Names) -> str:
    meta = chunk.metadata
    lead = author_work(meta, names) or source_label(chunk.source_type)
    return _join(lead, names.reference(meta) or first_sentence(chunk.text))


def _with_part(line: str, chunk: ChunkLike) -> str:
    """``line`` with "(part 2 of 3)" when the chunk is one part of a longer note."""
    part = parts.part_of(chunk.source_id)
    return f"{line} ({parts.describe(part)})" if part else line


def title(chunk: ChunkLike, names: Names = DEFAULT_NAMES) -> str:
    """One line saying what the chunk is (see the module docstring for examples)."""
    return _with_part(_title(chunk, names), chunk)


def _title(chunk: ChunkLike, names: Names) -> str:
    kind = chunk.source_type
    if kind == SourceType.LEXICON_ENTRY:
        return _title_lexicon(chunk, names)
    if kind == SourceType.WORD_STUDY:
        return _title_word_study(chunk, names)
    if kind in (SourceType.SECTION_PANEL, SourceType.CHAPTER_PANEL):
        return _title_commentary(chunk, names)
    if kind == SourceType.CROSS_REF_THREAD_NOTE:
        return _title_thread(chunk, names)
    if kind == SourceType.META_FAQ:
        lines = text_lines(chunk.text)
        return f"Help — {shorten(lines[0], _HEAD_CHARS)}" if lines else "Help"
    return _generic(chunk, names)


# -- snippets --------------------------------------------------------------------------------------

def _snippet_sentences(chunk: ChunkLike) -> list[str]:
    """The chunk's sentences (a line break ends one) without the header its title is made from."""
    lines = text_lines(chunk.text)
    if not lines:
        return []
    kind, meta = chunk.source_type, chunk.metadata
    if kind == SourceType.LEXICON_ENTRY:
        body = strongs_body(chunk.text)
        if body:
            return body
        first = sentences(lines[0])
        if first and " — " in first[0]:
            return [*first[1:], *(x for ln in lines[1:] for x in sentences(ln))]
    elif kind == SourceType.SECTION_PANEL and meta.panel_type == "quotation":
        quote = chunk.text.find("“")
        lines = text_lines(chunk.text[quote:]) if quote >= 0 else lines
    elif len(lines) > 1 and (
        kind == SourceType.META_FAQ
        or (kind == SourceType.WORD_STUDY and _WORD_STUDY.match(lines[0]))
        or (kind == SourceType.CROSS_REF_THREAD_NOTE and (_CHAIN.match(lines[0]) or _is_header(lines[0])))
    ):
        lines = lines[1:]
    return [x for ln in lines for x in sentences(ln)]


def snippet(chunk: ChunkLike, limit: int = SNIPPET_CHARS) -> str:
    """The first meaningful sentence(s) of the chunk on one line, at most ``limit`` characters:
    sentences are added while they fit, the first is cut at a word if it alone is too long."""
    parts = _snippet_sentences(chunk)
    if not parts:
        return ""
    out = parts[0]
    for part in parts[1:]:
        if len(out) + 2 + len(part) > limit:
            break
        # a line without its own full stop ("Meaning (Strong): a garden") still ends a sentence
        out += (" " if out[-1] in ".!?…:;\"”’)" else ". ") + part
    return shorten(out, limit)


# -- citations -------------------------------------------------------------------------------------

def citation(chunk: ChunkLike, names: Names = DEFAULT_NAMES) -> str:
    """The line that opens a chunk in assembled context: its kind, the scholar's display name and
    work, and what it is about, e.g. ``Section note: Matthew Henry, Concise Commentary —
    Romans 9:6-13`` or ``Lexicon entry: James Strong, Strong's Exhaustive Concordance — G2182
    ἐφευρετής``; one part of a longer note ends "(part 2 of 3)" as its title does. Pass the database's
    ``Names`` (``books``, ``LibraryStore.scholars()``) to use its own names; without them the built-in
    book table and known scholars name things."""
    meta = chunk.metadata
    if chunk.source_type == USER_NOTE:  # the reader's own: unmistakably so, and on what
        where = names.reference(meta)
        return f"Your note on {where}" if where else "Your note"
    label = source_label(chunk.source_type)
    who = author_work(meta, names, full=True)
    if meta.panel_type == "quotation" and meta.scholar_id:
        m = _QUOTED_BY.match(chunk.text)
        who = names.scholar(meta.scholar_id).name + (f", quoted by {m.group('by').strip()}" if m else ", quoted")
    what = names.reference(meta)
    if chunk.source_type == SourceType.LEXICON_ENTRY:
        lines = text_lines(chunk.text)
        number = strongs_number(chunk.source_id, chunk.text)
        what = " ".join(p for p in (number, headword(lines[0]) if lines else "") if p)
    elif chunk.source_type == SourceType.WORD_STUDY:
        t = _title_word_study(chunk, names)
        what = t.replace(" — word study", "") if " — word study" in t else what
    elif chunk.source_type == SourceType.CROSS_REF_THREAD_NOTE or chunk.source_type == SourceType.META_FAQ:
        t = _title(chunk, names)
        what = t.split(" — ", 1)[1] if " — " in t else what
    if not what:
        what = first_sentence(chunk.text)
    head = f"{label}: {who}" if who else label
    return _with_part(f"{head} — {what}" if what else head, chunk)


__all__ = [
    "PANEL_WORDS",
    "SOURCE_LABELS",
    "ChunkLike",
    "author_work",
    "citation",
    "snippet",
    "source_label",
    "title",
]
