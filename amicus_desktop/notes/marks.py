"""Bookmarks, highlights and labels on verses and ranges: one workspace's, in the notes store.

Same rules as the notes (:mod:`.workspace`): a :class:`Marks` is had from a workspace
(:meth:`Workspace.marks <amicus_desktop.notes.workspace.Workspace.marks>`), binds that workspace's id in
every statement, and has no parameter naming another; a mark of another workspace is, to it, a mark
that does not exist. Each write is one transaction. The table is ``marks`` (schema 3, docs/NOTES.md).

A mark is a *bookmark* or a *highlight* (with a colour from :data:`COLOURS`) on a passage of one
chapter, with any number of *labels* (short names the reader files passages under: "promises",
"sermon 12"). Exported and imported with the notes (:mod:`.exchange`).
"""

from __future__ import annotations

import enum
import json
import re
import secrets
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.books import BY_ID
from ..core.references import PassageRef
from .errors import NotesCode, NotesError
from .model import check_ref, check_time, now, ref_json
from .schema import write_transaction

if TYPE_CHECKING:
    import apsw

    from .workspace import Workspace

#: highlight colours, by name (the UI maps each to its own shade for light and dark themes)
COLOURS = ("yellow", "green", "blue", "pink", "orange")
MARK_ID = re.compile(r"mark:[A-Za-z0-9._-]{1,64}")
MAX_LABELS = 20
MAX_LABEL_CHARS = 40
_COLUMNS = "mark_id, kind, colour, labels, book_id, chapter_num, verse_start, verse_end, created, updated"


class MarkKind(enum.StrEnum):
    BOOKMARK = "bookmark"
    HIGHLIGHT = "highlight"


@dataclass(frozen=True)
class Mark:
    """A bookmark or highlight of one workspace, as stored."""

    id: str
    kind: MarkKind
    ref: PassageRef
    colour: str | None
    labels: tuple[str, ...]
    created: str
    updated: str

    def to_json(self) -> dict[str, Any]:
        """The export format's mark: ``{"id", "kind", "ref", "colour", "labels", "created", "updated"}``."""
        return {"id": self.id, "kind": self.kind.value, "ref": ref_json(self.ref), "colour": self.colour,
                "labels": list(self.labels), "created": self.created, "updated": self.updated}


def check_kind(kind: object) -> MarkKind:
    try:
        return MarkKind(str(kind))
    except ValueError:
        raise NotesError(NotesCode.NOTE_INVALID, "A mark is a 'bookmark' or a 'highlight'.") from None


def check_colour(kind: MarkKind, colour: object) -> str | None:
    if kind is MarkKind.BOOKMARK:
        return None
    if colour is None:
        return COLOURS[0]
    if colour not in COLOURS:
        raise NotesError(NotesCode.NOTE_INVALID, f"A highlight's colour is one of {', '.join(COLOURS)}.")
    return str(colour)


def check_labels(labels: Iterable[object]) -> tuple[str, ...]:
    """Labels as stored: trimmed, spaces collapsed, each 1–40 characters, duplicates (any case) dropped."""
    out: dict[str, str] = {}
    for label in labels:
        if not isinstance(label, str):
            raise NotesError(NotesCode.NOTE_INVALID, "A label is text.")
        clean = " ".join(label.split())
        if not clean or len(clean) > MAX_LABEL_CHARS or "\x00" in clean:
            raise NotesError(NotesCode.NOTE_INVALID, f"A label is 1–{MAX_LABEL_CHARS} characters.")
        out.setdefault(clean.casefold(), clean)
    if len(out) > MAX_LABELS:
        raise NotesError(NotesCode.NOTE_INVALID, f"A mark has at most {MAX_LABELS} labels.")
    return tuple(out.values())


def _plain(ref: PassageRef) -> PassageRef:
    return check_ref(ref.book_id, ref.chapter, ref.verse_start, ref.verse_end)


