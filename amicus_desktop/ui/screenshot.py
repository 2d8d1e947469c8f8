"""``--screenshot PNG``: open the window, ask the question if given, wait until results or an
error/offline state are on screen (at most 15 s), save the window as PNG (CONTRACT section 4)."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QApplication

from ..connectivity import ProxyState
from .main_window import MainWindow
from .session import DbStatus, Session

log = logging.getLogger("amicus.ui")

TIMEOUT = 15.0
SETTLE = 0.35  # let layouts and the first paint finish


async def _wait(cond: Callable[[], bool], deadline: float, step: float = 0.03) -> bool:
    while not cond():
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(step)
    return True


async def take_screenshot(window: MainWindow, session: Session, out: Path, query: str | None,
                          timeout: float = TIMEOUT, started_at: float | None = None) -> bool:
    """Drive the window to a settled state and save it. ``True`` when the PNG was written.

    ``started_at`` (``time.monotonic()``) is when the app started: the 15 s count from there, less
    a margin for the interpreter's own start, rendering and saving.
    """
    start = started_at if started_at is not None else time.monotonic()
    deadline = start + timeout - 2.0
    await _wait(lambda: session.db.status is not DbStatus.LOADING, deadline)
    if session.db.ready:
        # the first /health answer, and the chapter text
        await _wait(lambda: session.connectivity.checks > 0, deadline)
        await _wait(lambda: session.chapter is None or session.loaded_chapter == session.chapter, deadline)
        if query:
            await _wait(lambda: session.connectivity.state is not ProxyState.CHECKING, deadline)
            if session.can_ask:
                window.ask.edit.setText(query)
                task = session.ask(query)
                if task is not None:
                    remaining = max(0.1, deadline - time.monotonic())
                    try:
                        await asyncio.wait_for(asyncio.shield(task), remaining)
                    except asyncio.TimeoutError:
                        log.warning("screenshot: the question did not finish in time")
                    except asyncio.CancelledError:
                        pass
            elif query:
                window.ask.edit.setText(query)
    await asyncio.sleep(SETTLE)
    QApplication.processEvents()
    pixmap = window.grab()
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        log.error("screenshot folder cannot be created", extra={"path": str(out.parent), "error": type(exc).__name__})
        return False
    ok = pixmap.save(str(out), "PNG")
    log.info("screenshot saved" if ok else "screenshot failed", extra={"path": str(out)})
    return ok

