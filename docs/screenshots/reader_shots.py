"""Regenerate the reader's-experience screenshots in docs/screenshots/ (offscreen; needs the demo DB).

    QT_QPA_PLATFORM=offscreen .venv/bin/python docs/screenshots/reader_shots.py --db PATH [--proxy URL]

Each picture is taken at the window's default size and at 1000 × 650 (``-small`` in the name), by
driving the real window in-process as a user would: go to a verse, ask, select results, browse the
chapter's commentary, change the font size and the colour scheme. Without ``--proxy`` the real
local embed proxy is started here.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ["AMICUS_HOME"] = tempfile.mkdtemp(prefix="amicus-shot-")

QUESTION = "Why did God choose Jacob and not Esau?"
OUT = Path(__file__).resolve().parent
SIZES = {"": None, "-small": (1000, 650)}


def shots(db: Path, proxy_url: str, out: Path) -> None:
    from PySide6.QtWidgets import QApplication

    from amicus_desktop.session import Overrides, Session
    from amicus_desktop.settings import SettingsStore
    from amicus_desktop.ui.app import make_application, qt_event_loop
    from amicus_desktop.ui.main_window import DEFAULT_SIZE, MainWindow

    app = make_application()
    app.setQuitOnLastWindowClosed(False)

    async def reach(session: Session, cond: Callable[[], bool], timeout: float = 20.0) -> None:
        if not await session.until(cond, timeout):
            raise TimeoutError("state not reached")

    async def grab(window: MainWindow, name: str, size: tuple[int, int] | None) -> None:
        window.resize(*(size or DEFAULT_SIZE))
        await asyncio.sleep(0.5)
        QApplication.processEvents()
        window.grab().save(str(out / name))
        print(f"{name}: ok")

    async def run() -> None:
        for suffix, size in SIZES.items():
            session = Session(SettingsStore(), Overrides(db_path=str(db), proxy_url=proxy_url, chapter="romans:9"))
            window = MainWindow(session)
            window.resize(*(size or DEFAULT_SIZE))
            window.show()
            session.start()
            await reach(session, lambda s=session: s.can_ask and s.reader.loaded_chapter is not None)
            # go to a verse: highlighted and centred
            window.goto_reference("John 3:16")
            await reach(session, lambda s=session: s.reader.loaded_chapter is not None
                        and s.reader.loaded_chapter.book_id == "john")
            await grab(window, f"reader-goto{suffix}.png", size)
            # ask; the top result's title, passage with the Bible text, and breakdown
            window.goto_reference("Romans 9")
            window.ask.edit.setText(QUESTION)
            await session.ask(QUESTION)
            await grab(window, f"reader-results{suffix}.png", size)
            for hook in EXTRA:
                await hook(window, session, suffix, size, grab)
            window.close()
            await session.aclose()

    with qt_event_loop(app) as loop:
        loop.run_until_complete(run())


#: Further pictures, one coroutine each: ``hook(window, session, suffix, size, grab)``.
EXTRA: list[Callable[..., object]] = []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the demo scripture.db")
    parser.add_argument("--proxy", default=None, help="a running embed proxy (default: start the local one)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    if args.proxy:
        shots(args.db.resolve(), args.proxy, args.out)
        return 0
    from tests.support.proxy import ProxyProcess

    with ProxyProcess("--rate-limit", "0") as proxy:
        shots(args.db.resolve(), proxy.url, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
