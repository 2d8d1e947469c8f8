"""Reading an ingest corpus (CONTRACT section 13): JSON Lines, one document a line, each checked. No Qt.

A line is first checked against the shipped JSON Schema, ``resources/schemas/corpus-document.schema.json``
(with ``jsonschema``: types, required and unknown fields, the source types), then against what a schema
cannot say: text that can be stored (no lone surrogate, no NUL character), a ``book_id`` of the 66 books, a
chapter the book has, verses that need a chapter, do not run backwards nor past the chapter's end, a chunk
id used once in the whole file, and one name and tradition per scholar. A line with any problem is
skipped whole and reported by its number (1-based, blank lines count) with the JSON pointer
of each field at fault (``/chunks/2/chapter_num: must be a whole number, not 'nine'``); the
good lines are kept. Messages quote at most a few dozen characters of what the line held.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator

from .. import schemas
from ..core.books import BY_ID, resolve_book
from ..core.query import NOTE_ID_PREFIX, is_note_id
from ..core.results import ChunkMetadata
from ..files import open_regular
from ..schemas import quote
from ..store.writer import ChunkRecord
from ..understand.references import verse_count

#: The schema of one line (``resources/schemas/corpus-document.schema.json``; :mod:`amicus_desktop.schemas`).
SCHEMA = "corpus-document"
#: Problems reported for one line at most (a line that is wrong everywhere says so in a few).
MAX_PROBLEMS_PER_LINE = 10


@dataclass(frozen=True)
class LineError:
    """A problem of one line: its number and a sentence naming the field."""

    line: int
    message: str

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "message": self.message}


@dataclass(frozen=True)
class Document:
    """One accepted line: its chunks, and who wrote them as the line says (``None``: not said)."""

    line: int
    source_id: str
    source_type: str
    records: tuple[ChunkRecord, ...]
    title: str | None = None
    scholar_id: str | None = None
    scholar_name: str | None = None
    tradition: str | None = None


@dataclass(frozen=True)
class Corpus:
    """What a corpus file held: the accepted documents and every problem of the skipped lines."""

    documents: tuple[Document, ...]
    errors: tuple[LineError, ...] = ()
    #: lines that held something (blank lines are not documents)
    lines: int = 0
    skipped_lines: tuple[int, ...] = field(default=())

    @property
    def records(self) -> list[ChunkRecord]:
        return [r for d in self.documents for r in d.records]


def validator() -> Draft202012Validator:
    """The shipped schema of one line, checked itself once."""
    return schemas.validator(SCHEMA)


def read_corpus(path: str | Path) -> Corpus:
    """Read and check ``path``; ``OSError`` when the file cannot be read at all (a FIFO, a device or a folder
    included: :func:`~amicus_desktop.files.open_regular` — a FIFO with no writer hung the command)."""
    with open_regular(path) as fh:
        return parse_lines(fh)


def parse_lines(lines: Iterable[bytes | str]) -> Corpus:
    """Check every line (bytes as read from a file, or text) and keep the good documents."""
    documents: list[Document] = []
    errors: list[LineError] = []
    skipped: list[int] = []
    chunk_lines: dict[str, int] = {}   # chunk id -> the accepted line that holds it
    scholars: dict[str, tuple[int, str | None, str | None]] = {}  # id -> (line, name, tradition)
    count = 0
    for number, raw in enumerate(lines, start=1):
        text, problem = _decode(raw, first=number == 1)
        if problem is None and not text.strip():
            continue
        count += 1
        problems = [problem] if problem else []
        data: Any = None
        if not problems:
            try:
                data = schemas.loads(text)
            except json.JSONDecodeError as exc:
                problems.append(f"not JSON ({exc.msg} at column {exc.colno})")
            except RecursionError:
                problems.append("not JSON (nested too deeply)")
            except schemas.NotJson as exc:  # NaN, Infinity, 1e999
                problems.extend(str(p) for p in exc.problems)
            except ValueError as exc:  # an integer of more than 4,300 digits
                problems.append(f"not JSON ({quote(str(exc), 80)[1:-1]})")
        if not problems:
            problems = (schema_problems(data) or [str(p) for p in schemas.text_problems(data)]
                        or rule_problems(data, chunk_lines, scholars))
        if problems:
            skipped.append(number)
            errors.extend(LineError(number, p) for p in problems[:MAX_PROBLEMS_PER_LINE])
            continue
        doc = _document(number, data)
        documents.append(doc)
        for rec in doc.records:
            chunk_lines[rec.chunk_id] = number
        if doc.scholar_id and doc.scholar_id not in scholars:
            scholars[doc.scholar_id] = (number, doc.scholar_name, doc.tradition)
    return Corpus(tuple(documents), tuple(errors), count, tuple(skipped))


def _decode(raw: bytes | str, *, first: bool) -> tuple[str, str | None]:
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return "", f"not UTF-8 text (byte {exc.start + 1})"
    else:
        text = raw
    if first:
        text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    return text, None


# -- the schema's problems, in words ---------------------------------------------------------------

def schema_problems(data: object) -> list[str]:
    """One sentence per schema problem of a line, in the order of the line's fields."""
    if not isinstance(data, dict):
        return [f"/: a document is a JSON object, not {_kind(data)}"]
    return [str(p) for p in schemas.problems(SCHEMA, data, by_path=True)]


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    return "text"


