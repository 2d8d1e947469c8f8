"""A library's content id: ``lib-`` and 20 hex digits that name what the library holds (CONTRACT section 10).

It is the first 20 hex digits of the SHA-256 over the library's model and dimensions, its schema version, and
every chunk in rowid order — its id, source type, source id and text. Two builds of the same material with the
same model have the same id (the random ``build_id`` and the build time are not in it); a chunk changed, added
or removed, or another model, gives another.

**Computed once, where the library is written.** The tools that write chunks store it in ``db_meta`` under
:data:`CONTENT_ID_KEY`: ``build-db`` as it finishes (:class:`~.writer.ScriptureWriter`), ``build-db --resume``
when the last book is in (:class:`~.growing.GrowingLibrary`: a library still growing has none, since each book
changes it), ``ingest`` in the copy it renames into place (:class:`~.update.LibraryUpdate`). A reader takes the
stored id (:func:`library_id`: nothing to read but ``db_meta``, already read at open) and computes it only for a
library that lacks one — built before this, still growing, or written by another program — through the
:class:`~.library.LibraryStore` it has (:func:`computed`): the same digest (:func:`digest`) over the same
values, so both ways give the same id (``tests/store/test_content_id.py``). The app still never writes a
library: a computed id stays in memory. Measured in docs/PERFORMANCE.md ("The library's content id").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import apsw

from ..core.query import Filters
from . import values
from .library import LibraryStore

#: ``db_meta`` key of the stored content id (a project extension of CONTRACT section 3's table)
CONTENT_ID_KEY = "content_id"
#: chunks read at a time while hashing through a store
HASH_BATCH = 2000


def _compact(data: Any) -> str:
    """Compact JSON, as the MCP answers write it (:func:`amicus_desktop.mcp.sizing.compact`)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def digest(model_id: str, dims: int, schema_version: str, chunks: Iterable[tuple[str, str, str, str]]) -> str:
    """The content id of a library of this model, dimensions and schema version holding ``chunks`` —
    ``(chunk id, source type, source id, text)`` in rowid order."""
    h = hashlib.sha256()
    h.update(_compact({"model": model_id, "dims": dims, "schema_version": schema_version}).encode("utf-8"))
    for chunk in chunks:
        h.update(_compact(list(chunk)).encode("utf-8"))
        h.update(b"\n")
    return "lib-" + h.hexdigest()[:20]


def computed(store: LibraryStore) -> str:
    """(DB thread) The content id of ``store``'s library, read chunk by chunk (the fallback: slow)."""
    info = store.info

    def chunks() -> Iterable[tuple[str, str, str, str]]:
        rowids = store.allowed_rowids(Filters())
        for start in range(0, len(rowids), HASH_BATCH):
            part = rowids[start:start + HASH_BATCH]
            rows = store.fetch(part)
            for rowid in part:
                chunk_id, source_type, source_id, text, _meta = rows[rowid]
                yield chunk_id, source_type, source_id, text

    return digest(info.model_id, info.dims, info.schema_version, chunks())


def computed_in(con: apsw.Connection, path: Path) -> str:
    """The content id of the library open on ``con`` (inside a writer's transaction: its own writes
    included), from its ``db_meta`` and ``chunk_text``, read as a store reads them."""
    meta = {str(k): str(v) for k, v in con.execute("SELECT key, value FROM db_meta")}
    rows = ((values.text(path, cid, "chunk_text.chunk_id", rowid),
             values.text(path, st, "chunk_text.source_type", cid),
             values.text(path, sid, "chunk_text.source_id", cid),
             values.text(path, text, "chunk_text.text", cid))
            for rowid, cid, st, sid, text in con.execute(
                "SELECT rowid, chunk_id, source_type, source_id, text FROM chunk_text ORDER BY rowid"))
    return digest(meta["embedding_model"], int(meta["embedding_dims"]), meta["schema_version"], rows)


def store_in(con: apsw.Connection, path: Path) -> str:
    """Compute the content id of the library open on ``con`` and keep it in its ``db_meta`` (a writer's,
    inside its transaction, after its last chunk and its ``db_meta`` are written). Returns it."""
    found = computed_in(con, path)
    con.execute("INSERT OR REPLACE INTO db_meta VALUES (?, ?)", (CONTENT_ID_KEY, found))
    return found


def forget_in(con: apsw.Connection) -> None:
    """Drop a stored content id the writer's change makes wrong (a growing library's next book)."""
    con.execute("DELETE FROM db_meta WHERE key = ?", (CONTENT_ID_KEY,))


def library_id(store: LibraryStore) -> str:
    """(DB thread) The content id of ``store``'s library: the one its builder stored, else computed."""
    stored = store.info.meta.get(CONTENT_ID_KEY)
    return stored if stored else computed(store)
