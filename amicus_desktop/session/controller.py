""":class:`Session`: the app's state and asynchronous work, composed from its parts. No Qt.

The session is a small composition root. Each kind of state lives in one part:

==================  ===============================================================
``prefs``           :class:`~.preferences.Preferences`: settings file, overrides, profile
``library``         :class:`~.library.Library`: the database's state, books, facets
``connection``      :class:`~.connection.Connection`: the proxy's connectivity
``reader``          :class:`~.reader.Reader`: the current chapter and its text
``commentary``      :class:`~.commentary.Commentary`: the notes on the current chapter
``question``        :class:`~.question.Question`: asking, the results, re-ranking them
``search``          :class:`~.search.Search`: the search mode, filters and pins
``verses``          :class:`~.verses.Verses`: the verses beside the answer, the translation shown
``notebook``        :class:`~.notes.Notebook`: the workspaces, the reader's notes, the note being written
``engine``          :class:`~.engine.Engine`: retriever + monitor for one DB and proxy
==================  ===============================================================

This module holds what spans parts: the engine's life cycle (start, re-open on new settings,
close), the one place a question's :class:`~amicus_desktop.core.query.RetrievalContext` is built
(:meth:`Session.context`, by :func:`~.context.app_context`), and the rules between parts (a chapter
change re-ranks; a database error seen while asking or loading fails the library; the proxy going away
marks results stale; a new mode, filter or pin asks the question on screen again, since they act in
candidate generation). The reader's moves and loads are :class:`~.navigation.Navigation`, a base of
:class:`Session`. Listeners are plain callbacks on each part's :class:`~.events.Event` attributes;
:attr:`Session.changed` fires after any of them, and :meth:`Session.until` awaits a condition on it.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..connectivity import ONLINE_INTERVAL, ProxyState
from ..core.errors import AmicusError
from ..core.query import Filters, Profile, RetrievalContext, SearchMode
from ..core.results import RetrievalResult
from ..embedding import EmbedClient
from ..overlays import Overlay
from ..pin_scopes import SCOPES
from ..settings import Settings, SettingsStore
from ..states import AskFailure
from ..verses import VerseLibrary
from .commentary import Commentary
from .connection import Connection
from .context import app_context
from .engine import Engine
from .events import Event
from .library import Library
from .navigation import Navigation
from .notes import Notebook, NotebookParts
from .preferences import Overrides, Preferences
from .question import Cause, Question
from .reader import Reader
from .search import Search
from .verses import Verses

log = logging.getLogger("amicus.session")

#: Seconds verse search's memory waits at most for the proxy's first answer before it is read anyway, and then
#: for a question asked at launch to be asked (Session._warm_verses).
WARM_WAIT = 10.0
WARM_DELAY = 1.0


class Session(Navigation):
    """State and async work of one window: create, :meth:`start`, and :meth:`aclose` at the end.

    Runs on the current asyncio loop (qasync's in the app, so every listener runs on the Qt thread).
    """

    def __init__(self, store: SettingsStore | None = None, overrides: Overrides | None = None, *,
                 online_interval: float = ONLINE_INTERVAL, **notebook: float) -> None:
        self.prefs = Preferences(store, overrides)
        endpoints = self.prefs.endpoints
        self.library = Library(endpoints.db_path)
        self.connection = Connection(endpoints.proxy_url)
        self.reader = Reader(self.library)
        self.commentary = Commentary()
        self.question = Question(self.context)
        self.search = Search(self.prefs)
        self.verses = Verses()
        self.notebook = Notebook(NotebookParts(self.prefs, self.library, self.connection, self.search, self.question,
                                               self.ask, self._embedder), **notebook)  # (poll=, autosave=: for tests)
        self.engine: Engine | None = None
        self.changed: Event[None] = Event("session changed")
        self._online_interval = online_interval
        self._closing: list[Engine] = []
        self._reopening: asyncio.Task[None] | None = None
        self._closed = False
        self._connect_rules()

    def _embedder(self) -> EmbedClient | None:
        """The embed client of the engine open now (``None`` between engines)."""
        return self.engine.retriever.embedder if self.engine is not None else None

    def _connect_rules(self) -> None:
        """The rules between parts. Connected here, first, so they run before any outside listener."""
        self.connection.went_offline.connect(self._went_offline)
        self.question.answered.connect(self._answered)
        self.question.reask = lambda: self._ask_again("pins")
        self.question.failed.connect(self._ask_failed)
        p, lib, r, q = self.prefs, self.library, self.reader, self.question
        events: list[Event[Any]] = [
            p.changed, p.profile_changed, p.overlay_changed, p.notice, lib.changed, lib.books_loaded, lib.facets_loaded,
            self.connection.changed, r.chapter_changed, r.focus_changed, r.text_loaded, self.commentary.loaded,
            q.busy_changed, q.result_changed, q.failed,
            self.search.mode_changed, self.search.filters_changed, self.search.pins_changed,
            self.verses.translations_loaded, self.verses.translation_changed, self.verses.busy_changed,
            self.verses.result_changed, self.verses.failed, *self.notebook.events,
        ]
        for event in events:
            event.connect(self._notify_changed)

    def _notify_changed(self, _value: object) -> None:
        self.changed.emit(None)

    # -- derived ---------------------------------------------------------------------------
    @property
    def can_ask(self) -> bool:
        """Whether a question can be asked now. Keyword search needs no proxy, but only when the user
        chose it: in an embedding mode an offline proxy disables asking (never a silent fallback)."""
        proxy_ok = self.connection.can_search or not self.search.mode.embeds
        return self.engine is not None and self.library.ready and proxy_ok and not self._closed

    def context(self, query: str) -> RetrievalContext:
        """The retrieval context for ``query`` now: the one place it is built, for asking and re-ranking."""
        chapter = None if self.question.whole_library else self.reader.chapter
        return app_context(self.prefs.settings, query, chapter=chapter, mode=self.search.mode,
                           filters=self.search.filters, pins=self.search.applying(query, chapter),
                           workspace=self.notebook.workspace_id, overlay=self.prefs.overlay)

    async def until(self, condition: Callable[[], bool], timeout: float | None = None) -> bool:
        """Wait until ``condition()`` holds, checking it after every change; ``False`` on timeout.

        The check runs on the loop's next turn, once every listener of the change has run (the
        condition may read state that a later listener updates).
        """
        if condition():
            return True
        loop = asyncio.get_running_loop()
        reached: asyncio.Future[None] = loop.create_future()

        def check() -> None:
            if not reached.done() and condition():
                reached.set_result(None)

        def on_change(_value: None) -> None:
            loop.call_soon(check)

        disconnect = self.changed.connect(on_change)
        try:
            await asyncio.wait_for(reached, timeout)
        except TimeoutError:
            return False
        finally:
            disconnect()
        return True

    # -- life cycle ------------------------------------------------------------------------
    def start(self) -> None:
        """Open the database and start watching the proxy (on the running loop)."""
        self.prefs.announce_load_problem()
        self.notebook.start()
        self._connect()

    def reload(self) -> None:
        """Re-open in the background; a re-open still under way is superseded."""
        if self._reopening is not None:
            self._reopening.cancel()
        self._reopening = asyncio.ensure_future(self.reopen())
        self._reopening.add_done_callback(_log_failure)

    def library_grew(self) -> asyncio.Task[None] | None:
        """The background build wrote another book into the open library: its coverage (what a search says it
        covered) and facets are read again, without re-opening it (the question on screen stays)."""
        engine = self.engine
        return engine.spawn(self.library.refresh(engine)) if engine is not None else None

    async def reopen(self) -> None:
        """Close the engine and open a new one with the current settings; returns once it has loaded."""
        await self._disconnect()
        loading = self._connect()
        if loading is not None:
            await asyncio.wait([loading])

    async def aclose(self) -> None:
        self._closed = True
        if self._reopening is not None:
            self._reopening.cancel()
            await asyncio.wait([self._reopening])
        await self.notebook.aclose()  # the draft is saved while the engine is still there
        await self._disconnect()
        log.info("session closed")

    def _connect(self) -> asyncio.Task[None] | None:
        """A new engine for the current endpoints; returns the task loading its library."""
        if self._closed:
            return None
        e = self.prefs.endpoints
        engine = Engine(e.db_path, e.proxy_url, e.token, online_interval=self._online_interval)
        self.engine = engine
        self.connection.follow(engine.monitor)
        loading = engine.spawn(self._load(engine))
        engine.monitor.start()  # after: the database starts opening before the first probe
        return loading

    async def _load(self, engine: Engine) -> None:
        if await self.library.load(engine):
            with self.failing_library(engine):  # the library opened; a damaged verse table fails the database
                self.verses.translation = self.prefs.settings.translation  # the reader's last choice
                verses = await self.verses.load(engine)  # the translations, before the reader's first chapter
                self.reader.beside = self._remembered_beside()  # the parallel view as the reader left it
                self._restore_chapter()
                engine.spawn(self._warm_verses(engine, verses))

    async def _warm_verses(self, engine: Engine, verses: VerseLibrary) -> None:
        """Verse search's memory (210–280 ms of CPU, ≈ 1 s at the whole Bible, on the database thread), read when
        the window has settled: :data:`WARM_DELAY` after the proxy's first answer, and once a question asked by
        then (``--query``, a quick reader) has its answer. Neither the chapter nor that answer waits for it (a
        verse search before it reads it itself)."""
        await self.until(lambda: self.connection.state.state is not ProxyState.CHECKING, WARM_WAIT)
        await asyncio.sleep(WARM_DELAY)
        await self.until(lambda: not self.question.in_flight)
        with self.failing_library(engine):
            await self.verses.warm(engine, verses)

    async def _disconnect(self) -> None:
        """Close the engine. One whose close was interrupted (its caller cancelled) is finished here."""
        engine, self.engine = self.engine, None
        self.question.cancel()
        self.verses.cancel()
        self.connection.unfollow()
        if engine is not None:
            self._closing.append(engine)
        while self._closing:
            closing = self._closing[0]
            await closing.aclose()
            if self._closing and self._closing[0] is closing:
                self._closing.pop(0)

    # -- asking ----------------------------------------------------------------------------
    def ask(self, text: str) -> asyncio.Task[None] | None:
        """Ask ``text``; a question in flight is superseded. Returns the task, or ``None`` when the
        question is invalid (:attr:`Question.failed` says why) or asking is not possible now."""
        if not self.question.check(text):
            return None
        if not self.can_ask or self.engine is None:
            return None
        self._new_question(text)
        return self.question.ask(self.engine, text, before=self.notebook.before_asking())

    def _new_question(self, text: str) -> None:
        """The whole-library choice is per question: a different question is ranked for the open chapter
        again (the same one asked again keeps the choice)."""
        view = self.question.view
        if self.question.whole_library and (view is None or view.result.query.strip() != text.strip()):
            self.question.whole_library = False

    def set_whole_library(self, whole: bool) -> bool:
        """Rank the question on screen for the whole library (``True``) or for the open chapter again, from
        its kept candidates (undoably); the next question is ranked for the open chapter. ``False`` when
        nothing changed (already so, or no chapter is open to turn off)."""
        if self.question.view is None or (whole and self.reader.chapter is None):
            return False
        return self.question.set_whole_library(whole)

    def toggle_whole_library(self) -> bool:
        return self.set_whole_library(not self.question.whole_library)

    def _ask_verses(self, text: str) -> None:
        """The verses beside the answer: the same text, mode and book filters, in the reader's translation.
        Asked once the answer is in (:meth:`_answered`): its vector is then in the embed client's cache, so
        the verses cost no second request to the proxy. Not asked again for the same search."""
        view, mode, books = self.verses.view, self.search.mode, self.search.filters.books
        if view is not None and not self.verses.busy and (view.result.query, view.result.mode,
                                                          view.result.trace.books, view.result.translation) == (
                text, mode, books, self.verses.current.translation_id if self.verses.current else None):
            return
        if self.engine is not None:
            self.verses.ask(self.engine, text, mode, books)

    def _answered(self, result: RetrievalResult) -> None:
        if result.mode.embeds:  # a keyword answer says nothing about the proxy
            self.connection.report_success(result.model)
        self._ask_verses(result.query)

    def _went_offline(self, _state: object) -> None:
        view = self.question.view
        if view is None or view.result.mode.embeds:  # keyword results never needed the proxy
            self.question.mark_stale()

    def _ask_again(self, cause: Cause = "ask") -> asyncio.Task[None] | None:
        """Ask the question on screen again with the current mode, filters and pins (when possible)."""
        view = self.question.view
        if view is None or not self.can_ask or self.engine is None:
            return None
        return self.question.ask(self.engine, view.result.query, cause)

    # -- searching -------------------------------------------------------------------------
    def set_mode(self, mode: SearchMode) -> asyncio.Task[None] | None:
        """Search in ``mode`` from now on (saved); the question on screen is asked again in it."""
        return self._ask_again() if self.search.set_mode(mode) else None

    def cycle_mode(self) -> asyncio.Task[None] | None:
        return self.set_mode(self.search.next_mode())

    def set_filters(self, filters: Filters) -> asyncio.Task[None] | None:
        """Search only chunks matching ``filters``; the question on screen is asked again (filters act
        inside candidate generation, so a re-rank would not do), unless asking is impossible now."""
        return self._ask_again() if self.search.set_filters(filters) else None

    def toggle_pin(self, chunk_id: str) -> asyncio.Task[None] | None:
        """Pin ``chunk_id`` for questions like the one on screen (the narrow default), or unpin it (saved), and
        ask again, so pinned results come first."""
        view = self.question.view
        self.search.toggle_pin(chunk_id, question=view.result.query if view else "", chapter=self.reader.chapter)
        return self._ask_again("pins")

    def pin(self, chunk_id: str, scope: str) -> asyncio.Task[None] | None:
        """Pin ``chunk_id`` for ``scope`` — ``question`` (like the one on screen), ``passage`` (the open
        chapter) or ``always`` — (saved; a pinned one changes scope) and ask again."""
        if scope not in SCOPES:
            raise ValueError(f"unknown pin scope {scope!r}")
        view = self.question.view
        self.search.pin(chunk_id, scope, question=view.result.query if view else "", chapter=self.reader.chapter)
        return self._ask_again("pins")

    def clear_pins(self) -> asyncio.Task[None] | None:
        return self._ask_again("pins") if self.search.set_pins(()) else None

    def _ask_failed(self, failure: AskFailure) -> None:
        if isinstance(failure, AmicusError):
            self.connection.report_error(failure)
            if failure.is_database:
                self.library.fail(failure)

    # -- the translation ---------------------------------------------------------------------
    def set_translation(self, translation_id: str | None) -> None:
        """Show the reader's text in ``translation_id`` and search the verses in it (the question on
        screen is searched again: the words searched and the text shown are the translation's)."""
        if not self.verses.set_translation(translation_id):
            return
        self.prefs.remember_translation(translation_id)
        self._load_current_text()
        view = self.question.view
        if view is not None and self.can_ask:
            self._ask_verses(view.result.query)

    # -- preferences -----------------------------------------------------------------------
    def set_profile(self, profile: Profile) -> None:
        """Save ``profile`` and re-rank the current results with it (no re-embedding)."""
        if self.prefs.set_profile(profile):
            self.question.rerank("profile")

    def set_overlay(self, overlay: Overlay | None, *, whole: bool = False) -> asyncio.Task[None] | None:
        """Use (and save) ``overlay``, or none — ``whole`` (an imported file): its preferred sources become the
        profile. The answer on screen follows: asked again when the boosted words changed and the mode
        searches by words (they join the keyword search), else re-ranked."""
        terms = self.prefs.overlay.boost_terms if self.prefs.overlay else ()
        p = self.prefs
        if not (p.adopt_overlay(overlay) if whole and overlay is not None else p.set_overlay(overlay)):
            return None
        words_changed = terms != (p.overlay.boost_terms if p.overlay else ())
        task = self._ask_again("overlay") if words_changed and self.search.mode is not SearchMode.SEMANTIC else None
        if task is None:
            self.question.rerank("overlay")
        return task

    def apply_settings(self, settings: Settings) -> None:
        """Save new settings; reconnect if the DB, proxy or token changed, else re-rank."""
        if self.prefs.apply(settings):
            self._reconnect()
        else:
            self.question.rerank("settings")

    def open_database(self, path: str | Path) -> None:
        """Use the database at ``path`` from now on (saved) and open it, even if it is the same file."""
        self.prefs.use_database(path)
        self.search.set_filters(Filters())  # another database: its books and scholars may differ
        self._reconnect()

    def _reconnect(self) -> None:
        """New endpoints: the question in flight and the results on screen belong to the old ones."""
        self.question.cancel()
        self.question.clear()
        self.verses.clear()
        self.reload()


def _log_failure(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("re-opening failed", exc_info=task.exception())
