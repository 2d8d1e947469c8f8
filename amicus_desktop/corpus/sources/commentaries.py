"""Commentary chunks: Scofield 1917 and Spurgeon's Treasury of David (Matthew Henry's Concise
Commentary has its own module, :mod:`.henry`).

Each note keeps the verse range it sits on in the module (a note stored once and linked over
verses 1-5 covers 1-5) or, where the text heads it "Verse 4.", that range. Long notes become
several chunks with the same range (``#1``, ``#2`` … in the chunk id, ``#n/N`` at the end of the
``source_id``: :func:`.common.mark_parts`). Scofield's notes annotate a word of one verse; the verses
they mention ("vs. 1-6", "verse 22") are references, not sections, so they are not split there.

Attribution: a chunk carries a scholar only for that scholar's own words. Quotations of other
writers that the notes mark (``"…"--Bunyan`` in Scofield, paragraphs ending ``—John Calvin.`` in
Spurgeon) are cut out of the commentator's chunks; Scofield's become separate ``quotation`` chunks
credited to the writer quoted (:func:`quoted_writer`), and Spurgeon's "Explanatory Notes and Quaint
Sayings" (collected quotations) and "Hints to the Village Preacher" are not used at all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from ...core.books import BY_OSIS, Book
from ...store.writer import ChunkRecord
from ..chunking import split_text, word_count
from ..library import Library
from ..sword import to_text
from .common import Scope, VerseRef, mark_parts, meta, parse_loose_ref, record, ref

# ------------------------------------------------------------------------------------------------
# Scofield Reference Notes (1917)
# ------------------------------------------------------------------------------------------------

_SC_SEE = re.compile(
    r"\(?\s*(?:<hi type=\"italic\">)?\s*\(?See Scofield\s*\"?\s*"
    r"<reference osisRef=\"Scofield:([^\"]+)\">[^<]*</reference>\s*\"?\s*\)?\s*(?:</hi>)?\s*\.?",
    re.I,
)
_SC_CF = re.compile(
    r"\(?\bCf\b\.?\)?\s*((?:<reference osisRef=\"[^\"]+\">[^<]*</reference>[\s;,.]*)+)", re.I
)
_SC_REF = re.compile(r"<reference osisRef=\"([^\"]+)\">")
# The module's inserted Greek words are often wrong (ἀπόλλυμι for "writer"): drop them.
_SC_GREEK = re.compile(r"\(\s*\(?\s*Greek\s*-\s*\"?\s*<w [^>]*>[^<]*</w>\s*\"?\s*[,=-]?\s*", re.I)
_SC_W = re.compile(r"<w [^>]*>[^<]*</w>")
# Links to an online topic database the module was made from; they lead nowhere here.
_SC_OTHER_VIEW = re.compile(r"For Another Point of View:\s*See Topic\s*\d+\.?", re.I)
_SC_HEAD = re.compile(r"<hi type=\"bold\">([^<]{1,80})</hi>")
# A quotation of another writer: "…"--Bunyan.  /  "…" --Heinrich A. W. Meyer.
_QUOTE = re.compile(
    r"[\"“]([^\"“”]{20,}?)[\"”]\s*[-—–]{1,2}\s*"
    r"((?:(?:[A-Z]\.|[A-Z][a-z']+)\s?){0,3}[A-Z][a-z']+)\.?(?=\s|$)"
)


#: The writers Scofield quotes, by the surname his notes give ("--Bunyan", "--H.A.W. Meyer").
QUOTED_WRITERS: dict[str, str] = {
    "bunyan": "john-bunyan",
    "bengel": "j-a-bengel",
    "delitzsch": "franz-delitzsch",
    "meyer": "h-a-w-meyer",
    "thayer": "j-h-thayer",
    "lightfoot": "j-b-lightfoot",
    "moorehead": "w-g-moorehead",
    "weston": "h-g-weston",
}


def quoted_writer(name: str) -> str:
    """The ``scholar_id`` of a writer a note quotes: a known surname's id, else a slug of the name
    as the note writes it (``"A. B. Jones"`` → ``a-b-jones``)."""
    words = re.findall(r"[A-Za-z']+", name)
    surname = words[-1].lower() if words else ""
    return QUOTED_WRITERS.get(surname) or _slug(name)


@dataclass
class ScofieldLink:
    """A note that points to a target (See Scofield …) or compares a passage (Cf. …)."""

    source: VerseRef
    headword: str
    kind: str  # "see" or "cf"


@dataclass
class ScofieldData:
    """Scofield's notes read once: chunk records plus the chains for cross-reference threads."""

    records: list[ChunkRecord] = field(default_factory=list)
    links: dict[VerseRef, list[ScofieldLink]] = field(default_factory=dict)  # target → links
    notes: dict[VerseRef, tuple[str, str]] = field(default_factory=dict)  # (verse) → (headword, text)


