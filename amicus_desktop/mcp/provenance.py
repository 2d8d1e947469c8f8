"""Where an answer comes from (CONTRACT section 10): the library's id, its model, the overlay and workspace.

**The library's id** is built from its content (:mod:`amicus_desktop.store.content_id`): ``lib-`` and 20 hex
digits of the SHA-256 over its model, dimensions, schema version and every chunk. Its builder stores it in the
library, so reading it costs nothing; a library without it (built before, still growing) has it computed
once per library file (its size, time and inode; a replaced file is read again) on the library's database
thread, on its first call — 2.5–4 s for the whole Bible's 61,704 chunks. No Qt.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .. import __version__
from ..serve.library import Facts, Library
from ..serve.scope import Scope
from ..store.content_id import library_id
from ..store.library import LibraryStore


class LibraryIds:
    """The id of each library file seen, by its size, time and inode (read again when it changes)."""

    def __init__(self) -> None:
        self._known: dict[tuple[str, int, int, int], tuple[str, str, int]] = {}

    def _of(self, store: LibraryStore, _facts: Facts) -> tuple[str, str, int]:
        try:
            st = os.stat(store.path)
        except OSError:  # a library in a database (store/pg/): the content id its export stored, read at open
            return library_id(store), store.info.model_id, store.info.dims
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
