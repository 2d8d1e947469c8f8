"""The chunk a curator selected in any workbench table, to read before grading it. No Qt.

A row of the what-if ranking or an A/B side carries its chunk; a row of a queue (the gaps, the
disagreements) names only a chunk id, so the chunk is read from the open database on its thread. Either
way :attr:`Workbench.previewed` announces it (``None``: no chunk, or one this database does not hold).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.errors import AmicusError
from ...core.names import Names
from ...core.results import Candidate
from ...present.titles import title
from ...store.library import LibraryStore
from ..engine import Engine

if TYPE_CHECKING:
    from .facade import Workbench


def read_chunk(store: LibraryStore, chunk_id: str) -> Candidate | None:
    """(DB thread) The chunk ``chunk_id`` as a candidate with nothing measured, or ``None``."""
    rowid = store.rowids_for([chunk_id]).get(chunk_id)
    if rowid is None:
        return None
    row = store.fetch([rowid]).get(rowid)
    if row is None:
        return None
    return Candidate(rowid, *row[:4], metadata=row[4], distance=None)


def read_titles(store: LibraryStore, chunk_ids: list[str], names: Names) -> dict[str, str]:
    """(DB thread) The title of each of ``chunk_ids`` the database holds, as a result row names it."""
    rowids = store.rowids_for(chunk_ids)
    rows = store.fetch(list(rowids.values()))
    found: dict[str, str] = {}
    for chunk_id, rowid in rowids.items():
        row = rows.get(rowid)
        if row is not None:
            found[chunk_id] = title(Candidate(rowid, *row[:4], metadata=row[4], distance=None), names)
    return found


class PreviewJob:
    """:attr:`chunk_id` and :attr:`candidate`: what the preview shows."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.chunk_id: str | None = None
        self.candidate: Candidate | None = None

    def show(self, chunk_id: str | None, candidate: Candidate | None = None) -> None:
        """Preview ``chunk_id`` (its ``candidate`` when the caller has it, else read from the database)."""
        self.chunk_id = chunk_id
        if candidate is not None or chunk_id is None:
            self._shown(candidate)
            return
        engine = self._bench.session.engine
        if engine is None or not self._bench.session.library.ready:
            self._shown(None)
            return
        engine.spawn(self._read(engine, chunk_id))

    async def _read(self, engine: Engine, chunk_id: str) -> None:
        try:
            candidate = await engine.run_db(lambda store: read_chunk(store, chunk_id))
        except AmicusError:
            candidate = None
        if self.chunk_id == chunk_id:  # not overtaken by another selection
            self._shown(candidate)

    def _shown(self, candidate: Candidate | None) -> None:
        self.candidate = candidate
        self._bench.previewed.emit(candidate)
