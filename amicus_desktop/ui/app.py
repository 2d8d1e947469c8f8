"""``run_app(args)``: the desktop app's entry point (``amicus-desktop`` with no sub-command).

Start-up order matters: ``QT_API`` is set (by ``amicus_desktop/ui/__init__.py``, which runs first)
before qasync is imported, the QApplication and the Qt-thread garbage collector exist before the
loop and any window, and the loop is closed at the end so no Qt thread outlives it.
"""

from __future__ import annotations

import asyncio
import contextlib
import linecache
import logging
import signal
import sys
import time
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import qasync
from PySide6.QtCore import QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from .. import __version__, resources
from ..config import load_settings, resolve_connection
from ..logs import setup_logging
from ..session import DbStatus, Overrides, Session
from ..settings import SettingsStore
from .layout import window_settings
from .main_window import MainWindow
from .qt_thread_gc import QtThreadGC
from .qtlog import install_qt_message_handler
from .theme import install_theme

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


@dataclass(frozen=True)
class AppOptions:
    """The desktop app's options (``amicus-desktop`` with no sub-command; the command line's are its flags)."""

    db: str | None = None
    proxy: str | None = None
    #: save the main window as PNG here and exit
    screenshot: str | None = None
    #: a question to ask at start-up
    query: str | None = None
    #: the chapter to open, BOOK:CHAPTER
    chapter: str | None = None


def run_app(args: AppOptions) -> int:
    """Open the main window; with ``args.screenshot`` save it as PNG and exit 0."""
    started_at = time.monotonic()
    screenshot = args.screenshot
    if screenshot:
        from .screenshot import refusal

        db = resolve_connection(db=args.db, settings=load_settings()).db_path.value
        problem = refusal(Path(screenshot), db)
        if problem is not None:  # before any window: the database stays byte for byte as it was
            print(f"amicus-desktop: error: --screenshot: {problem}", file=sys.stderr)
            return 2
    forget_sources()  # the imports are done
    setup_logging()
    sys.excepthook = _excepthook
    app = make_application()
    install_qt_message_handler()
    app.setQuitOnLastWindowClosed(False)  # the main coroutine decides when to stop
    log.info("starting", extra={"version": __version__, "screenshot": bool(screenshot)})
    with qt_event_loop(app) as loop:
        rc: int = loop.run_until_complete(_main(args, started_at))
    return rc


@contextlib.contextmanager
def qt_event_loop(app: QApplication) -> Iterator[qasync.QEventLoop]:
    """A qasync loop over ``app`` as the current loop, with the Qt-thread garbage collector running
    (QObjects must never be freed by a worker thread's GC), until the block ends."""
    collector = QtThreadGC(app).start()
    loop = qasync.QEventLoop(app)
    asyncio.set_event_loop(loop)
    try:
        with loop:
            yield loop
    finally:
        asyncio.set_event_loop(None)
        collector.stop()


async def _main(args: AppOptions, started_at: float) -> int:
    screenshot = args.screenshot
    store = SettingsStore(read_only=bool(screenshot))
    overrides = Overrides.from_env(args.db, args.proxy, args.chapter)
    session = Session(store, overrides)
    window = MainWindow(session, qsettings=None if screenshot else window_settings(), restore=not screenshot)
    closed = asyncio.Event()
    window.closed.connect(closed.set)
    _quit_on_sigint(window)
    window.show()
    session.start()
    forgotten = asyncio.ensure_future(_forget_sources_when_open(session))
    pending = None
    if args.query and not screenshot:
        window.ask.edit.setText(args.query)
        pending = asyncio.ensure_future(_ask_when_ready(session, args.query))
    rc = 0
    try:
        if screenshot:
            from .screenshot import take_screenshot

            ok = await take_screenshot(window, session, Path(screenshot), args.query, started_at=started_at)
            rc = 0 if ok else 1
            if not ok:
                print(f"error: could not write {screenshot}", file=sys.stderr)
            window.close()
        else:
            await closed.wait()
    finally:
        for task in (pending, forgotten):
            if task is not None:
                task.cancel()
                await asyncio.wait([task])
        await session.aclose()
        window.deleteLater()
    return rc


def forget_sources() -> None:
    """Drop the source text of the modules imported so far from :mod:`linecache`. PySide6 reads the whole source
    of every module imported after it (``shibokensupport.feature``'s check for ``from __feature__ import``, through
    ``inspect.getsource``) and linecache keeps it: ~ 600 files, 7–8 MB of strings the app never uses. A traceback
    reads what it shows again from the file."""
    linecache.clearcache()


async def _forget_sources_when_open(session: Session, timeout: float = 60.0) -> None:
    """:func:`forget_sources` again once the library has opened (its modules are imported then)."""
    await session.until(lambda: session.library.state.status is not DbStatus.LOADING, timeout)
    forget_sources()


async def _ask_when_ready(session: Session, query: str, timeout: float = 15.0) -> None:
    """``--query`` without ``--screenshot``: ask once the database is open and the proxy answers."""
    settled = await session.until(
        lambda: session.can_ask or session.library.state.status in (DbStatus.MISSING, DbStatus.ERROR), timeout
    )
    if settled and session.can_ask:  # otherwise the window already says why asking is not possible
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
