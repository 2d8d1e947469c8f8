"""``--screenshot PNG``: open the window, ask the question if given, wait until results or an
error/offline state are on screen (at most 15 s), save the window as PNG (CONTRACT section 4).

Every wait is :meth:`Session.until <amicus_desktop.session.Session.until>`: it resumes on the
session's own change events, so nothing polls. The PNG is written as an export is
(:mod:`amicus_desktop.files`): never over the open database or a link to it, never to a name that
does not end in ``.png``, a pipe or a device — :func:`check_target` says so before the window opens —
and atomically, so a failed save leaves whatever was there.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QBuffer, QByteArray, QIODevice

from ..connectivity import ProxyState
from ..files import FileWriteError, check_target, write_atomic
from ..session import DbStatus, Session
from .main_window import MainWindow

log = logging.getLogger("amicus.ui")

TIMEOUT = 15.0
SETTLE = 0.35  # let layouts and the first paint finish


async def take_screenshot(window: MainWindow, session: Session, out: Path, query: str | None,
                          timeout: float = TIMEOUT, started_at: float | None = None) -> bool:
    """Drive the window to a settled state and save it. ``True`` when the PNG was written.

    ``started_at`` (``time.monotonic()``) is when the app started: the 15 s count from there, less
    a margin for the interpreter's own start, rendering and saving.
    """
    start = started_at if started_at is not None else time.monotonic()
    deadline = start + timeout - 2.0

    def left() -> float:
        return max(0.0, deadline - time.monotonic())

    async def reach(cond: Callable[[], bool], what: str) -> None:
        if not await session.until(cond, left()):
            log.warning("screenshot: gave up waiting", extra={"waiting_for": what})

    library, connection, reader = session.library, session.connection, session.reader
    await reach(lambda: library.state.status is not DbStatus.LOADING, "the library")
    if library.ready:
        # the first /health answer, and the chapter text
        await reach(lambda: connection.state.checks > 0, "the proxy's first check")
        await reach(lambda: reader.chapter is None or reader.loaded_chapter == reader.chapter, "the chapter")
        if query:
            window.ask.edit.setText(query)
            await reach(lambda: connection.state.state is not ProxyState.CHECKING, "the proxy's state")
            task = session.ask(query) if session.can_ask else None
            if task is not None:
                done, _pending = await asyncio.wait([task], timeout=max(0.1, left()))
                if not done:
                    log.warning("screenshot: the question did not finish in time")
    # The loop paints and lays out while this waits. Never QApplication.processEvents() here: inside a task it
    # would run other tasks' wake-ups re-entrantly, qasync drops them ("Cannot enter into task …") and a task
    # left waiting for ever keeps the session, and so the process, from ending.
    await asyncio.sleep(SETTLE)
    pixmap = window.grab()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        log.error("screenshot folder cannot be created", extra={"path": str(out.parent), "error": type(exc).__name__})
        return False
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    ok = pixmap.save(buffer, "PNG")
    buffer.close()
    if ok:
        try:
            check_target(out, [session.library.state.path], what="screenshots", suffixes=PNG, hint=HINT)
            write_atomic(out, bytes(data.data()))
        except FileWriteError as exc:
            log.error("screenshot not written", extra={"path": str(out), "error": exc.message})
            ok = False
    log.info("screenshot saved" if ok else "screenshot failed", extra={"path": str(out)})
    return ok


PNG = (".png",)
HINT = "a name ending in .png"


def refusal(out: Path, db_path: Path) -> str | None:
    """Why ``--screenshot out`` must not be written (with ``db_path`` the database it would open), or ``None``."""
    try:
        check_target(out, [db_path], what="screenshots", suffixes=PNG, hint=HINT)
    except FileWriteError as exc:
        return exc.message
    return None
