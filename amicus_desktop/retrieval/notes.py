"""The reader's notes in a :class:`~amicus_desktop.retrieval.pipeline.Retriever`: the store, opened on the
database thread the first time a question is scoped to a workspace, and the two steps a scoped
question adds (CONTRACT section 11):

* while searching, gather the workspace's notes beside the library's chunks and join the two pools
  (:mod:`amicus_desktop.candidates.notes`);
* when that search met notes with no vector of the library's model yet (in ``semantic`` and
  ``hybrid``), embed up to :data:`CATCH_UP` of them (one request to the proxy that just embedded the
  question) and search again; a failure leaves them pending — never fails the question — and the
  workspace's questions leave them alone for a minute.

A question without a workspace never opens the store: no note can be a candidate.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Protocol, TypeVar

import numpy as np

from ..candidates.notes import gather_notes, join
from ..candidates.pool import Pool, gather
from ..core.query import RetrievalContext
from ..core.results import ModelInfo
from ..embedding.client import EmbedClient
from ..notes import NotesStore, Workspace
from ..notes.embedding import embed_pending
from ..notes.postgres import PgNotesStore, open_store
from ..notes.store import store_errors
from ..store.library import LibraryStore
from ..understand.query import QueryPlan

T = TypeVar("T")


class OnThread(Protocol):
    """Runs a function on the retriever's database thread and awaits it."""

    def __call__(self, fn: Callable[[], T], /) -> Awaitable[T]: ...


#: Pending notes a question embeds before it searches (one request to the proxy).
CATCH_UP = 64
#: Seconds a workspace's questions leave its pending notes alone after embedding them failed.
QUIET_AFTER_FAILURE = 60.0


class RetrieverNotes:
    """The notes store of one retriever; every method but :meth:`catch_up` runs on its database thread."""

    def __init__(self, path: Path | str | None = None) -> None:
        self._path = path  # a file, or a postgresql:// URL (amicus_desktop.notes.postgres)
        self._store: NotesStore | PgNotesStore | None = None
        #: workspace → when a catch-up may be tried again after one failed (monotonic seconds)
        self._quiet_until: dict[str, float] = {}

    def workspace(self, workspace_id: str) -> Workspace:
        if self._store is None:
            self._store = open_store(self._path)
        return self._store.workspace(workspace_id)

    def gather(self, store: LibraryStore, plan: QueryPlan, ctx: RetrievalContext, vector: np.ndarray | None,
               model_id: str, two_stage: str | None) -> tuple[Pool, int | None]:
        """The library's pool, joined by the workspace's notes when ``ctx`` names one; and how many of them
        are pending (``None`` without a workspace)."""
        pool = gather(store, plan, ctx, vector, two_stage=two_stage)
        if ctx.workspace is None:
            return pool, None
        with store_errors():
            notes = gather_notes(self.workspace(ctx.workspace).search(), plan, ctx, vector, model_id)
        return join(pool, notes, ctx.pins), notes.pending

    async def catch_up(self, run: OnThread, workspace_id: str,
                       embedder: EmbedClient, library: ModelInfo) -> bool:
        """Embed up to :data:`CATCH_UP` pending notes of the workspace (``run`` runs on the DB thread);
        whether any was.

        After a failure the workspace's questions do not try again for :data:`QUIET_AFTER_FAILURE` seconds:
        a proxy that answers questions but refuses notes must not cost every question its retry.
        """
        if time.monotonic() < self._quiet_until.get(workspace_id, 0.0):
            return False

        def guarded(fn: Callable[[Workspace], T]) -> T:
            with store_errors():
                return fn(self.workspace(workspace_id))

        async def on_workspace(fn: Callable[[Workspace], T], /) -> T:
            return await run(lambda: guarded(fn))

        outcome = await embed_pending(on_workspace, embedder, library, limit=CATCH_UP)
        if outcome.code is not None:
            self._quiet_until[workspace_id] = time.monotonic() + QUIET_AFTER_FAILURE
        return outcome.embedded > 0

    def close(self) -> None:
        store, self._store = self._store, None
        if store is not None:
            store.close()
