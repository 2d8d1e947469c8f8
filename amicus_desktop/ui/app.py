"""``run_app(args)``: the desktop app's entry point (``amicus-desktop`` with no sub-command).

Start-up order matters: PySide6 before qasync (qasync picks the first Qt binding it finds), the
QApplication before the loop, and the loop closed at the end so no Qt thread outlives it.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import time
import types
from pathlib import Path

os.environ.setdefault("QT_API", "pyside6")

from PySide6.QtCore import QTimer  # noqa: E402  (after QT_API)
from PySide6.QtGui import QIcon  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

import qasync  # noqa: E402

from .. import __version__, resources  # noqa: E402
from ..logs import setup_logging  # noqa: E402
from ..settings import SettingsStore  # noqa: E402
from .gcguard import ensure_started  # noqa: E402
from .main_window import MainWindow, window_settings  # noqa: E402
from .qtlog import install_qt_message_handler  # noqa: E402
from .session import Overrides, Session  # noqa: E402
from .theme import install_theme  # noqa: E402

log = logging.getLogger("amicus.ui")


def make_application(argv: list[str] | None = None) -> QApplication:
    app = QApplication.instance() or QApplication(argv if argv is not None else sys.argv[:1])
    assert isinstance(app, QApplication)
    app.setApplicationName("Amicus Desktop")
    app.setApplicationDisplayName("Amicus Desktop")
    app.setOrganizationName("Amicus")
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(resources.APP_ID)
    icon = _app_icon()
    if icon is not None:
        app.setWindowIcon(icon)
    install_theme(app)
    return app


def _app_icon() -> QIcon | None:
    """The application icon at every size shipped in ``resources/icons`` (none is fatal)."""
    try:
        pngs = [resources.app_icon_png(size) for size in resources.ICON_SIZES]
    except (FileNotFoundError, ValueError):
        return None
    icon = QIcon()
    for png in pngs:
        if png.is_file():
            icon.addFile(str(png))
    return None if icon.isNull() else icon


def _excepthook(kind: type[BaseException], value: BaseException, tb: types.TracebackType | None) -> None:
    """Uncaught exceptions (qasync sends slot errors here) are logged, not fatal."""
    log.critical("uncaught exception", exc_info=(kind, value, tb))


def run_app(args: argparse.Namespace) -> int:
    """Open the main window; with ``args.screenshot`` save it as PNG and exit 0."""
    started_at = time.monotonic()
    args.started_at = started_at
    screenshot = getattr(args, "screenshot", None)
    setup_logging()
    sys.excepthook = _excepthook
    app = make_application()
    install_qt_message_handler()
    app.setQuitOnLastWindowClosed(False)  # the main coroutine decides when to stop
    collector = ensure_started()  # QObjects must never be freed by a worker thread's GC
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    log.info("starting", extra={"version": __version__, "screenshot": bool(screenshot)})
    try:
        with loop:
            return loop.run_until_complete(_main(args))
    finally:
        asyncio.set_event_loop(None)
        collector.stop()


async def _main(args: argparse.Namespace) -> int:
    screenshot = getattr(args, "screenshot", None)
    store = SettingsStore(read_only=bool(screenshot))
    overrides = Overrides.from_env(getattr(args, "db", None), getattr(args, "proxy", None), getattr(args, "chapter", None))
    session = Session(store, overrides)
    window = MainWindow(session, qsettings=None if screenshot else window_settings(), restore=not screenshot)
    closed = asyncio.Event()
    window.closed.connect(closed.set)
    _quit_on_sigint(window)
    window.show()
    session.start()
    pending = None
    if getattr(args, "query", None) and not screenshot:
        window.ask.edit.setText(args.query)
        pending = asyncio.ensure_future(_ask_when_ready(session, args.query))
    rc = 0
    try:
        if screenshot:
            from .screenshot import take_screenshot

            ok = await take_screenshot(window, session, Path(screenshot), getattr(args, "query", None),
                                       started_at=getattr(args, "started_at", None))
            rc = 0 if ok else 1
            if not ok:
                print(f"error: could not write {screenshot}", file=sys.stderr)
            window.close()
        else:
            await closed.wait()
    finally:
        if pending is not None:
            pending.cancel()
            await asyncio.wait([pending])
        await session.aclose()
        window.deleteLater()
    return rc


async def _ask_when_ready(session: Session, query: str, timeout: float = 15.0) -> None:
    """``--query`` without ``--screenshot``: ask once the database is open and the proxy answers."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not session.can_ask:
        if loop.time() > deadline or session.db.status.value in ("missing", "error"):
            return  # the window already says why asking is not possible
        await asyncio.sleep(0.05)
    session.ask(query)


def _quit_on_sigint(window: MainWindow) -> None:
    """Ctrl-C in the terminal closes the window cleanly (Python sees signals only between Qt events,
    so a short timer keeps giving it the chance)."""
    try:
        signal.signal(signal.SIGINT, lambda *_: window.close())
    except ValueError:  # not the main thread
        return
    timer = QTimer(window)
    timer.setInterval(250)
    timer.timeout.connect(lambda: None)
    timer.start()
