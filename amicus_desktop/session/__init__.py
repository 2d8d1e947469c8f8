"""The desktop app's state and asynchronous work, without Qt (the ``pylib`` half of an Anki-style split).

:class:`Session` (in :mod:`.controller`) composes one part per kind of state —
:class:`Preferences` (settings file, overrides, profile), :class:`Library` (the database),
:class:`Connection` (the proxy), :class:`Reader` (the current chapter), :class:`Commentary` (the
notes on it), :class:`Question` (asking and results), :class:`Search` (mode, filters, pins) — and the
:class:`Engine` that does the I/O for one database and proxy. Widgets never see these directly:
``amicus_desktop/ui/session_signals.py`` re-emits the parts' events as Qt signals. Everything here is
tested as plain Python on an asyncio loop.
"""

from ..states import AskFailure, DbState, DbStatus, InternalError
from .commentary import BROWSE_TYPES, ChapterNotes, Commentary
from .connection import Connection
from .controller import Session
from .engine import Engine, EngineState
from .events import Event
from .history import History
from .library import Facets, Library, canonical_books
from .preferences import Endpoints, Overrides, Preferences
from .question import Cause, Question, ResultView
from .reader import ChapterText, PassageText, Reader
from .search import MODES, Search
from .verses import Verses, VerseView

__all__ = [
    "BROWSE_TYPES",
    "MODES",
    "AskFailure",
    "Cause",
    "ChapterNotes",
    "ChapterText",
    "Commentary",
    "Connection",
    "DbState",
    "DbStatus",
    "Endpoints",
    "Engine",
    "EngineState",
    "Event",
    "Facets",
    "History",
    "InternalError",
    "Library",
    "Overrides",
    "PassageText",
    "Preferences",
    "Question",
    "Reader",
    "ResultView",
    "Search",
    "Session",
    "VerseView",
    "Verses",
    "canonical_books",
]