class Marks:
    """The marks of one workspace (``id``). Made by :meth:`Workspace.marks`; not shared between threads."""

    def __init__(self, workspace: Workspace) -> None:
        self._workspace = workspace
        self.id = workspace.id

    @property
    def _con(self) -> apsw.Connection:
        return self._workspace._con

    def _mark(self, row: Sequence[Any]) -> Mark:
        mark_id, kind, colour, labels, book, chapter, start, end, created, updated = row
        return Mark(str(mark_id), MarkKind(str(kind)), PassageRef(str(book), int(chapter), start, end),
                    None if colour is None else str(colour), tuple(json.loads(str(labels) or "[]")),
                    str(created), str(updated))

    def _select(self, where: str = "", params: Sequence[object] = ()) -> list[Mark]:
        sql = f"SELECT {_COLUMNS} FROM marks WHERE workspace_id = ?" + (f" AND ({where})" if where else "")
        return [self._mark(r) for r in self._con.execute(sql + " ORDER BY created, rowid", [self.id, *params])]

    def get(self, mark_id: str) -> Mark:
        found = self._select("mark_id = ?", [mark_id]) if isinstance(mark_id, str) else []
        if not found:
            shown = mark_id if isinstance(mark_id, str) and MARK_ID.fullmatch(mark_id) else "that id"
            raise NotesError(NotesCode.NOTE_NOT_FOUND, f"There is no mark {shown} in this workspace.")
        return found[0]

    def marks(self, on: PassageRef | None = None, kind: MarkKind | None = None,
              label: str | None = None) -> list[Mark]:
        """The workspace's marks, oldest first; those overlapping ``on`` (a chapter: every mark in it), of
        ``kind``, filed under ``label`` (any case) when given."""
        where, params = [], []
        if on is not None:
            where.append("book_id = ? AND chapter_num = ?")
            params += [on.book_id, on.chapter]
        if kind is not None:
            where.append("kind = ?")
            params.append(kind.value)
        rows = self._select(" AND ".join(where), params)
        if on is not None and on.verse_start is not None:
            end = on.verse_end or on.verse_start
            rows = [m for m in rows if m.ref.verse_start is None
                    or (m.ref.verse_start <= end and on.verse_start <= (m.ref.verse_end or m.ref.verse_start))]
        if label is not None:
            rows = [m for m in rows if label.casefold() in {x.casefold() for x in m.labels}]
        return rows

    def search(self, text: str) -> list[Mark]:
        """Marks whose labels, passage or kind contain ``text`` (any case)."""
        needle = " ".join(text.split()).casefold()
        return [m for m in self.marks()
                if needle in " ".join((*m.labels, m.ref.label(), m.kind.value, m.colour or "")).casefold()]

    def labels(self) -> list[tuple[str, int]]:
        """Every label of the workspace (any case is one label, shown as first written) and how many marks
        carry it, most used first."""
        counts: Counter[str] = Counter()
        shown: dict[str, str] = {}
        for m in self.marks():
            for label in m.labels:
                counts[shown.setdefault(label.casefold(), label)] += 1
        return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0].casefold()))

    def _free_id(self, wanted: str | None = None) -> str:
        candidate = wanted if wanted and MARK_ID.fullmatch(wanted) else f"mark:{secrets.token_hex(8)}"
        while self._con.execute("SELECT 1 FROM marks WHERE workspace_id = ? AND mark_id = ?",
                                [self.id, candidate]).fetchone():
            candidate = f"mark:{secrets.token_hex(8)}"
        return candidate

    def _insert(self, kind: MarkKind, ref: PassageRef, colour: str | None, labels: tuple[str, ...],
                mark_id: str | None, created: str, updated: str) -> Mark:
        self._workspace._ensure()
        mark_id = self._free_id(mark_id)
        self._con.execute(
            "INSERT INTO marks(workspace_id, mark_id, kind, colour, labels, book_id, chapter_num, verse_start, "
            "verse_end, created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [self.id, mark_id, kind.value, colour, json.dumps(list(labels), ensure_ascii=False), ref.book_id,
             ref.chapter, ref.verse_start, ref.verse_end, created, updated])
        return Mark(mark_id, kind, ref, colour, labels, created, updated)

    def add(self, kind: MarkKind | str, ref: PassageRef, *, colour: str | None = None,
            labels: Iterable[str] = ()) -> Mark:
        """A new bookmark or highlight on ``ref`` (saved before this returns)."""
        k = check_kind(kind)
        checked = (_plain(ref), check_colour(k, colour), check_labels(labels))
        stamp = now()
        with write_transaction(self._con):
            return self._insert(k, *checked, None, stamp, stamp)

    def edit(self, mark_id: str, *, colour: str | None = None, labels: Iterable[str] | None = None) -> Mark:
        """The mark with a new colour (a highlight's) and/or labels (``None``: leave as it is)."""
        with write_transaction(self._con):
            old = self.get(mark_id)
            new_colour = old.colour if colour is None else check_colour(old.kind, colour)
            new_labels = old.labels if labels is None else check_labels(labels)
            if (new_colour, new_labels) == (old.colour, old.labels):
                return old
            stamp = now()
            self._con.execute("UPDATE marks SET colour = ?, labels = ?, updated = ? WHERE workspace_id = ? "
                              "AND mark_id = ?", [new_colour, json.dumps(list(new_labels), ensure_ascii=False),
                                                  stamp, self.id, old.id])
            return Mark(old.id, old.kind, old.ref, new_colour, new_labels, old.created, stamp)

    def remove(self, mark_id: str) -> Mark:
        """Delete the mark; returns it (an undo can :meth:`restore_all` it)."""
        with write_transaction(self._con):
            old = self.get(mark_id)
            self._con.execute("DELETE FROM marks WHERE workspace_id = ? AND mark_id = ?", [self.id, old.id])
            return old

    def restore_all(self, marks: Sequence[Mark]) -> list[Mark]:
        """Put marks into this workspace in one transaction (an import, an undo): each keeps its id when free."""
        stamp = now()
        checked = [(check_kind(m.kind), _plain(m.ref), m) for m in marks]
        with write_transaction(self._con):
            out = []
            for kind, ref, m in checked:
                created = check_time(m.created) or stamp
                out.append(self._insert(kind, ref, check_colour(kind, m.colour), check_labels(m.labels), m.id,
                                        created, check_time(m.updated) or created))
            return out


