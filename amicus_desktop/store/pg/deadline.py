"""Connections to PostgreSQL that never wait for ever on an answer (the library's readers, the notes store).

PostgreSQL's ``statement_timeout`` makes the *server* give up on a statement; it cannot help when the server is
not there to answer: a connection whose server process was frozen, whose host vanished (TCP: no reset ever
comes), or — seen about one restart in eight under the tests' load — a socket that stayed open but silent
across a restart. psycopg then waits on the socket for ever, and so does the request (issue 36).

:func:`connection_class` gives a :class:`psycopg.Connection` whose every wait for the server — a statement, a
commit or rollback, the pool's check of a connection — ends after ``answer_within`` seconds: psycopg's own wait
timeout (``Connection.wait(…, timeout=)``, psycopg ≥ 3.3); when it expires the connection is closed (its state
is unknown) and the call raises :class:`psycopg.OperationalError`, which the callers already report as "cannot
be reached now" (``DB_UNAVAILABLE``, ``NOTES_STORE_BUSY``); the next call connects again. ``answer_within`` is
the statement timeout plus :data:`ANSWER_GRACE`: a live server has answered (at worst with its own
cancellation) by then. :func:`tcp_options` adds libpq's TCP keepalives and ``tcp_user_timeout`` where the
connection is TCP, so the kernel too drops a connection to a host that went away (libpq ignores them on a Unix
socket).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import psycopg

#: Seconds past the statement timeout a wait for the server may last before the connection is taken for dead.
ANSWER_GRACE = 3.0
#: libpq's keepalives on a TCP connection: the first probe after this many idle seconds …
KEEPALIVE_IDLE = 10
#: … then one every this many seconds, and the connection is dropped after this many unanswered.
KEEPALIVE_INTERVAL = 5
KEEPALIVE_COUNT = 3

_LOCK = threading.Lock()
_CLASSES: dict[float, type[psycopg.Connection[Any]]] = {}


def answer_within(statement_timeout: float) -> float:
    """Seconds a wait for the server may last when its statements are cancelled after ``statement_timeout``."""
    return statement_timeout + ANSWER_GRACE


def tcp_options(answer_seconds: float) -> dict[str, Any]:
    """libpq's connection parameters that drop a TCP connection to a host that went away (ignored on a socket)."""
    return {"keepalives": 1, "keepalives_idle": KEEPALIVE_IDLE, "keepalives_interval": KEEPALIVE_INTERVAL,
            "keepalives_count": KEEPALIVE_COUNT, "tcp_user_timeout": round(1000 * answer_seconds)}


def connection_class(answer_seconds: float) -> type[psycopg.Connection[Any]]:
    """A :class:`psycopg.Connection` whose waits for the server end after ``answer_seconds`` (see the module
    docstring); one class per value, made on first use (psycopg is an optional extra)."""
    with _LOCK:
        found = _CLASSES.get(answer_seconds)
        if found is None:
            found = _CLASSES[answer_seconds] = _make(answer_seconds)
        return found


def _make(answer_seconds: float) -> type[psycopg.Connection[Any]]:
    import psycopg
    from psycopg import errors as pge
    from psycopg.abc import RV, PQGen

    wait_timeout = pge._WaitTimeout  # what Connection.wait(timeout=) raises (looked up here: a rename fails loudly)

    class DeadlineConnection(psycopg.Connection[Any]):
        """A connection that gives up on a server silent for ``answer_seconds`` (see :mod:`.deadline`)."""

        def wait(self, gen: PQGen[RV], interval: float = 0.1, timeout: float | None = None) -> RV:
            if timeout is not None:  # psycopg's own bounded waits keep theirs
                return super().wait(gen, interval, timeout)
            try:
                return super().wait(gen, interval, answer_seconds)
            except wait_timeout:  # psycopg's own wait timeout: the connection is mid-protocol, drop it
                self.pgconn.finish()
                raise psycopg.OperationalError(
                    f"the database did not answer within {answer_seconds:g} s; the connection was closed") from None

    DeadlineConnection.__name__ = DeadlineConnection.__qualname__ = f"DeadlineConnection{answer_seconds:g}s"
    return DeadlineConnection
