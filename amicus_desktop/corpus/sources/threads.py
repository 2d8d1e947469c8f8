"""``cross_ref_thread_note`` chunks: Scofield's reference chains and Nave's topics.

**Scofield chains.** Scofield's notes point to a fuller note elsewhere — "(See Scofield "Romans
3:23")" — or compare a passage ("Cf. Romans 10:1-11"). All links to one target are merged into one
thread per (target, book of the scope): the target's headword and opening words, then the places in
that book that point to it (with the word each annotates), then how many elsewhere. Everything in
the chunk is Scofield's own apparatus, so it is attributed to him.
``book_id`` is that book; ``chapter_num``/verses are the target's when the target lies in the book,
else the chapter most of the book's links come from.

**Nave's topics.** One chunk per (topic, book of the scope) for topics that cite at least
``NAVE_MIN_REFS`` passages of the book: the topic, and each sub-topic line limited to that book's
references. The text is Nave's own (labels and references, no Bible text), so it is attributed to
him (``orville-nave``, no tradition). ``chapter_num`` is the chapter holding at least half of the
references, else NULL.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from ...core.books import BY_OSIS, Book
from ...store.writer import ChunkRecord
from ..chunking import first_words, slug, split_text
from ..library import Library
from ..sword import to_text
from .commentaries import ScofieldData, ScofieldLink
from .common import Scope, VerseRef, join_refs, mark_parts, meta, parse_osis_ref, record

NAVE_MIN_REFS = 2
CHAIN_MIN_LINKS = 2


def scofield_thread_chunks(data: ScofieldData, scope: Scope) -> Iterator[ChunkRecord]:
    for target, links in sorted(data.links.items()):
        # one link per (source verse, headword, kind)
        uniq = list({(lk.source, lk.headword, lk.kind): lk for lk in links}.values())
        if len(uniq) < CHAIN_MIN_LINKS:
            continue
        note = data.notes.get(target) or next(
            (v for k, v in data.notes.items()
             if k.ordinal == target.ordinal and k.chapter == target.chapter
             and k.verse <= target.verse <= k.verse_end),
            None,
        )
        books: dict[int, list[ScofieldLink]] = {}
        for lk in uniq:
            books.setdefault(lk.source.ordinal, []).append(lk)
        if target.book in scope:
            books.setdefault(target.ordinal, [])
        for ordinal, here_links in sorted(books.items()):
            book = target.book if ordinal == target.ordinal else here_links[0].source.book
            if book not in scope:
                continue
            yield _chain(target, note, book, here_links, uniq)


def _chain(target: VerseRef, note: tuple[str, str] | None, book: Book, here: list[ScofieldLink],
           everything: list[ScofieldLink]) -> ChunkRecord:
    headword = note[0] if note and note[0] else ""
    topic = headword or target.full()
    lines = [f"Scofield reference chain: {topic} — the fuller note is at {target.full()}."]
    if note:
        lines.append(f"It begins: {first_words(note[1], 45)}")
    see = sorted({(lk.source, lk.headword) for lk in here if lk.kind == "see"})
    cf = sorted({(lk.source, lk.headword) for lk in here if lk.kind == "cf"})
    if see:
        lines.append(f"In {book.name}, notes that send the reader here: "
                     + "; ".join(f"{s.short()} ({h})" if h else s.short() for s, h in see) + ".")
    if cf:
        lines.append(f"In {book.name}, notes that compare this passage: "
                     + "; ".join(f"{s.short()} ({h})" if h else s.short() for s, h in cf) + ".")
    others = sorted({lk.source for lk in everything if lk.source.ordinal != book.ordinal})
    if others:
        shown = ", ".join(r.full() for r in others[:12])
        more = f" and {len(others) - 12} more" if len(others) > 12 else ""
        lines.append(f"Elsewhere: {shown}{more}.")
    if target.ordinal == book.ordinal:
        chapter, vs, ve = target.chapter, target.verse or None, target.verse_end or None
    else:
        chapter = Counter(lk.source.chapter for lk in here).most_common(1)[0][0]
        vs = ve = None
    text = "\n".join(lines)
    return record(
        f"scofield-chain:{target.key()}:{book.book_id}", "cross_ref_thread_note",
        f"Scofield:{target.key()}", text,
        meta("c-i-scofield", book_id=book.book_id, chapter_num=chapter, verse_start=vs,
             verse_end=ve, panel_type="chain"),
    )


# ------------------------------------------------------------------------------------------------
# Nave's Topical Bible
# ------------------------------------------------------------------------------------------------

_REF_TAG = re.compile(r"<ref osisRef=\"([^\"]+)\">[^<]*</ref>")
_SEE_TAG = re.compile(r"<ref target=\"Nave:([^\"]+)\">[^<]*</ref>")


def _nave_lines(markup: str) -> list[tuple[str, list[VerseRef], list[str]]]:
    """(label, references, see-also topics) per line of an entry."""
    body = re.sub(r"</?(?:entryFree|def)[^>]*>", "", markup)
    body = re.sub(r"<item>", "<lb/>", body)
    out = []
    for line in re.split(r"<lb\s*/>|\n(?=\s*<lb)", body):
        refs = [r for r in (parse_osis_ref(x) for x in _REF_TAG.findall(line)) if r]
        sees = _SEE_TAG.findall(line)
        label = to_text(_SEE_TAG.sub("", _REF_TAG.sub("\x00", line)))
        label = label.split("\x00", 1)[0]
        label = " ".join(label.replace("→", " ").split()).strip(" ;,:.")
        out.append((label, refs, sees))
    return out


def nave_chunks(library: Library, scope: Scope) -> Iterator[ChunkRecord]:
    nave = library.dictionary("nave")
    for topic in nave.keys():
        raw = nave.raw(topic)
        if "osisRef=" not in raw:
            continue
        osis_in = {m.split(".", 1)[0] for m in re.findall(r"osisRef=\"([^\"]+)\"", raw)}
        if not osis_in & scope.osis:
            continue
        lines = _nave_lines(raw)
        for book in scope.books:
            if book.osis not in osis_in:
                continue
            chunk = _nave_topic(topic, lines, book)
            if chunk:
                yield from chunk


def _nave_topic(topic: str, lines: list[tuple[str, list[VerseRef], list[str]]], book: Book) -> list[ChunkRecord]:
    title = topic.title() if topic.isupper() else topic
    out_lines: list[str] = []
    all_refs: list[VerseRef] = []
    see_also: list[str] = []
    for label, refs, sees in lines:
        mine = [r for r in refs if r.ordinal == book.ordinal]
        see_also.extend(sees)
        if not mine:
            continue
        all_refs.extend(mine)
        label = label[:1].upper() + label[1:] if label else "References"
        out_lines.append(f"{label}: {book.name} {join_refs(mine)}.")
    if len(set(all_refs)) < NAVE_MIN_REFS:
        return []
    head = f"Nave's Topical Bible — {title}, in {book.name}."
    body = "\n".join(out_lines)
    if see_also:
        body += "\nSee also: " + ", ".join(dict.fromkeys(s.title() for s in see_also)) + "."
    chapters = Counter(r.chapter for r in all_refs)
    top, n = chapters.most_common(1)[0]
    chapter_num = top if n * 2 >= len(all_refs) else None
    parts = split_text(body, target=200, maximum=260)
    recs = []
    for i, part in enumerate(parts, start=1):
        recs.append(record(
            f"nave:{slug(topic)}:{book.book_id}" + (f"#{i}" if len(parts) > 1 else ""),
            "cross_ref_thread_note", f"Nave:{topic}", f"{head}\n{part}",
            meta("orville-nave", book_id=book.book_id, chapter_num=chapter_num, panel_type="topic"),
        ))
    return mark_parts(recs)


__all__ = ["BY_OSIS", "nave_chunks", "scofield_thread_chunks"]
