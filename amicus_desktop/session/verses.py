"""The verses beside the answer: verse search for the question asked, and the translation the reader shows. No Qt.

:class:`Verses` asks the question's verse search (CONTRACT section 14) through the engine's
:class:`~amicus_desktop.verses.VerseSearch` whenever the session asks the question — the same text, mode
and book filters, in the translation the reader shows — and holds the answer as a :class:`VerseView`.
One search at a time: a newer question supersedes the one in flight. A database without verse vectors
answers a search by meaning with ``VERSES_NOT_INDEXED``: :attr:`Verses.failed` says so, and a keyword
search still works. The translations come from the database (:meth:`load`); :attr:`translation` is the
one the reader shows and verse search runs on.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from .. import logs
from ..core.errors import AmicusError
from ..core.query import SearchMode
from ..states import AskFailure, InternalError
from ..store.verses import Translation
from ..verses import VerseLibrary, VerseQuery, VerseSearch, VerseSearchResult
from ..verses.memory import VerseMemory
from .engine import Engine
from .events import Event

log = logging.getLogger("amicus.session")


@dataclass(frozen=True)
class VerseView:
    """The verses on screen: the answer and the translation it was searched and shown in."""

    result: VerseSearchResult


class Verses:
    """Events: :attr:`translations_loaded`, :attr:`translation_changed`, :attr:`busy_changed`,
    :attr:`result_changed` (what to show, or ``None``), :attr:`failed`."""

    def __init__(self) -> None:
        self.translations: tuple[Translation, ...] = ()
        #: the translation the reader shows and verse search runs on (``None``: the database's default)
        self.translation: str | None = None
        self.view: VerseView | None = None
        self.failure: AskFailure | None = None
        self.busy = False
        self._task: asyncio.Task[None] | None = None
        self.translations_loaded: Event[tuple[Translation, ...]] = Event("translations loaded")
        self.translation_changed: Event[str | None] = Event("translation changed")
        self.busy_changed: Event[bool] = Event("verses busy")
        self.result_changed: Event[VerseView | None] = Event("verses")
        self.failed: Event[AskFailure] = Event("verses failed")

    @property
    def current(self) -> Translation | None:
        """The translation shown now (the default until one is chosen)."""
        wanted = self.translation
        return next((t for t in self.translations if t.translation_id == wanted or (wanted is None and t.default)),
                    None)

    async def load(self, engine: Engine) -> VerseLibrary:
        """Read which translations the database holds (a choice it does not hold falls back to the default)."""
        library = await VerseSearch(engine.retriever).library()
        self.translations = library.translations
        if self.translation is not None and self.current is None:
            self.translation = None
        self.translations_loaded.emit(self.translations)
        return library

    async def warm(self, engine: Engine, library: VerseLibrary) -> None:
        """Read what verse search keeps in memory now, so the first question does not wait for it (≈ 1 s
        for the whole Bible, on the database thread, while the reader's chapter is already shown)."""
        if library.verses:
            vectors = library.has_vectors
            await engine.run_db(lambda store: VerseMemory.for_store(store, vectors=vectors))

    def set_translation(self, translation_id: str | None) -> bool:
        """Show and search ``translation_id`` from now on; ``True`` when that changed it."""
        if translation_id == self.translation or (
                translation_id is not None and translation_id not in {t.translation_id for t in self.translations}):
            return False
        self.translation = translation_id
        self.translation_changed.emit(translation_id)
        return True

    def ask(self, engine: Engine, text: str, mode: SearchMode, books: tuple[str, ...]) -> asyncio.Task[None] | None:
        """Search the verses for ``text``, superseding a search in flight."""
        self.cancel()
        query = VerseQuery(text, mode, books, translation=self.translation)
        self._task = engine.spawn(self._run(engine, query))
        return self._task

    def cancel(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
        self._set_busy(False)

    def clear(self) -> None:
        self.cancel()
        self.failure = None
        self._show(None)

    async def _run(self, engine: Engine, query: VerseQuery) -> None:
        self._set_busy(True)
        try:
            result = await VerseSearch(engine.retriever).search(query)
        except asyncio.CancelledError:
            if asyncio.current_task() is self._task:
                self._set_busy(False)
            return
        except AmicusError as err:
            self._fail(err)
            return
        except Exception as exc:  # a bug in Amicus Desktop: say so
            log.exception("verse search crashed")
            self._fail(InternalError(type(exc).__name__, logs.log_file()))
            return
        if asyncio.current_task() is not self._task:
            return
        self._set_busy(False)
        self.failure = None
        self._show(VerseView(result))

    def _fail(self, failure: AskFailure) -> None:
        if asyncio.current_task() is not self._task:
            return
        self._set_busy(False)
        self.failure = failure
        self.view = None
        self.failed.emit(failure)

    def _set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self.busy_changed.emit(busy)

    def _show(self, view: VerseView | None) -> None:
        self.view = view
        self.result_changed.emit(view)
