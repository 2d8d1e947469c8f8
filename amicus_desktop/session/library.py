"""The scripture database as the app sees it: whether it is usable, its books and its facets. No Qt.

:class:`Library` holds the database's state (:class:`DbState`) and what was read from it when it
opened; :meth:`Library.load` does that reading through an :class:`~.engine.Engine`. A database
that fails (at start, or later while asking) is reported here, whoever noticed it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path

from ..core.books import BOOKS
from ..core.errors import AmicusError, ErrorCode
from ..core.names import DEFAULT_NAMES, Names
from ..core.results import ModelInfo
from ..states import DbState, DbStatus
from ..store.library import LibraryStore
from ..store.scripture import BookRow
from .engine import Engine
from .events import Event

log = logging.getLogger("amicus.session")

#: ``{"scholar_id": [(id, chunks)], "tradition": [(name, chunks)], "source_type": [(type, chunks)]}``:
#: who and what the chunks cite, and what kinds of chunk there are (the filter bar's choices).
Facets = dict[str, list[tuple[str, int]]]


def canonical_books(ids: set[str] | None = None) -> list[BookRow]:
    """Reader books from the built-in canon (for a DB without a ``books`` table)."""
    return [
        BookRow(b.book_id, b.name, b.ordinal, b.chapters)
        for b in BOOKS
        if ids is None or not ids or b.book_id in ids
    ]


@dataclass
class _Contents:
    books: list[BookRow] = field(default_factory=list)
    facets: Facets = field(default_factory=lambda: {"scholar_id": [], "tradition": [], "source_type": []})
    names: Names = DEFAULT_NAMES


class Library:
    """Events: :attr:`changed` (a new :class:`DbState`), :attr:`books_loaded`, :attr:`facets_loaded`."""

    def __init__(self, path: Path) -> None:
        self.state = DbState(DbStatus.LOADING, path)
        self._contents = _Contents()
        self._default = False
        self.changed: Event[DbState] = Event("database state")
        self.books_loaded: Event[list[BookRow]] = Event("books loaded")
        self.facets_loaded: Event[Facets] = Event("facets loaded")

    @property
    def ready(self) -> bool:
        return self.state.ready

    @property
    def books(self) -> list[BookRow]:
        return self._contents.books

    @property
    def facets(self) -> Facets:
        return self._contents.facets

    # -- loading ---------------------------------------------------------------------------
    async def load(self, engine: Engine) -> bool:
        """Open ``engine``'s database and read its books and facets. ``True`` when it is ready;
        ``False`` when it failed or ``engine`` started closing meanwhile (then nothing changes)."""
        self._default = engine.is_default_db
        self._set(DbState(DbStatus.LOADING, engine.db_path))
        try:
            info = await engine.retriever.open()
            if not engine.is_open:  # replaced while opening: its news is stale
                return False
            engine.monitor.set_expected(ModelInfo(info.model_id, info.dims))
            books, facets, ids, names, types = await engine.run_db(
                lambda store: (store.books(), store.facets(), store.book_ids(), store.names(),
                               store.source_type_counts())
            )
        except AmicusError as err:
            if engine.is_open:
                self.fail(err)
            return False
        except Exception as exc:  # a bug must end in the error state, never in "Opening database…" for ever
            log.exception("opening the database failed unexpectedly")
            if engine.is_open:
                self.fail(AmicusError(ErrorCode.DB_INVALID,
                                      f"The database could not be opened ({type(exc).__name__}); see the log."))
            return False
        if not engine.is_open:
            return False
        facets["source_type"] = sorted(types.items())
        self._contents = _Contents(books or canonical_books(ids), facets, names)
        self._set(DbState(DbStatus.READY, engine.db_path, info=info))
        self.books_loaded.emit(self.books)
        self.facets_loaded.emit(self.facets)
        return True

    async def refresh(self, engine: Engine) -> None:
        """A background build wrote another book into this library: read its coverage, facets and source
        types again (the searches see the book already; only what was kept in memory was old)."""
        def read(store: LibraryStore) -> tuple[Facets, dict[str, int]]:
            store.forget_coverage()
            return store.facets(), store.source_type_counts()

        facets, types = await engine.run_db(read)
        if not engine.is_open:
            return
        facets["source_type"] = sorted(types.items())
        self._contents = _Contents(self._contents.books, facets, self._contents.names)
        self.facets_loaded.emit(self.facets)

    def fail(self, err: AmicusError) -> None:
        """The database is unusable: a missing default database is the first run (welcome)."""
        missing = err.code is ErrorCode.DB_NOT_FOUND and self._default
        log.warning("database unavailable", extra={"code": err.code.value})
        self._contents = _Contents(canonical_books(), self.facets)
        self._set(DbState(DbStatus.MISSING if missing else DbStatus.ERROR, self.state.path, error=err))
        self.books_loaded.emit(self.books)

    def _set(self, state: DbState) -> None:
        self.state = state
        self.changed.emit(state)

    # -- lookups ---------------------------------------------------------------------------
    def book(self, book_id: str) -> BookRow | None:
        return next((b for b in self.books if b.book_id == book_id), None)

    @property
    def names(self) -> Names:
        """How this database names its books, scholars and chapters (read once when it opened)."""
        return self._contents.names
