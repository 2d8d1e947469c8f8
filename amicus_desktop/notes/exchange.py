"""Notes in and out of the store: the export format of CONTRACT section 11, and Markdown for reading.

* :func:`export_json` — ``{"workspace": "W", "notes": [{"id", "text", "ref", "created", "updated"}]}``;
* :func:`export_markdown` — the same notes as a document, in Bible order, for reading elsewhere;
* :func:`import_notes` — reads the export format into *one* workspace (the one asked for, whatever
  the file's ``workspace`` says): each good note is imported, each bad one is reported by its index
  and skipped; ids that clash with a note of the workspace (or an earlier note of the file) are
  re-assigned. All good notes go in one transaction.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.books import BY_ID
from ..core.references import PassageRef
from ..files import FileReadError, read_small
from ..schemas import NotJson, loads
from .errors import NotesCode, NotesError
from .marks import Mark, mark_from_json
from .model import Note, check_ref, check_text, check_time, now
from .workspace import Workspace

#: The largest export file ``import`` reads (10,000 long notes fit several times over).
MAX_IMPORT_BYTES = 256 * 1024 * 1024
NOTE_KEYS = ("id", "text", "ref", "created", "updated")


def export_json(ws: Workspace) -> dict[str, Any]:
    """Every note of ``ws`` in the export format (oldest first), and its bookmarks and highlights."""
    return {"workspace": ws.id, "notes": [n.to_json() for n in ws.notes()],
            "marks": [m.to_json() for m in ws.marks().marks()]}


def _bible_order(note: Note) -> tuple[int, str, int, int, int, str]:
    ref = note.ref
    if ref is None:
        return (2, "", 0, 0, 0, note.created)
    book = BY_ID.get(ref.book_id)
    return (0 if book else 1, f"{book.ordinal:03d}" if book else ref.book_id, ref.chapter,
            ref.verse_start or 0, ref.verse_end or 0, note.created)


def export_markdown(ws: Workspace) -> str:
    """The notes of ``ws`` as Markdown: a section per chapter in Bible order, then the notes on no
    passage; each note headed by its passage, with its id and times, and its text as written."""
    notes = sorted(ws.notes(), key=_bible_order)
    lines = [f"# Notes — workspace {ws.id}", "",
             f"{len(notes)} note{'s' * (len(notes) != 1)}, exported {now()}.", ""]
    section = None
    for note in notes:
        ref = note.ref
        heading = "Notes on no passage" if ref is None else PassageRef(ref.book_id, ref.chapter).label()
        if heading != section:
            lines += [f"## {heading}", ""]
            section = heading
        lines += [f"### {ref.label() if ref else 'Note'}", "",
                  f"*{note.id} · created {note.created} · updated {note.updated}*", "",
                  note.text.strip(), ""]
    return "\n".join(lines)


@dataclass
class ImportReport:
    """What :func:`import_notes` did: ``imported`` notes, and ``errors`` as ``(index, message)``."""

    imported: list[Note] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)
    #: ``(index, id in the file, id given)`` for each note whose id was re-assigned
    renamed: list[tuple[int, str, str]] = field(default_factory=list)
    #: the bookmarks and highlights imported, and ``(index in marks, message)`` of those skipped
    marks: list[Mark] = field(default_factory=list)
    mark_errors: list[tuple[int, str]] = field(default_factory=list)
    #: whether the file had marks at all (an older export, or one without marks: its report stays as it was)
    had_marks: bool = False

    def to_json(self) -> dict[str, Any]:
        """CONTRACT section 11: ``{"imported": n, "errors": [{"index", "message"}]}``, and the marks' own
        ``marks_imported`` and ``mark_errors`` (a project extension)."""
        out: dict[str, Any] = {"imported": len(self.imported),
                               "errors": [{"index": i, "message": m} for i, m in self.errors]}
        if self.had_marks:
            out["marks_imported"] = len(self.marks)
            out["mark_errors"] = [{"index": i, "message": m} for i, m in self.mark_errors]
        return out


def read_export(path: Path) -> object:
    """The JSON of an export file; ``NOTE_INVALID`` when it is not one (too large, not UTF-8 JSON)."""
    try:
        raw = read_small(path, MAX_IMPORT_BYTES)
        return loads(raw.decode("utf-8"))
    except NotJson as exc:  # NaN, Infinity, 1e999
        raise NotesError(NotesCode.NOTE_INVALID, f"{path} is not JSON ({exc.problem}).") from None
    except FileReadError as exc:
        raise NotesError(NotesCode.NOTE_INVALID, f"{path} cannot be imported: {exc.strerror or exc}.") from None
    except OSError as exc:
        raise NotesError(NotesCode.NOTE_INVALID, f"{path} cannot be read ({exc.strerror or exc}).") from None
    except UnicodeDecodeError:
        raise NotesError(NotesCode.NOTE_INVALID, f"{path} is not UTF-8 text.") from None
    except (json.JSONDecodeError, RecursionError) as exc:
        where = f" (line {exc.lineno}, column {exc.colno})" if isinstance(exc, json.JSONDecodeError) else ""
        raise NotesError(NotesCode.NOTE_INVALID, f"{path} is not JSON{where}.") from None


def _note_from(item: object, workspace: str) -> Note:
    """One element of ``notes`` as a note to import, or ``NOTE_INVALID`` naming the key at fault."""
    if not isinstance(item, dict):
        raise NotesError(NotesCode.NOTE_INVALID, "a note is an object with id, text, ref, created and updated")
    unknown = sorted(k for k in item if k not in NOTE_KEYS)
    if unknown:
        raise NotesError(NotesCode.NOTE_INVALID, f"unknown key {str(unknown[0])[:40]!r}")
    try:
        text = check_text(item.get("text"))
    except NotesError as exc:
        raise NotesError(NotesCode.NOTE_INVALID, f"text: {exc.message}") from None
    raw_ref = item.get("ref")
    if raw_ref is None:
        ref = None
    elif isinstance(raw_ref, dict):
        extra = sorted(k for k in raw_ref if k not in ("book_id", "chapter_num", "verse_start", "verse_end"))
        if extra:
            raise NotesError(NotesCode.NOTE_INVALID, f"ref: unknown key {str(extra[0])[:40]!r}")
        ref = check_ref(raw_ref.get("book_id"), raw_ref.get("chapter_num"), raw_ref.get("verse_start"),
                        raw_ref.get("verse_end"))
    else:
        raise NotesError(NotesCode.NOTE_INVALID, "ref is an object with book_id and chapter_num, or null")
    times = {}
    for key in ("created", "updated"):
        value = item.get(key)
        if value is not None and check_time(value) is None:
            raise NotesError(NotesCode.NOTE_INVALID, f"{key} is not an ISO 8601 time")
        times[key] = check_time(value) or ""
    note_id = item.get("id")
    if note_id is not None and not isinstance(note_id, str):
        raise NotesError(NotesCode.NOTE_INVALID, "id is a string such as 'note:1a2b3c'")
    return Note(note_id or "", workspace, text, ref, times["created"], times["updated"] or times["created"])


def import_notes(ws: Workspace, data: object) -> ImportReport:
    """Import the export-format ``data`` into ``ws`` (see the module docstring).

    ``NOTE_INVALID`` when ``data`` is not an export at all (not an object with a ``notes`` list).
    """
    if not isinstance(data, dict) or not isinstance(data.get("notes"), list):
        raise NotesError(NotesCode.NOTE_INVALID,
                         'not a notes export: expected {"workspace": "...", "notes": [{"id", "text", "ref", '
                         '"created", "updated"}, ...]}')
    report = ImportReport()
    good: list[tuple[int, Note]] = []
    for index, item in enumerate(data["notes"]):
        try:
            good.append((index, _note_from(item, ws.id)))
        except NotesError as exc:
            report.errors.append((index, exc.message))
    imported = ws.restore_all([n for _, n in good])
    for (index, asked), note in zip(good, imported, strict=True):
        if asked.id and note.id != asked.id:
            report.renamed.append((index, asked.id[:80], note.id))
    report.imported = imported
    _import_marks(ws, data.get("marks"), report)
    return report


def _import_marks(ws: Workspace, items: object, report: ImportReport) -> None:
    """The export's ``marks`` (absent in older exports) into ``ws``; a bad one is reported and skipped."""
    if items is None or items == []:
        return  # the report stays as it always was
    report.had_marks = True
    if not isinstance(items, list):
        report.mark_errors.append((0, "marks is a list"))
        return
    good: list[Mark] = []
    for index, item in enumerate(items):
        try:
            good.append(mark_from_json(item))
        except NotesError as exc:
            report.mark_errors.append((index, exc.message))
    report.marks = ws.marks().restore_all(good)


def import_file(ws: Workspace, path: Path) -> ImportReport:
    return import_notes(ws, read_export(path))


__all__: Sequence[str] = ("ImportReport", "export_json", "export_markdown", "import_file", "import_notes",
                          "read_export")
