"""What the screenshot scripts share: the environment (offscreen Qt, a fresh ``AMICUS_HOME``), the
command line (``--db``, ``--out``), the demo library's check and the real local embed proxy, started for the
run. A script passes its ``shots(db, proxy_url, out)`` — or ``shots(db, proxy_url, offline_url, out)`` with
``offline=True``, a closed port for its offline states — to :func:`run`; inside, :func:`drive` runs its
coroutine on the Qt event loop, :func:`opened` opens a window on a library as a reader would, :func:`ask`
asks a question through it and :func:`save` saves the window at both sizes.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

#: where the PNGs go (docs/screenshots/), and the narrow size every state is also saved at
OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SMALL = (1000, 650)


def run(doc: str, shots: Callable[..., None], *, offline: bool = False) -> int:
    """Parse the command line, start the proxy, and call ``shots``; 1 when the library is missing."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None, help="the demo scripture.db (default: the app's default path)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    os.environ["AMICUS_HOME"] = tempfile.mkdtemp(prefix="amicus-shot-")

    from amicus_desktop import paths
    from tests.support.proxy import ProxyProcess, free_port

    db = (args.db or paths.default_db_path()).resolve()
    if not db.is_file():
        print(f"no demo database at {db}: build it with 'amicus-desktop build-db --demo' first", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    with ProxyProcess("--rate-limit", "0", startup_timeout=120.0) as proxy:  # a busy machine starts it slowly
        extra: tuple[Any, ...] = (f"http://127.0.0.1:{free_port()}",) if offline else ()
        shots(db, proxy.url, *extra, args.out)
    return 0


def drive(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Make the Qt application (kept alive when its last window closes, as each shot closes its window) and run
    ``main()`` on its event loop to the end."""
    from amicus_desktop.ui.app import make_application, qt_event_loop

    app = make_application()
    app.setQuitOnLastWindowClosed(False)
    with qt_event_loop(app) as loop:
        loop.run_until_complete(main())


@asynccontextmanager
async def opened(db: Path | None, proxy_url: str, chapter: str | None, *, settings: Any = None,
                 prepare: Callable[[Any], object] | None = None,
                 **window_options: Any) -> AsyncIterator[tuple[Any, Any]]:
    """A :class:`~amicus_desktop.session.Session` and its main window on ``db`` (the app's own library when
    ``None``) through ``proxy_url``, ``chapter`` open, once the library is ready and the chapter loaded; the
    window is closed and the session ended on the way out. ``settings`` replaces the reader's saved settings
    (``SettingsStore(read_only=True)``), ``prepare(window)`` runs before the window is shown and ``window_options``
    go to the window (``restore=False``, ``qsettings=…``)."""
    from amicus_desktop.session import Overrides, Session
    from amicus_desktop.settings import SettingsStore
    from amicus_desktop.ui.main_window import MainWindow

    overrides = Overrides(db_path=None if db is None else str(db), proxy_url=proxy_url, chapter=chapter)
    session = Session(settings or SettingsStore(), overrides)
    window = MainWindow(session, **window_options)
    try:
        if prepare is not None:
            prepare(window)
        window.show()
        session.start()
        await reach(session, lambda: session.library.ready and session.reader.loaded_chapter is not None)
        yield session, window
    finally:
        window.close()
        await session.aclose()


async def ask(window: Any, session: Any, question: str, *, settle: float = 0.3) -> None:
    """Type ``question`` into the ask box and ask it, as a reader's Enter does; wait for its answer and ``settle``
    seconds more (the panes lay themselves out)."""
    import asyncio

    window.ask.edit.setText(question)
    task = session.ask(question)
    assert task is not None, "asking is not possible now"
    await task
    await asyncio.sleep(settle)


async def reach(session: Any, cond: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait until ``cond()`` holds in ``session`` (a :class:`~amicus_desktop.session.Session`), or fail loudly."""
    if not await session.until(cond, timeout):
        raise TimeoutError("state not reached")


async def resize_to(window: Any, size: tuple[int, int], *, seconds: float = 5.0) -> None:
    """Resize ``window`` to ``size`` and wait until it is that size: the window's minimum follows its panes a
    layout pass later (later still on a busy machine), and a resize asked before then stops at the old minimum."""
    import asyncio

    for _ in range(int(seconds / 0.1)):
        window.resize(*size)
        await asyncio.sleep(0.05)  # the event loop lays the window out (processEvents here re-enters other tasks)
        if (window.width(), window.height()) == tuple(size):
            return
        await asyncio.sleep(0.1)
    print(f"the window stays {window.width()}×{window.height()}, not {size[0]}×{size[1]}", file=sys.stderr)


async def save(window: Any, out: Path, name: str, *, prepare: Callable[[], object] | None = None,
               part: Callable[[], Any] | None = None) -> None:
    """``window`` saved as ``out/name`` at its default size and as ``-1000x650`` at :data:`SMALL`; ``prepare``
    runs after each resize (what must stay in view: a verse in focus, a selection), ``part`` picks the widget
    to grab (the whole window when ``None``)."""
    import asyncio

    from amicus_desktop.ui.main_window import DEFAULT_SIZE

    for size, suffix in ((DEFAULT_SIZE, ""), (SMALL, "-1000x650")):
        await resize_to(window, size)
        await asyncio.sleep(0.4)
        if prepare is not None:
            prepare()
            await asyncio.sleep(0.15)
        path = out / name.replace(".png", f"{suffix}.png")
        (part() if part is not None else window).grab().save(str(path))
        print(f"{path.name}: ok")
    window.resize(*DEFAULT_SIZE)


def save_with_dialog(window: object, dialog: object, path: Path) -> None:
    """The window dimmed behind ``dialog``, framed with its title (offscreen windows have no frame)."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtGui import QColor, QPainter
    from PySide6.QtWidgets import QWidget

    assert isinstance(window, QWidget) and isinstance(dialog, QWidget)
    shot = window.grab()
    inner = dialog.grab()
    bar = 30
    x, y = (shot.width() - inner.width()) // 2, max(0, (shot.height() - inner.height() - bar) // 2)
    p = QPainter(shot)
    p.fillRect(shot.rect(), QColor(0, 0, 0, 60))
    p.fillRect(QRect(x - 1, y - 1, inner.width() + 2, inner.height() + bar + 2), QColor(90, 90, 90))
    p.fillRect(QRect(x, y, inner.width(), bar), QColor(225, 225, 225))
    font = window.font()
    font.setBold(True)
    p.setFont(font)
    p.setPen(QColor(30, 30, 30))
    p.drawText(QRect(x, y, inner.width(), bar), Qt.AlignmentFlag.AlignCenter, dialog.windowTitle())
    p.drawPixmap(x, y + bar, inner)
    p.end()
    shot.save(str(path))