# -- what a schema cannot say ------------------------------------------------------------------

def rule_problems(data: Mapping[str, Any], chunk_lines: Mapping[str, int],
                  scholars: Mapping[str, tuple[int, str | None, str | None]]) -> list[str]:
    """Books, chapters, verses, repeated chunk ids and one name per scholar (a schema-valid line)."""
    problems: list[str] = []
    scholar_id = data.get("scholar_id")
    for key in ("scholar_name", "tradition"):
        if data.get(key) is not None and not scholar_id:
            problems.append(f"/{key}: needs a scholar_id")
    if isinstance(scholar_id, str) and scholar_id in scholars:
        line, name, tradition = scholars[scholar_id]
        for key, before in (("scholar_name", name), ("tradition", tradition)):
            now = data.get(key)
            if now is not None and before is not None and now != before:
                problems.append(f"/{key}: {quote(now)} differs from {quote(before)} on line {line} "
                                f"for scholar {quote(scholar_id)}")
    in_line: dict[str, int] = {}
    for i, chunk in enumerate(data["chunks"]):
        at = f"/chunks/{i}"
        problems.extend(_place_problems(at, chunk))
        cid = chunk["chunk_id"]
        if is_note_id(cid):
            problems.append(f"{at}/chunk_id: {quote(cid)} is in the notes' id space: ids beginning "
                            f"{NOTE_ID_PREFIX!r} are a reader's notes', never a library chunk's")
        elif cid in in_line:
            problems.append(f"{at}/chunk_id: {quote(cid)} is also /chunks/{in_line[cid]} of this line")
        elif cid in chunk_lines:
            problems.append(f"{at}/chunk_id: {quote(cid)} is already on line {chunk_lines[cid]}")
        in_line.setdefault(cid, i)
    return problems


def _place_problems(at: str, chunk: Mapping[str, Any]) -> list[str]:
    book_id, chapter = chunk.get("book_id"), chunk.get("chapter_num")
    start, end = chunk.get("verse_start"), chunk.get("verse_end")
    out = []
    if book_id is not None and book_id not in BY_ID:
        meant = resolve_book(book_id)
        hint = f" (did you mean {meant!r}?)" if meant else " (lower-case names with hyphens: 'romans', '1-corinthians')"
        out.append(f"{at}/book_id: {quote(book_id)} is not a book of the Bible{hint}")
    elif book_id is not None and chapter is not None and chapter > BY_ID[book_id].chapters:
        book = BY_ID[book_id]
        plural = "s" * (book.chapters > 1)
        out.append(f"{at}/chapter_num: {book.name} has {book.chapters} chapter{plural}, not {chapter}")
    if chapter is not None and book_id is None:
        out.append(f"{at}/chapter_num: a chapter needs a book_id")
    if start is not None and chapter is None:
        out.append(f"{at}/verse_start: a verse needs a chapter_num")
    if end is not None and start is None:
        out.append(f"{at}/verse_end: needs a verse_start")
    elif end is not None and start is not None and end < start:
        out.append(f"{at}/verse_end: {end} comes before verse_start {start}")
    if book_id in BY_ID and chapter is not None and chapter <= BY_ID[book_id].chapters:
        verses = verse_count(book_id, chapter)  # 0: a chapter the verse table does not know
        for key, verse in (("verse_start", start), ("verse_end", end)):
            if verses and verse is not None and verse > verses:
                out.append(f"{at}/{key}: {BY_ID[book_id].name} {chapter} has {verses} verses, not {verse}")
    return out


def _document(line: int, data: Mapping[str, Any]) -> Document:
    scholar_id = data.get("scholar_id")
    tradition = data.get("tradition")
    records = tuple(
        ChunkRecord(
            chunk_id=c["chunk_id"], source_type=data["source_type"], source_id=data["source_id"],
            text=c["text"],
            metadata=ChunkMetadata(
                scholar_id=scholar_id, tradition=tradition, book_id=c.get("book_id"),
                chapter_num=c.get("chapter_num"), verse_start=c.get("verse_start"),
                verse_end=c.get("verse_end"), panel_type=c.get("panel_type"),
            ),
        )
        for c in data["chunks"]
    )
    return Document(line, data["source_id"], data["source_type"], records, data.get("title"),
                    scholar_id, data.get("scholar_name"), tradition)

