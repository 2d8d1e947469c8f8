"""What each state and error means to the user, and what they can do about it. No Qt.

Every error code of CONTRACT section 5 has its own title and advice here; the engine's message
(which already says what happened) is shown beneath the title. This is the one home of the app's
sentences about states (the database, the proxy, asking, empty panes); the words for what the
engine computed (scores, boosts, rejections, timings) are in ``describe.py``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..config import PROXY_URL_ENV
from ..connectivity import Connectivity, ProxyState
from ..core.errors import AmicusError, ErrorCode
from ..core.query import SearchMode
from ..core.results import WarningCode
from ..states import DbState, DbStatus, InternalError
from .notes import pending_text
from .sentences import shorten

# Actions the UI knows how to perform (buttons are made from these ids).
RETRY = "retry"
SETTINGS = "settings"
OPEN_DB = "open_db"
BUILD_DEMO = "build_demo"
RELOAD = "reload"
KEYWORD = "keyword"  # switch the search mode to keyword (the offline banner's explicit choice)

ACTION_LABELS = {
    RETRY: "Retry now",
    SETTINGS: "Settings…",
    OPEN_DB: "Open a database…",
    BUILD_DEMO: "Build the demo database",
    RELOAD: "Try again",
    KEYWORD: "Search by words instead",
}


@dataclass(frozen=True)
class StateText:
    """``kind`` is ``info``/``warning``/``error``; ``actions`` are ids from :data:`ACTION_LABELS`;
    ``countdown`` says when the proxy is checked next (it changes every second while shown)."""

    kind: str
    title: str
    body: str
    advice: str
    actions: tuple[str, ...]
    countdown: str = ""


DB_TEXTS: dict[ErrorCode, tuple[str, str, tuple[str, ...]]] = {
    ErrorCode.DB_NOT_FOUND: (
        "The database file is missing",
        "Open another scripture.db, or build the demo database (it takes a few minutes and needs no network).",
        (OPEN_DB, BUILD_DEMO, RELOAD),
    ),
    ErrorCode.DB_INVALID: (
        "This file is not a usable scripture database",
        "Choose another file, or build the demo database. If this file used to work, it may have been "
        "damaged or written by a newer version of Amicus Desktop.",
        (OPEN_DB, BUILD_DEMO, RELOAD),
    ),
    ErrorCode.EXTENSION_NOT_LOADED: (
        "The vector search extension could not be loaded",
        "Amicus needs the sqlite-vec extension to search. Reinstall it with "
        "pip install --force-reinstall 'sqlite-vec>=0.1.9', then press Try again.",
        (RELOAD, OPEN_DB),
    ),
}


def db_text(err: AmicusError, path: str = "") -> StateText:
    known = DB_TEXTS.get(err.code) if isinstance(err.code, ErrorCode) else None
    title, advice, actions = known or (
        "The database could not be opened", "Open another file or try again.", (OPEN_DB, RELOAD))
    if path:
        advice += f"\n\nFile: {path}"
    return StateText("error", title, err.message, advice, actions)


def welcome_text(path: str) -> StateText:
    return StateText(
        "info",
        "Welcome to Amicus Desktop",
        "Amicus reads scripture beside commentary, and shows exactly why each passage was found: "
        "every similarity, boost and cut-off is on screen.",
        "To begin it needs a scripture database. The demo holds Romans and John with public-domain "
        "commentary (Matthew Henry, Scofield), Strong's lexicon and Nave's topics; it is built on this "
        f"computer in a few minutes, with no network. It is saved to {path}. Or open a database you already have.",
        (BUILD_DEMO, OPEN_DB),
    )


def proxy_text(c: Connectivity, seconds: int | None = None,
               mode: SearchMode = SearchMode.SEMANTIC) -> StateText | None:
    """The banner for the proxy's state (``None`` when all is well), for a window searching in ``mode``.

    Offline, an embedding mode offers keyword search as an explicit action (never a silent
    fallback); in keyword mode the banner says that searching by words is what is happening.
    """
    err = c.error
    if c.address_problem is not None:
        searching = ("Keyword search (the mode in use) and reading still work."
                     if not mode.embeds else "Reading still works, and keyword search needs no proxy.")
        return StateText(
            "error" if mode.embeds else "info",
            "The embed proxy's address is not valid",
            f"The proxy address {c.url} {c.address_problem}.",
            f"Correct it in Settings (or in {PROXY_URL_ENV} or --proxy, when one of them sets it). {searching}",
            (SETTINGS, KEYWORD) if mode.embeds else (SETTINGS,),
        )
    if c.state is ProxyState.OFFLINE and not mode.embeds:
        return StateText(
            "info",
            "Searching by words only: the embed proxy cannot be reached",
            f"Keyword search works offline. Semantic and hybrid search need the proxy at {c.url} "
            f"(last error: {_last_error(err)})",
            "Switch the mode back (Ctrl+M) once the proxy is running again.",
            (RETRY, SETTINGS),
            _next_check(c, seconds),
        )
    if c.state is ProxyState.OFFLINE:
        return StateText(
            "warning",
            "Search is unavailable: the embed proxy cannot be reached",
            f"Amicus turns questions into vectors through the proxy at {c.url}. Last error: {_last_error(err)}",
            "Start it with 'amicus-desktop proxy', or correct the proxy URL in Settings — or search "
            "by words, which works offline. Reading still works, and earlier results stay on screen.",
            (KEYWORD, RETRY, SETTINGS),
            _next_check(c, seconds),
        )
    if c.state is ProxyState.EMBED_FAILED and err is not None:
        return StateText(
            "warning",
            "The embed proxy is reachable but not giving usable answers",
            err.message,
            "Retry now asks again. If it keeps failing, check the proxy's log and its upstream, and "
            "that the token in Settings is right.",
            (RETRY, SETTINGS),
        )
    if c.state is ProxyState.MISMATCH and err is not None:
        if err.code is ErrorCode.DIMENSION_MISMATCH:
            title = "Search is disabled: the proxy's vectors have the wrong size for this database"
        else:
            title = "Search is disabled: the proxy serves a different model than this database"
        advice = "Reading still works. Search comes back by itself once the proxy and the database use the same model."
        if not mode.embeds:  # keyword search embeds nothing: it is not what is disabled
            title = title.replace("Search is disabled", "Semantic and hybrid search are disabled")
            advice = ("Keyword search (the mode in use) and reading still work. Semantic and hybrid search come "
                      "back by themselves once the proxy and the database use the same model.")
        return StateText("error", title, err.message, advice, (OPEN_DB, SETTINGS, RETRY))
    return None


def ask_disabled_reason(c: Connectivity, db_ready: bool) -> str:
    """The placeholder of a disabled ask box."""
    if not db_ready:
        return "Open a database to ask questions"
    if c.address_problem is not None:
        return "Search by meaning needs a valid embed proxy address (see Settings) — or switch to Keyword"
    if c.state is ProxyState.CHECKING:
        return f"Connecting to the embed proxy at {c.url}…"
    if c.state is ProxyState.OFFLINE:
        return "Search by meaning needs the embed proxy, which is offline — or switch to Keyword"
    if c.state is ProxyState.MISMATCH:
        return "Search is disabled: the proxy's model does not match the database"
    return ""


def query_error_text(err: AmicusError) -> str:
    return err.message


def proxy_status(c: Connectivity) -> str:
    """Short status-bar text (words, not only a coloured dot)."""
    host = c.url.split("://", 1)[-1]
    if c.address_problem is not None:
        return "Proxy: invalid address"
    return {
        ProxyState.CHECKING: f"Proxy: checking {host}…",
        ProxyState.ONLINE: f"Proxy: online ({host})",
        ProxyState.OFFLINE: f"Proxy: offline ({host})",
        ProxyState.EMBED_FAILED: f"Proxy: failing ({host})",
        ProxyState.MISMATCH: f"Proxy: wrong model ({host})",
    }[c.state]


def _last_error(err: AmicusError | None) -> str:
    if err is None:
        return "no answer."
    msg = err.message
    # The engine's OFFLINE message reads "The embed proxy at URL cannot be reached (why). Start it…";
    # the banner already names the URL and the remedy, so keep the reason.
    if "(" in msg and ")" in msg and err.code is ErrorCode.OFFLINE:
        return msg[msg.index("(") + 1 : msg.index(")")] + "."
    return msg


CHECKING_NOW = "Checking now…"
CHECKING_AGAIN = "Checking again now…"


def _next_check(c: Connectivity, seconds: int | None) -> str:
    if c.probing or seconds is None:
        return CHECKING_NOW
    if seconds <= 0:
        return CHECKING_AGAIN
    return next_check_in(seconds)


def next_check_in(seconds: int) -> str:
    return f"Next check in {seconds} s."


#: Every shape the offline banner's countdown takes (the banner keeps room for the widest, so the
#: title beside it never re-wraps as it ticks).
COUNTDOWN_SAMPLES = (CHECKING_NOW, CHECKING_AGAIN, next_check_in(88))


# -- asking -------------------------------------------------------------------------------------
BUSY = "Embedding the question and searching…"
BUSY_KEYWORD = "Searching by words…"
ASK_FAILED = "The last question failed — see the message above."


def internal_error_text(err: InternalError) -> StateText:
    """A bug in Amicus Desktop while asking: said as such, with where the details are."""
    where = (f"The details are in the log file {err.log_file}." if err.log_file is not None
             else "The details were written to the terminal (no log file could be opened).")
    return StateText(
        "error",
        "Amicus Desktop hit an internal error while searching",
        f"This is a bug in Amicus Desktop ({err.kind}), not a problem with the proxy or the database.",
        f"{where} Asking again may work; if it keeps happening, please report it with that log.",
        (),
    )


#: the title of a notice about the reader's notes (:func:`notes_notice_text`)
NOTES_TITLE = "Notes"
#: how the titles of :func:`notes_unavailable_text` end: the answer is the library's alone
LIBRARY_ONLY = "this answer is from the library only"


def notes_unavailable_text(err: AmicusError) -> StateText:
    """The workspace's notes store failed (``NOTES_STORE_INVALID``, ``NOTES_STORE_BUSY``) and the question was
    answered from the library alone: said in a line that fits the banner, what to do, then the store's own
    sentence (the whole of it in the detail line's tooltip when the window is narrow)."""
    if err.code.value == "NOTES_STORE_BUSY":
        return StateText("warning", f"Your notes are busy: {LIBRARY_ONLY}",
                         "Another program is writing to your notes store.",
                         f"Nothing is wrong with it: ask again in a moment to include your notes. "
                         f"{err.message}", ())
    return StateText("warning", f"Your notes are unavailable: {LIBRARY_ONLY}",
                     "Your notes store cannot be read: it is damaged, or not a notes store.",
                     f"The library still answers every question. {err.message}", ())


def notes_notice_text(message: str) -> StateText:
    """A note about the reader's notes (the store cannot be opened, a save failed) for the notice strip: titled
    as what it is about, with no *Settings…* (the settings cannot mend a notes store)."""
    return StateText("warning", NOTES_TITLE, message, "", ())


def notice_text(message: str) -> StateText:
    """A note about the settings file (damaged, unwritable, a value reset) for the notice strip, with
    *Settings…* to correct what it names."""
    return StateText("info", "Settings", message, "", (SETTINGS,))


# -- the results pane ---------------------------------------------------------------------------
EMPTY_RESULTS = (
    "Ask a question to see the passages that answer it.\n\n"
    "Each result shows its similarity, every boost it received (chapter, scholar, tradition) and its "
    "final score; the Rejected tab lists the candidates that were found but left out, and why."
)
NOTHING_PASSED = "No result passed the ranking. See the Rejected tab for why."
#: The whole-library shortcut with no answer on screen, or no chapter open to turn off.
NO_WHOLE_LIBRARY = "Nothing to switch: ask a question with a chapter open to rank it for the whole library."


def stale_text(asked: str, online: bool, keys: str) -> tuple[str, str]:
    """(title, body) of the note over results kept after the proxy went away; the wording follows
    whether it is back (``online``). ``keys``: those of the ``ask_again`` shortcut ("Ctrl+R")."""
    if online:
        return (f"These results are from before the outage (asked {asked}).",
                f"The proxy is back: ask again to refresh them ({keys}).")
    return (f"These results are from before the proxy went away (asked {asked}).",
            "Changing the chapter or profile still re-ranks them; a new question needs the proxy.")


# -- the retrieval bundle ------------------------------------------------------------------------
def ask_again_hint(question: str, keys: str) -> str:
    """Beside the question box once the proxy is back after a question failed; ``keys``: those of the
    ``ask_again`` shortcut ("Ctrl+R", from the window's shortcut table)."""
    return f"The proxy is back. Press {keys} to ask “{shorten(question, 48)}” again."


#: A few words naming each warning, for its icon's accessible name and tooltip (the sentence is the engine's).
WARNING_LABELS = {
    WarningCode.NO_STRONG_MATCH: "No strong match",
    WarningCode.FEW_RESULTS: "Few results",
    WarningCode.REFERENCE_NOT_IN_CORPUS: "Passage not in the library",
    WarningCode.PIN_NOT_FOUND: "Pinned chunk missing",
    WarningCode.SINGLE_SOURCE_TYPE: "One kind of material",
    WarningCode.NOTES_PENDING: "Notes searched by words",
    WarningCode.BOOKS_NOT_SEARCHABLE: "Book not searchable yet",
}


def did_you_mean(suggestion: str) -> str:
    return f"Did you mean “{suggestion}”?"


def warning_sentence(message: str, suggestion: str | None) -> str:
    """The warning's sentence without the "Did you mean" question that its button asks instead; the
    reader's notes not embedded yet in the app's words (the app embeds them the moment the proxy is back)."""
    pending = re.match(r"(\d+) of your notes (?:is|are) not embedded yet", message)
    if pending:
        return pending_text(int(pending.group(1)))
    if suggestion:
        question = did_you_mean(suggestion)
        if message.endswith(question):
            return message[: -len(question)].rstrip()
    return message


EXPORT_FILTERS = {"json": "JSON bundle (*.json)", "csv": "CSV table, one row per result and rejection (*.csv)"}


def exported(rows: int, path: str) -> str:
    return f"Exported {rows} rows to {path}"


COPY_NOTHING = "Nothing to copy: ask a question first."
EXPORT_NOTHING = "Nothing to export: ask a question first."


# -- the reader ---------------------------------------------------------------------------------
READ_NEEDS_DB = "Open a database to read the text."
NO_CHAPTER_TEXT = (
    "This database has no text for this chapter (it holds no verses table, or not this book). "
    "The chapter still sets the context for ranking."
)


def unknown_reference(text: str, reason: str) -> str:
    """Why the go-to box cannot open ``text``, in the reference parser's words."""
    return f"Cannot open “{text}”: {reason}"


# -- the status bar -----------------------------------------------------------------------------
NO_SEARCH_YET = "No search yet"


def model_status(db: DbState) -> str:
    if db.status is DbStatus.READY and db.info is not None:
        return f"Model: {db.info.model_id} · {db.info.dims} dims"
    return "Opening database…" if db.status is DbStatus.LOADING else "No database"


def chunks_status(db: DbState) -> str:
    return f"{db.info.chunk_count:,} chunks" if db.status is DbStatus.READY and db.info is not None else ""


def proxy_tooltip(c: Connectivity) -> str:
    if c.error is not None:
        return c.error.message
    return f"Model {c.model.id}, {c.model.dims} dims" if c.model else ""


def about_html(version: str, config_dir: Path, log_dir: Path) -> str:
    return (f"<b>Amicus Desktop {version}</b><p>A reading companion with retrieval you can see into.</p>"
            f"<p>Settings: {config_dir}<br>Logs: {log_dir}</p>")
