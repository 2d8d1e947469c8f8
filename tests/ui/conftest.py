"""UI test fixtures: a qasync loop on pytest-qt's QApplication, sessions and windows, test DBs.

The root conftest already gives every test its own ``AMICUS_HOME`` and offscreen Qt.
"""

from __future__ import annotations

import asyncio
import gc
import os
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

import PySide6  # noqa: E402,F401  (before qasync: it must pick PySide6)
import pytest  # noqa: E402
import qasync  # noqa: E402

from amicus_desktop.core.types import ChunkMetadata  # noqa: E402
from amicus_desktop.settings import SettingsStore  # noqa: E402
from tests.support.dbs import Chunk, build_db  # noqa: E402

T = TypeVar("T")

#: The offscreen platform plugin says this for every top-level window; it is not the app's doing.
OFFSCREEN_NOISE = r"^This plugin does not support propagateSizeHints\(\)"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture(scope="session", autouse=True)
def collect_on_the_qt_thread(qapp: Any) -> None:
    """As the app does (``ui/gcguard.py``, also started by every MainWindow): no automatic GC, which
    could run in a worker thread and free a QObject there (its timers then crash the next event
    loop turn); collection runs on the Qt thread instead."""
    from amicus_desktop.ui.gcguard import ensure_started

    ensure_started()


@pytest.fixture(autouse=True)
def collect_after_each_test() -> Iterator[None]:
    yield
    gc.collect()  # on the Qt thread, after the test's windows are closed


@pytest.fixture
def aloop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop over pytest-qt's running QApplication; events run while qtbot waits."""
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        # Let cancelled tasks finish their cleanup, then close (which joins qasync's threads).
        for _ in range(5):
            qapp.processEvents()
        # loop.stop() would call QApplication.exit(), which ends pytest-qt's later waits at once;
        # the loop never ran exec() itself, so just mark it stopped.
        loop._QEventLoop__is_running = False  # type: ignore[attr-defined]
        loop.close()
        asyncio.events._set_running_loop(None)
        asyncio.set_event_loop(None)


def run(qtbot: Any, coro: Awaitable[T], timeout: float = 20.0) -> T:
    """Run ``coro`` on the qasync loop while Qt processes events; return its result."""
    task = asyncio.ensure_future(coro)
    qtbot.waitUntil(task.done, timeout=int(timeout * 1000))
    return task.result()


def wait_for(qtbot: Any, cond: Callable[[], bool], timeout: float = 10.0) -> None:
    qtbot.waitUntil(cond, timeout=int(timeout * 1000))


@pytest.fixture
def settings_store(amicus_home: Path) -> SettingsStore:
    return SettingsStore()


# -- windows ---------------------------------------------------------------------------------
class Harness:
    """A Session + MainWindow pair on the test loop, closed properly at teardown."""

    def __init__(self, qtbot: Any) -> None:
        self.qtbot = qtbot
        self.pairs: list[Any] = []

    def open(self, *, db: Path | str | None = None, proxy: str | None = None, chapter: str | None = None,
             online_interval: float | None = None, start: bool = True, show: bool = True) -> Any:
        from amicus_desktop.ui.main_window import MainWindow, window_settings
        from amicus_desktop.ui.session import Overrides, Session

        session = Session(SettingsStore(), Overrides(db_path=str(db) if db else None, proxy_url=proxy, chapter=chapter),
                          online_interval=online_interval)
        window = MainWindow(session, qsettings=window_settings())
        self.qtbot.addWidget(window)
        self.pairs.append((session, window))
        if show:
            window.show()
        if start:
            session.start()
        return window

    def close(self, window: Any) -> None:
        pair = next(p for p in self.pairs if p[1] is window)
        self.pairs.remove(pair)
        session, window = pair
        window.close()
        run(self.qtbot, session.aclose())

    def close_all(self) -> None:
        for _session, window in list(self.pairs):
            self.close(window)


@pytest.fixture
def harness(qtbot: Any, aloop: asyncio.AbstractEventLoop) -> Iterator[Harness]:
    h = Harness(qtbot)
    try:
        yield h
    finally:
        h.close_all()


# -- databases -------------------------------------------------------------------------------
SCHOLARS = {"matthew-henry": "reformed", "scofield": "dispensational", "spurgeon": "baptist"}

TOPICS = [
    "God's sovereign choice of Jacob over Esau and the purpose of election",
    "the potter and the clay: God's freedom to show mercy",
    "Israel's unbelief and the remnant chosen by grace",
    "justification by faith apart from the works of the law",
    "the new birth: being born of water and the Spirit",
    "God so loved the world that he gave his only Son",
    "the bread of life and the feeding of the five thousand",
    "the good shepherd who lays down his life for the sheep",
    "the righteousness of God revealed from faith to faith",
    "all have sinned and fall short of the glory of God",
    "no condemnation for those who are in Christ Jesus",
    "the Spirit helps us in our weakness and intercedes",
    "love is the fulfilling of the law",
    "welcome one another as Christ welcomed you",
    "the Word became flesh and dwelt among us",
    "the woman at the well and the living water",
]


def demo_like_chunks(vectors: Callable[[list[str]], Any] | None = None, dims: int = 8) -> list[Chunk]:
    """~96 chunks on Romans and John by three scholars (plus unattributed ones), with real-ish text.

    ``vectors(texts)`` embeds the texts (e.g. through the real proxy); without it random vectors.
    """
    import numpy as np

    rows: list[tuple[str, str, ChunkMetadata, str]] = []
    scholars = [*SCHOLARS, None]
    i = 0
    for t, topic in enumerate(TOPICS):
        book, chapter = ("romans", 9 if t < 3 else 3 + t % 6) if t % 2 == 0 or t < 3 else ("john", 1 + t % 10)
        for s in scholars:
            for variant in range(2 if s else 1):
                i += 1
                meta = ChunkMetadata(
                    scholar_id=s, tradition=SCHOLARS.get(s) if s else None, book_id=book,
                    chapter_num=chapter, verse_start=1 + variant * 5, verse_end=5 + variant * 5,
                    panel_type="notes",
                )
                who = s.replace("-", " ").title() if s else "A study note"
                text = f"{who} on {book.title()} {chapter}: {topic}. " + (
                    "The apostle presses the point carefully." if variant == 0 else "Consider how this comforts the believer."
                )
                rows.append((f"{book}-{chapter}-{s or 'note'}-{t}-{variant}", "section_panel" if variant == 0 else "chapter_panel", meta, text))
    texts = [r[3] for r in rows]
    if vectors is not None:
        vecs = np.asarray(vectors(texts))
    else:
        vecs = np.random.default_rng(3).standard_normal((len(rows), dims))
    return [Chunk(cid, vecs[n], text=text, source_type=stype, meta=meta) for n, (cid, stype, meta, text) in enumerate(rows)]


BOOKS = [("john", "John", 43, 21), ("romans", "Romans", 45, 16)]


def verses() -> list[tuple[str, int, int, str]]:
    out = []
    for book, _name, _ord, chapters in BOOKS:
        for c in range(1, chapters + 1):
            for v in range(1, 13):
                out.append((book, c, v, f"This is verse {v} of {book.title()} {c}, a line of scripture for the reader."))
    return out


@pytest.fixture
def small_db(tmp_path: Path) -> Path:
    """96 random-vector chunks (8 dims, model ``test-model``), books and verses: for ScriptedProxy tests."""
    return build_db(tmp_path / "small.db", demo_like_chunks(dims=8), books=BOOKS, verses=verses())