def _scofield_notes(raw: str) -> list[tuple[str, str]]:
    """An entry's notes as (headword, markup) pairs; a headword is a bold phrase."""
    heads = list(_SC_HEAD.finditer(raw))
    if not heads:
        return [("", raw)]
    out = []
    lead = raw[: heads[0].start()]
    if to_text(lead).strip():
        out.append(("", lead))
    for i, m in enumerate(heads):
        body = raw[m.end(): heads[i + 1].start() if i + 1 < len(heads) else len(raw)]
        out.append((" ".join(m.group(1).split()), body))
    return out


def _flush_short(book: Book, short: list[tuple[VerseRef, str, str]]) -> Iterator[ChunkRecord]:
    """The pending short Scofield notes of one chapter as one chunk (none if none are pending); empties ``short``."""
    if not short:
        return
    first, last = short[0][0], short[-1][0]
    lines = [f"{r.short()} {h}: {t}" if h else f"{r.short()} {t}" for r, h, t in short]
    yield record(
        f"scofield:{book.book_id}:{first.chapter}:{_span(first.verse, last.verse_end)}#notes",
        "section_panel", f"Scofield:{book.osis}.{first.chapter}.{_span(first.verse, last.verse_end)}",
        "\n".join(lines),
        meta("c-i-scofield", book_id=book.book_id, chapter_num=first.chapter,
             verse_start=first.verse, verse_end=max(r.verse_end for r, _, _ in short),
             panel_type="note"),
    )
    short.clear()


def read_scofield(library: Library, scope: Scope) -> ScofieldData:
    """Notes of the chosen books, and 'See'/'Cf.' links of *all* books (chains cross books)."""
    module = library.verse_module("scofield")
    data = ScofieldData()
    used: dict[str, int] = {}
    for book_osis in BY_OSIS:
        book = BY_OSIS[book_osis]
        in_scope = book in scope
        short: list[tuple[VerseRef, str, str]] = []  # pending short notes of one chapter
        for entry in module.entries(book.osis):
            if entry.chapter == 0 or entry.verse == 0:
                continue
            here = VerseRef(book.ordinal, entry.chapter, entry.verse, entry.verse_end)
            raw = _SC_GREEK.sub("(Greek: ", entry.raw)
            raw = _SC_W.sub("", raw)
            if "Book Introduction" in raw:
                if in_scope:
                    body = to_text(re.sub(r"<title[^>]*>.*?</title>", "", raw))
                    body = re.sub(r"^Read first chapter of \w[\w ]*\s*", "", body)
                    data.records.extend(_intro_records(book, *_quotes_out(body, book, here, "intro")))
                continue
            for headword, body in _scofield_notes(raw):
                for m in _SC_SEE.finditer(body):
                    target = parse_loose_ref(m.group(1))
                    if target:
                        data.links.setdefault(target, []).append(ScofieldLink(here, headword, "see"))
                for m in _SC_CF.finditer(body):
                    for target_raw in _SC_REF.findall(m.group(1)):
                        target = parse_loose_ref(target_raw)
                        if target and target != here:
                            data.links.setdefault(target, []).append(ScofieldLink(here, headword, "cf"))
                text = to_text(_SC_SEE.sub(" ", _SC_OTHER_VIEW.sub(" ", body)))
                text = re.sub(r"\(\s*\)|\(\s*\.\s*\)", "", text).strip(" .\n")
                if text:
                    data.notes.setdefault(here, (headword, text))
                if not in_scope or not text or word_count(text) < 2:
                    continue
                own, quotes = _quotes_out(text, book, here, "note")
                own = own.strip()
                data.records.extend(quotes)
                if not own:
                    continue
                if word_count(own) < 40:
                    if short and (short[0][0].chapter != here.chapter
                                  or sum(word_count(t) for _, _, t in short) > 120):
                        data.records.extend(_flush_short(book, short))
                    short.append((here, headword, own))
                    continue
                data.records.extend(_flush_short(book, short))
                body_text = f"{headword}: {own}" if headword else own
                base = (f"scofield:{book.book_id}:{here.chapter}:{_span(here.verse, here.verse_end)}"
                        f":{_slug(headword)}")
                used[base] = used.get(base, 0) + 1
                if used[base] > 1:  # the same headword twice on one verse
                    base += f"-{used[base]}"
                data.records.extend(mark_parts(
                    record(f"{base}#{n}", "section_panel", f"Scofield:{here.key()}", part,
                           meta("c-i-scofield", book_id=book.book_id, chapter_num=here.chapter,
                                verse_start=here.verse, verse_end=here.verse_end, panel_type="note"))
                    for n, part in enumerate(split_text(body_text), start=1)
                ))
            if short and short[-1][0].chapter != entry.chapter:
                data.records.extend(_flush_short(book, short))
        if in_scope:
            data.records.extend(_flush_short(book, short))
    return data


