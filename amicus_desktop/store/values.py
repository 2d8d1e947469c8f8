"""Row values as the app's types: coerced when nothing is lost, refused by name otherwise.

A database from elsewhere may declare ``chunk_metadata`` without column types, so SQLite hands back
whatever was stored. ``3.0`` or ``'3'`` in an integer column is ``3``; a number in a text column is
its text (``45`` → ``'45'``); a BLOB anywhere, ``'three'`` or ``3.5`` in an integer column and NULL
in a required text column are ``DB_INVALID``, naming the column and the chunk. Every value the
reader hands out goes through here, so a ``book_id`` is a ``str`` whichever method returned it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.errors import AmicusError
from ..core.results import ChunkMetadata
from .errors import invalid

#: ``(chunk_id, source_type, source_id, text, metadata)`` of one chunk.
ChunkRow = tuple[str, str, str, str, ChunkMetadata]


def chunk_row(path: Path, row: Sequence[Any]) -> ChunkRow:
    """A row selected with :data:`~.schema.CHUNK_SELECT` (its rowid first) as a :data:`ChunkRow`."""
    chunk_id = text(path, row[1], "chunk_text.chunk_id", row[0])
    source_type, source_id, body = (
        text(path, v, f"chunk_text.{c}", chunk_id)
        for v, c in zip(row[2:5], ("source_type", "source_id", "text"), strict=True)
    )
    scholar, tradition, book, chapter, start, end, panel = row[5:12]
    meta = ChunkMetadata(
        scholar_id=opt_text(path, scholar, "chunk_metadata.scholar_id", chunk_id),
        tradition=opt_text(path, tradition, "chunk_metadata.tradition", chunk_id),
        book_id=opt_text(path, book, "chunk_metadata.book_id", chunk_id),
        chapter_num=opt_int(path, chapter, "chunk_metadata.chapter_num", chunk_id),
        verse_start=opt_int(path, start, "chunk_metadata.verse_start", chunk_id),
        verse_end=opt_int(path, end, "chunk_metadata.verse_end", chunk_id),
        panel_type=opt_text(path, panel, "chunk_metadata.panel_type", chunk_id),
    )
    return chunk_id, source_type, source_id, body, meta


def text(path: Path, value: object, column: str, chunk: object = None) -> str:
    """A required text value: a number becomes its text; NULL or a BLOB is ``DB_INVALID``."""
    found = opt_text(path, value, column, chunk)
    if found is None:
        raise bad_value(path, value, column, chunk, "text")
    return found


def opt_text(path: Path, value: object, column: str, chunk: object = None) -> str | None:
    """An optional text value (NULL stays ``None``)."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return str(value)
    raise bad_value(path, value, column, chunk, "text")


def opt_int(path: Path, value: object, column: str, chunk: object = None) -> int | None:
    """An optional whole number: ``3.0`` and ``' 3'`` are ``3``; ``3.5`` or ``'three'`` is ``DB_INVALID``."""
    if value is None or isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,18}\s*", value):
        return int(value)
    raise bad_value(path, value, column, chunk, "an integer")


def bad_value(path: Path, value: object, column: str, chunk: object, wanted: str) -> AmicusError:
    kind = "a BLOB" if isinstance(value, bytes) else "NULL" if value is None else repr(value)[:40]
    where = (
        "a row" if chunk is None else f"row {chunk}" if isinstance(chunk, int) else f"chunk {str(chunk)[:80]!r}"
    )
    return invalid(
        f"{path.name} is damaged: {column} of {where} holds {kind}, not {wanted}. "
        "Rebuild it with 'amicus-desktop build-db' or fix that row."
    )
