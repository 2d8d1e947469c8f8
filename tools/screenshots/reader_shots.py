"""Regenerate the reader's-experience screenshots in docs/screenshots/ (offscreen; needs the demo DB).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/reader_shots.py --db PATH [--proxy URL]

Each picture is taken at the window's default size and at 1000 × 650 (``-small`` in the name), by
driving the real window in-process as a user would: go to a verse, ask, select results, browse the
chapter's commentary, change the font size and the colour scheme; the text with the room (the study
drawer closed), the commentary following a verse, reading mode, WEB and KJV side by side, the searched
words marked. Without ``--proxy`` the real
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
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ["AMICUS_HOME"] = tempfile.mkdtemp(prefix="amicus-shot-")

QUESTION = "Why did God choose Jacob and not Esau?"
OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SIZES = {"": None, "-small": (1000, 650)}


def shots(db: Path, proxy_url: str, out: Path) -> None:

    from amicus_desktop.session import Overrides, Session
    from amicus_desktop.settings import SettingsStore
    from amicus_desktop.ui.app import make_application, qt_event_loop
    from amicus_desktop.ui.main_window import DEFAULT_SIZE, MainWindow

    app = make_application()
    app.setQuitOnLastWindowClosed(False)

    async def reach(session: Session, cond: Callable[[], bool], timeout: float = 20.0) -> None:
        if not await session.until(cond, timeout):
            raise TimeoutError("state not reached")

    async def grab(window: MainWindow, name: str, size: tuple[int, int] | None, keep_scroll: bool = False) -> None:
        window.resize(*(size or DEFAULT_SIZE))
        await asyncio.sleep(0.1 if keep_scroll else 0.5)
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


async def passage_text(window: Any, session: Any, suffix: str, size: Any, grab: Any) -> None:
    """The passage pane scrolled to the Bible text under the note."""
    await asyncio.sleep(0.3)
    bar = window.results.passage.view.verticalScrollBar()
    bar.setValue(bar.maximum())
    await grab(window, f"reader-passage-text{suffix}.png", size, keep_scroll=True)


async def compare(window: Any, session: Any, suffix: str, size: Any, grab: Any) -> None:
    window.results.results_view.setFocus()
    window.results.results_view.selectRow(0)
    window.actions_by_id["compare"].trigger()
    await grab(window, f"reader-compare{suffix}.png", size)
    window.actions_by_id["compare"].trigger()


async def commentary(window: Any, session: Any, suffix: str, size: Any, grab: Any) -> None:
    pane = window.commentary
    if window.drawer.current is not pane:
        window.toggle_commentary()  # the commentary opens in the drawer under the text
    rows = [r for r in range(pane.model.rowCount()) if pane.model.chunk(r).metadata.verse_start]
    if rows:
        pane.list.setCurrentIndex(pane.model.index(rows[min(2, len(rows) - 1)], 0))
    pane.list.setFocus()
    await grab(window, f"reader-commentary{suffix}.png", size)


async def navigation_error(window: Any, session: Any, suffix: str, size: Any, grab: Any) -> None:
    window.reader.goto_edit.setText("John 30")
    window.reader.goto_edit.setFocus()
    window.reader.goto_edit.returnPressed.emit()
    await grab(window, f"reader-goto-error{suffix}.png", size)
    window.reader.goto_edit.clear()
    window.reader.goto_error.hide()


async def comfort(window: Any, session: Any, suffix: str, size: Any, grab: Any) -> None:
    """Larger reading text (Ctrl+= twice) in the dark scheme, then back."""
    window.actions_by_id["zoom_in"].trigger()
    window.actions_by_id["zoom_in"].trigger()
    window.menus.scheme_actions["dark"].trigger()
    window.ask.edit.setFocus()
    await grab(window, f"reader-dark-large{suffix}.png", size)
    window.actions_by_id["zoom_reset"].trigger()
    window.menus.scheme_actions["system"].trigger()


async def dialogs(window: Any, session: Any, suffix: str, size: Any, grab: Any) -> None:
    """The settings dialog with the values in use, and F1 (only once, at the default size)."""
    if suffix:
        return

    from amicus_desktop.ui.settings_dialog import SettingsDialog
    from amicus_desktop.ui.shortcuts import ShortcutsDialog

    prefs = session.prefs
    dialog = SettingsDialog(prefs.settings, parent=window, in_use=prefs.in_use())
    dialog.show()
    await asyncio.sleep(0.3)
    dialog.grab().save(str(OUT_DIR[0] / "settings-in-use.png"))
    print("settings-in-use.png: ok")
    dialog.close()
    help_dialog = ShortcutsDialog(window)
    help_dialog.resize(640, 720)
    help_dialog.show()
    await asyncio.sleep(0.3)
    help_dialog.grab().save(str(OUT_DIR[0] / "shortcuts.png"))
    print("shortcuts.png: ok")
    help_dialog.close()


async def reading_room(window: Any, session: Any, suffix: str, size: Any, grab: Any) -> None:
    """Issue 34: the text with the drawer closed, the commentary following a verse, reading mode, WEB and KJV side
    by side, back/forward's tooltip, and the searched words marked (a keyword search)."""
    from amicus_desktop.core.query import SearchMode

    async def until(cond: Callable[[], bool]) -> None:
        if not await session.until(cond, 20.0):
            raise TimeoutError("state not reached")

    if window.drawer.is_open:
        window.drawer.close_drawer()
    window.goto_reference("Romans 9:13")
    await until(lambda: window.reader.highlighted == (13, 13))
    await grab(window, f"reader-room{suffix}.png", size)
    window.toggle_commentary()
    window.reader.keep_current_in_view()
    await grab(window, f"reader-commentary-verse{suffix}.png", size, keep_scroll=True)
    window.reader_control.toggle_parallel()
    await until(lambda: window.reader.showing_parallel)
    window.reader.keep_current_in_view()
    await grab(window, f"reader-parallel{suffix}.png", size, keep_scroll=True)
    window.reading_layout.toggle_reading()
    await asyncio.sleep(0.3)
    window.reader.keep_current_in_view()
    await grab(window, f"reader-reading-mode{suffix}.png", size, keep_scroll=True)
    window.reading_layout.toggle_reading()
    window.reader_control.toggle_parallel()
    window.drawer.close_drawer()
    session.set_mode(SearchMode.KEYWORD)
    window.ask.edit.setText("Jacob Esau hated")
    await session.ask("Jacob Esau hated")
    await until(lambda: window.results.passage.verses is not None)
    await grab(window, f"reader-search-words{suffix}.png", size)
    session.set_mode(SearchMode.HYBRID)


#: Further pictures, one coroutine each: ``hook(window, session, suffix, size, grab)``.
EXTRA: list[Callable[..., Any]] = [passage_text, compare, commentary, navigation_error, comfort, reading_room, dialogs]
OUT_DIR: list[Path] = [OUT]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the demo scripture.db")
    parser.add_argument("--proxy", default=None, help="a running embed proxy (default: start the local one)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    OUT_DIR[0] = args.out
    if args.proxy:
        shots(args.db.resolve(), args.proxy, args.out)
        return 0
    from tests.support.proxy import ProxyProcess

    with ProxyProcess("--rate-limit", "0") as proxy:
        shots(args.db.resolve(), proxy.url, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
