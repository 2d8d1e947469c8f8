"""Which passages the library's own notes tie together: an index built once per library, in the cache folder.

Every reference in the commentary notes (Henry's, Scofield's) and in the thread notes (Scofield's
chains, Nave's topics) is read with the project's one reference parser
(:func:`amicus_desktop.understand.find_references`) and kept as *groups*:

* a commentary note is a directed group: its passage (the *anchor*, the chunk's metadata) cites
  its *members* — a verse the note covers gets them, and a verse it cites gets the note's passage;
* a chain (one chunk) and a Nave sub-topic (one line of a topic's chunk) are groups of peers — a
  verse among the members gets the others.

The notes write a list of references the way books do ("Romans 1:16; 3:22, 25" — the book said once),
and the parser reads one reference with its book at a time; so before it reads a piece, a piece
that starts with a bare ``chapter:verse`` is given the book of the reference before it (in a thread
note, or the note's own book). Parsing every note of the whole Bible takes tens of seconds: the
groups are written to an index file beside the library's other caches
(:class:`amicus_desktop.store.xref_file.XrefFile`), brought up to date note by note as the library grows
(the builder does it after each book), so a lookup reads two small tables.
No Qt.
"""

from __future__ import annotations

import logging
import re
import weakref
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..core.books import BY_ID
from ..core.references import PassageRef
from ..store.errors import READ_ERRORS
from ..store.scripture import ScriptureStore
from ..store.study import GroupRow, NoteRow, Place
from ..store.xref_file import XrefFile
from ..understand import find_references
from .model import XrefSource

log = logging.getLogger("amicus.study")

#: how the index is made: a change here builds every library's index again
_VERSION = "xref-2"
#: the most references one piece of a note may hold (a Nave line lists many)
_PER_PIECE = 400
COMMENTATORS = {"matthew-henry": XrefSource.HENRY, "c-i-scofield": XrefSource.SCOFIELD}
_BARE = re.compile(r"\d{1,3}:\d")
_PIECES = re.compile(r"((?:;|\bhere:|\bpassage:)\s*)(?=\d{1,3}:\d)")


@dataclass(frozen=True)
class Group:
    """A group of places the notes tie together: its kind, what it is (a topic, a note) and its chunk."""

    kind: XrefSource
    detail: str
    chunk_id: str
    anchor: PassageRef | None
    members: tuple[PassageRef, ...]


def references(text: str, book_id: str | None = None) -> list[PassageRef]:
    """Every reference in ``text`` in order; a bare ``3:22`` after ``;`` takes the book of the reference
    before it (or ``book_id``, the note's book, when none came before)."""
    out: list[PassageRef] = []
    last = book_id
    parts = _PIECES.split(text)
    # split keeps the separators at odd positions: rejoin each with the piece after it
    pieces = [parts[0]] + [parts[i] + parts[i + 1] for i in range(1, len(parts) - 1, 2)]
    for piece in pieces:
        body = piece.lstrip(" ;")
        if body.startswith(("here:", "passage:")):
            body = body.split(":", 1)[1].lstrip()
        if _BARE.match(body) and last in BY_ID:
            body = f"{BY_ID[last].name} {body}"
        found = find_references(body, _PER_PIECE)
        if found:
            last = found[-1].book_id
        out.extend(PassageRef(r.book_id, r.chapter, r.verse_start, r.verse_end) for r in found)
    return list(dict.fromkeys(out))


def _topic(source_id: str) -> str:
    name = source_id.split(":", 1)[-1].split("#")[0]
    return name.title() if name.isupper() else name


def groups(rows: Iterable[NoteRow]) -> Iterator[Group]:
    """Every group of these notes (see the module docstring)."""
    for chunk_id, source_type, source_id, text, scholar, book, chapter, vs, ve in rows:
        book_id = book or ""
        if source_type != "cross_ref_thread_note":
            if chapter is None or scholar not in COMMENTATORS:
                continue
            anchor = PassageRef(book_id, chapter, vs, ve if ve is not None else vs)
            cited = [r for r in references(text) if not overlaps(r, anchor)]
            if cited:
                kind = COMMENTATORS[scholar]
                yield Group(kind, f"{kind.label} on {anchor.label()}", chunk_id, anchor, tuple(cited))
        elif source_id.startswith("Nave:"):
            for line in text.splitlines()[1:]:
                label, _, refs = line.partition(": ")
                if label.startswith("See also") or not refs:
                    continue
                members = references(refs, book_id)
                if len(members) >= 2:
                    detail = f"{_topic(source_id)} — {label}" if label != "References" else _topic(source_id)
                    yield Group(XrefSource.NAVE, detail, chunk_id, None, tuple(members))
        else:
            lines = [ln for ln in text.splitlines() if not ln.startswith("It begins:")]
            topic = (lines[0] if lines else "").removeprefix("Scofield reference chain: ").split(" — ")[0]
            members = references("\n".join(lines), book_id)
            if len(members) >= 2:
                yield Group(XrefSource.CHAIN, f"chain: {topic}", chunk_id, None, tuple(members))