def _span(start: int, end: int) -> str:
    return str(start) if start == end else f"{start}-{end}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "note"


def _quotes_out(text: str, book: Book, here: VerseRef, where: str) -> tuple[str, list[ChunkRecord]]:
    """Scofield's own text and, separately, the quotations of other writers in it as chunks (credited
    to the writer quoted)."""
    pos = 0
    n = 0
    own = []
    quotes: list[ChunkRecord] = []
    for m in _QUOTE.finditer(text):
        own.append(text[pos: m.start()])
        pos = m.end()
        n += 1
        author = m.group(2).strip()
        quote = " ".join(m.group(1).split())
        place = ref(book, here.chapter, here.verse, here.verse_end) if where == "note" else book.name
        quotes.append(record(
            f"scofield:{book.book_id}:{here.chapter}:{here.verse}:{where}:quote#{n}", "section_panel",
            f"Scofield:{here.key()}",
            f"Quoted by C. I. Scofield (note on {place}), from {author}: “{quote}”",
            meta(quoted_writer(author), book_id=book.book_id,
                 chapter_num=here.chapter if where == "note" else None,
                 verse_start=here.verse if where == "note" else None,
                 verse_end=here.verse_end if where == "note" else None, panel_type="quotation"),
        ))
    own.append(text[pos:])
    return "".join(own), quotes


def _intro_records(book: Book, own: str, quotes: list[ChunkRecord]) -> Iterator[ChunkRecord]:
    yield from mark_parts(
        record(f"scofield:{book.book_id}:intro#{n}", "chapter_panel", f"Scofield:{book.osis}", part,
               meta("c-i-scofield", book_id=book.book_id, panel_type="book_intro"))
        for n, part in enumerate(split_text(own), start=1)
    )
    yield from quotes


def scofield_chunks(data: ScofieldData) -> Iterator[ChunkRecord]:
    yield from data.records


# ------------------------------------------------------------------------------------------------
# Spurgeon's Treasury of David (Psalms)
# ------------------------------------------------------------------------------------------------

