"""Embedding a workspace's notes with the library's model, whenever the proxy can be reached.

A note is saved first and embedded after, so a proxy that is away never loses a note: it stays
*pending* (searched by words only, the bundle says ``notes_pending``) until a ``notes`` command or a
question reaches the proxy again. A change of the library's model makes every note pending for the
new model — vectors are kept per model and only ever compared with their own model's.

Notes go to the proxy in batches of :data:`~amicus_desktop.embedding.client.MAX_PER_REQUEST` through
:meth:`EmbedClient.embed_batch`, which keeps nothing: the client's cache holds questions only, so a
note's text never sits where a request of another workspace could meet it. Only a note's opening
(:data:`~.model.EMBED_CHARS`) is sent. Nothing here logs text.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

import numpy as np

from ..core.errors import AmicusError
from ..core.results import ModelInfo
from ..embedding.client import MAX_PER_REQUEST, EmbedClient, mismatch_error
from .model import EMBED_CHARS, Note
from .workspace import Workspace

log = logging.getLogger("amicus.notes")

T = TypeVar("T")


class OnWorkspace(Protocol):
    """Runs a function of the workspace where its store lives (the database thread, or inline)."""

    def __call__(self, fn: Callable[[Workspace], T], /) -> Awaitable[T]: ...


@dataclass(frozen=True)
class EmbedOutcome:
    """How far embedding got: notes ``embedded`` now, notes still ``pending``, and why it stopped
    early (``code`` and a ``problem`` sentence) when it did."""

    embedded: int
    #: ``None`` when it is not known (the library, and so its model, could not be read)
    pending: int | None
    code: str | None = None
    problem: str | None = None


def inline(ws: Workspace) -> OnWorkspace:
    """An :class:`OnWorkspace` for a store used on the caller's own thread (the CLI)."""

    async def run(fn: Callable[[Workspace], T], /) -> T:
        return fn(ws)

    return run


def _pending(model_id: str, size: int) -> Callable[[Workspace], list[Note]]:
    return lambda ws: ws.pending(model_id, limit=size)


def _keep(model_id: str, pairs: list[tuple[Note, np.ndarray]]) -> Callable[[Workspace], int]:
    return lambda ws: ws.store_vectors(model_id, pairs)


async def embed_pending(on_workspace: OnWorkspace, client: EmbedClient, library: ModelInfo, *,
                        limit: int | None = None) -> EmbedOutcome:
    """Embed the workspace's notes that have no vector of the ``library``'s model (at most ``limit``).

    Stops at the first failure: ``OFFLINE``/``EMBED_FAILED`` from the proxy, or a proxy serving another
    model than the library's (its vectors would never be compared with anything).
    """
    done = stalled = 0
    code = problem = None
    while (limit is None or done < limit) and stalled < 3:
        size = MAX_PER_REQUEST if limit is None else min(MAX_PER_REQUEST, limit - done)
        # (methods of the workspace it is given: a PostgreSQL workspace has its own, .pgworkspace)
        batch = await on_workspace(_pending(library.id, size))
        if not batch:
            break
        try:
            model, vectors = await client.embed_batch([n.text[:EMBED_CHARS] for n in batch])
        except AmicusError as exc:
            code, problem = exc.code.value, exc.message
            break
        wrong = mismatch_error(model, library)
        if wrong is not None:
            code, problem = wrong.code.value, wrong.message
            break
        pairs = list(zip(batch, vectors, strict=True))
        kept = await on_workspace(_keep(library.id, pairs))
        done += kept
        stalled = 0 if kept else stalled + 1  # a batch that all changed meanwhile is read again
    left = await on_workspace(lambda ws: ws.pending_count(library.id))
    log.info("notes embedded", extra={"embedded": done, "pending": left, "code": code})
    return EmbedOutcome(done, left, code, problem)
