"""Where an answer comes from (CONTRACT section 10): the library's id, its model, the overlay and workspace.

**The library's id** is built from its content: ``lib-`` and the first 20 hex digits of the SHA-256 over
the library's model and dimensions, its schema version, and every chunk in rowid order — its id, source
type, source id and text. Two builds of the same material with the same model have the same id (the random
``build_id`` and the build time are not in it); a chunk changed, added or removed, or another model, gives
another. It is read once per library file (its size, time and inode; a replaced file is read again) on the
library's database thread: about a second per 100,000 chunks. No Qt.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from typing import Any

from .. import __version__
from ..serve.library import Facts, Library
from ..serve.scope import Scope
from ..store.library import LibraryStore
from ..store.validate import StoreInfo
from .sizing import compact

#: chunks read at a time while hashing
HASH_BATCH = 2000


def library_id(store: LibraryStore) -> str:
    """(DB thread) The content id of ``store``'s library (module docstring)."""
    info: StoreInfo = store.info
    h = hashlib.sha256()
    h.update(compact({"model": info.model_id, "dims": info.dims, "schema_version": info.schema_version}).encode())
    from ..core.query import Filters

    rowids = store.allowed_rowids(Filters())
    for start in range(0, len(rowids), HASH_BATCH):
        part = rowids[start:start + HASH_BATCH]
        rows = store.fetch(part)
        for rowid in part:
            chunk_id, source_type, source_id, text, _meta = rows[rowid]
            h.update(compact([chunk_id, source_type, source_id, text]).encode("utf-8"))
            h.update(b"\n")
    return "lib-" + h.hexdigest()[:20]


class LibraryIds:
    """The id of each library file seen, by its size, time and inode (read again when it changes)."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, int, int, int], tuple[str, str, int]] = {}

    def _of(self, store: LibraryStore, _facts: Facts) -> tuple[str, str, int]:
        st = os.stat(store.path)
        key = (str(store.path), st.st_ino, st.st_mtime_ns, st.st_size)
        found = self._known.get(key)
        if found is None:
            found = (library_id(store), store.info.model_id, store.info.dims)
            self._known = {key: found}  # one library per server: the last file seen
        return found

    async def provenance(self, library: Library, scope: Scope,
                         model: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """``{"id", "model": {"id", "dims"}, "overlay", "workspace", "server"}`` of an answer; ``model``
        the one the answer names when it names one (the library's otherwise)."""
        lib_id, model_id, dims = await library.read(self._of)
        return {"id": lib_id, "model": dict(model) if model else {"id": model_id, "dims": dims},
                "overlay": scope.overlay.role_id if scope.overlay is not None else None,
                "workspace": scope.workspace, "server": f"amicus-desktop {__version__}"}