@dataclass(frozen=True)
class MarkChoice:
    """Which marked passages a question is limited to ("search my labelled passages"): every bookmark,
    every highlight, or the marks filed under one label (any case). Written ``bookmarks``, ``highlights``,
    ``label:NAME`` or a bare label name (``query --marks``)."""

    kind: MarkKind | None = None
    label: str | None = None

    @classmethod
    def parse(cls, text: str) -> MarkChoice:
        clean = " ".join(text.split())
        if clean.casefold() in ("bookmarks", "highlights"):
            return cls(kind=MarkKind(clean.casefold()[:-1]))
        name = clean[6:] if clean.casefold().startswith("label:") else clean
        return cls(label=check_labels([name])[0])

    def words(self) -> str:
        """``bookmarks``, ``highlights``, ``label 'promises'`` (said to the reader; never logged)."""
        return f"{self.kind.value}s" if self.kind is not None else f"label {self.label!r}"

    def holds(self, mark: Mark) -> bool:
        if self.kind is not None:
            return mark.kind is self.kind
        return self.label is not None and self.label.casefold() in {x.casefold() for x in mark.labels}


def _bible_order(ref: PassageRef) -> tuple[int, str, int, int]:
    book = BY_ID.get(ref.book_id)
    return (book.ordinal if book else 99, ref.book_id, ref.chapter, ref.verse_start or 0)


def chosen_passages(marks: Marks | Iterable[Mark], choices: Iterable[MarkChoice]) -> list[PassageRef]:
    """The passages of the marks any of ``choices`` holds (OR) — of one workspace's :class:`Marks`, or of
    a list of marks already read from it — each once, in Bible order."""
    wanted = list(choices)
    found = marks.marks() if isinstance(marks, Marks) else marks
    return sorted({m.ref for m in found if any(c.holds(m) for c in wanted)}, key=_bible_order)


def mark_from_json(item: object) -> Mark:
    """One element of an export's ``marks`` as a mark to import, or ``NOTE_INVALID`` saying what is wrong."""
    if not isinstance(item, dict):
        raise NotesError(NotesCode.NOTE_INVALID, "a mark is an object with id, kind, ref, colour, labels")
    unknown = sorted(k for k in item if k not in ("id", "kind", "ref", "colour", "labels", "created", "updated"))
    if unknown:
        raise NotesError(NotesCode.NOTE_INVALID, f"unknown key {str(unknown[0])[:40]!r}")
    kind = check_kind(item.get("kind"))
    raw = item.get("ref")
    if not isinstance(raw, dict):
        raise NotesError(NotesCode.NOTE_INVALID, "a mark's ref is an object with book_id and chapter_num")
    ref = check_ref(raw.get("book_id"), raw.get("chapter_num"), raw.get("verse_start"), raw.get("verse_end"))
    labels = item.get("labels") or []
    if not isinstance(labels, list):
        raise NotesError(NotesCode.NOTE_INVALID, "labels is a list of text")
    mark_id = item.get("id")
    return Mark(mark_id if isinstance(mark_id, str) else "", kind, ref, check_colour(kind, item.get("colour")),
                check_labels(labels), check_time(item.get("created")) or "", check_time(item.get("updated")) or "")