def overlaps(a: PassageRef, b: PassageRef) -> bool:
    """Same chapter and verses in common (a whole chapter overlaps each of its verses)."""
    if (a.book_id, a.chapter) != (b.book_id, b.chapter):
        return False
    if a.verse_start is None or b.verse_start is None:
        return True
    return a.verse_start <= (b.verse_end or b.verse_start) and b.verse_start <= (a.verse_end or a.verse_start)


def _place(ref: PassageRef) -> Place:
    return ref.book_id, ref.chapter, ref.verse_start, ref.verse_end


def _rows(rows: Sequence[NoteRow]) -> Iterator[GroupRow]:
    for g in groups(rows):
        yield g.kind.value, g.detail, g.chunk_id, _place(g.anchor) if g.anchor else None, [_place(m) for m in g.members]


@dataclass(frozen=True)
class Hit:
    """A place a group ties to the verse asked about."""

    kind: XrefSource
    detail: str
    chunk_id: str
    ref: PassageRef


class XrefIndex:
    """The groups of one library, read from the cache file (built there on first use)."""

    def __init__(self, file: XrefFile) -> None:
        self._file = file
        self._kinds: set[XrefSource] | None = None

    @classmethod
    def for_store(cls, store: ScriptureStore) -> XrefIndex:
        """The index of ``store``'s library, up to date with it (built now when the cache has none: seconds for
        a few books, about a minute for the whole Bible; a book added since, about a second — call it off the
        UI thread)."""
        index = _INDEXES.get(store)
        if index is None:
            index = _INDEXES[store] = cls(XrefFile.open(store, _VERSION, _rows, list(COMMENTATORS)))
        elif index._file.refresh():
            index._kinds = None
        return index

    @property
    def notes_read(self) -> int:
        """How many notes the last update read (0: the file was current)."""
        return self._file.notes_read

    def hits(self, book_id: str, chapter: int, verse: int) -> list[Hit]:
        """Every place tied to the verse: the members of the notes covering it, and the other members of
        the chains and topics listing it."""
        here = PassageRef(book_id, chapter, verse, verse)
        out = []
        for kind, detail, chunk_id, (b, c, vs, ve), reverse in self._file.hits(book_id, chapter, verse):
            ref = PassageRef(b, c, vs, ve)
            if not overlaps(ref, here):
                said = f"{detail} cites {here.label()}" if reverse else detail
                out.append(Hit(XrefSource(kind), said, chunk_id, ref))
        return out

    def close(self) -> None:
        """Let the index file go (the next :meth:`for_store` opens it again)."""
        self._file.close()
        for store, index in list(_INDEXES.items()):
            if index is self:
                del _INDEXES[store]

    def kinds(self) -> set[XrefSource]:
        """The sources the library's notes give (read once)."""
        if self._kinds is None:
            self._kinds = {XrefSource(k) for k in self._file.kinds()}
        return set(self._kinds)


def index_library(path: Path) -> int | None:
    """Bring the cross-reference index of the library at ``path`` up to date (its builder does, after each book
    and at the end), so a reader's first cross-reference does not wait; how many notes it read. Best effort: a
    cache folder that cannot be written never fails a build (``None``; the reader makes the index on first use)."""
    try:
        with ScriptureStore(path) as store:
            index = XrefIndex.for_store(store)
            read = index.notes_read
            index.close()
    except (OSError, *READ_ERRORS) as exc:
        log.warning("the cross-reference index was not brought up to date (%s); it is made on first use",
                    type(exc).__name__)
        return None
    return read


_INDEXES: weakref.WeakKeyDictionary[ScriptureStore, XrefIndex] = weakref.WeakKeyDictionary()

__all__: Sequence[str] = ("COMMENTATORS", "Group", "Hit", "XrefIndex", "groups", "index_library", "overlaps",
                          "references")