_TD_TITLE = re.compile(r"<title type=\"x-s\">([^<]*)</title>")
_TD_VERSE = re.compile(
    r"(?:^|\n)\s*(?:Verses?|Vers?\.?)\s+(\d+)(?:\s*(?:[-–]|,|to|and)\s*(\d+))?\s*(?:\.\s*|\s+)", re.I
)
# A paragraph that ends by naming another writer: "… —John Calvin."  "… —Alfred Edersheim."
_ATTRIBUTED = re.compile(r"(?:—|--|–)\s*[A-Z][A-Za-z.'’ ,]{2,60}\.?\s*$")
#: sections of the Treasury that are Spurgeon's own writing.
_TD_OWN = ("OVERVIEW", "TITLE", "DIVISION", "EXPOSITION", "SUBJECT", "AUTHOR")


def _own_paragraphs(text: str) -> str:
    """Drop paragraphs that end with an attribution to another writer."""
    return "\n\n".join(
        p for p in text.split("\n\n") if p.strip() and not _ATTRIBUTED.search(p.strip())
    )


def tdavid_chunks(library: Library, scope: Scope) -> Iterator[ChunkRecord]:
    """Spurgeon's own sections of every psalm; the parts of one section (or of one psalm's
    overview, title or division) are numbered ``#n/N`` together."""
    if "Ps" not in scope.osis:
        return
    module = library.verse_module("tdavid")
    for entry in module.entries("Ps"):
        if entry.chapter == 0 or entry.verse == 0:
            continue
        yield from mark_parts(_td_entry(entry.raw, entry.chapter, module.v11n.verse_count("Ps", entry.chapter)))


def _td_entry(raw: str, psalm: int, last: int) -> Iterator[ChunkRecord]:
    book = BY_OSIS["Ps"]
    parts = _TD_TITLE.split(raw)
    # parts: [before, title1, body1, title2, body2, ...]
    counters: dict[str, int] = {}
    seen: dict[str, int] = {}
    for i in range(1, len(parts), 2):
        title = " ".join(parts[i].split()).rstrip(".").upper()
        section = next((s for s in _TD_OWN if s in title), None)
        if title.startswith("PSALM") and not section:
            section = "OVERVIEW"  # Ps 119 opens with "Psalms 119"
        if section is None:
            continue  # quaint sayings, hints to preachers, works upon the psalm, …
        text = _own_paragraphs(to_text(parts[i + 1]))
        if not text.strip():
            continue
        if section != "EXPOSITION":
            panel = {"DIVISION": "outline", "TITLE": "title"}.get(section, "intro")
            n0 = counters.get(panel, 0)
            for n, part in enumerate(split_text(text), start=n0 + 1):
                counters[panel] = n
                yield record(
                    f"tdavid:psalms:{psalm}:{panel}#{n}", "chapter_panel",
                    f"TDavid:Ps.{psalm}", part,
                    meta("charles-spurgeon", book_id=book.book_id, chapter_num=psalm,
                         verse_start=1, verse_end=last, panel_type=panel),
                )
            continue
        yield from _td_exposition(text, psalm, last, book, seen)


def _td_exposition(text: str, psalm: int, last: int, book: Book,
                   seen: dict[str, int]) -> Iterator[ChunkRecord]:
    marks = list(_TD_VERSE.finditer(text))
    sections: list[tuple[int, int, str]] = []
    if not marks or (marks[0].start() > 0 and text[: marks[0].start()].strip()):
        head = text[: marks[0].start()] if marks else text
        if head.strip():
            sections.append((1, last, head))
    for i, m in enumerate(marks):
        start = int(m.group(1))
        end = int(m.group(2) or start)
        body = text[m.end(): marks[i + 1].start() if i + 1 < len(marks) else len(text)]
        start = max(1, min(start, last))
        end = max(start, min(end, last))
        sections.append((start, end, body))
    for start, end, body in sections:
        if not body.strip():
            continue
        base = f"tdavid:psalms:{psalm}:{_span(start, end)}"
        for part in split_text(body):
            seen[base] = seen.get(base, 0) + 1
            yield record(
                f"{base}#{seen[base]}", "section_panel", f"TDavid:Ps.{psalm}.{_span(start, end)}", part,
                meta("charles-spurgeon", book_id=book.book_id, chapter_num=psalm,
                     verse_start=start, verse_end=end, panel_type="note"),
            )
