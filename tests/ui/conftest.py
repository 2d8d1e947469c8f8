"""UI test fixtures: a qasync loop on pytest-qt's QApplication, sessions and their windows.

The root conftest already gives every test its own ``AMICUS_HOME``, offscreen Qt and the test DBs
(``small_db``; builders in ``tests/support/dbs.py``).
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from amicus_desktop.connectivity import ONLINE_INTERVAL
from amicus_desktop.embedding import ProxyEmbedder
from amicus_desktop.session import Overrides, Session
from amicus_desktop.settings import SettingsStore
from amicus_desktop.ui.layout import window_settings
from amicus_desktop.ui.main_window import MainWindow
from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses
from tests.support.proxy import ProxyProcess

T = TypeVar("T")

#: The offscreen platform plugin says this for every top-level window; it is not the app's doing.
OFFSCREEN_NOISE = r"^This plugin does not support propagateSizeHints\(\)"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture(autouse=True)
def collect_after_each_test() -> Iterator[None]:
    yield
    gc.collect()  # on the Qt thread, after the test's windows are closed


@pytest.fixture
def aloop(qapp: Any, qt_thread_gc: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop over pytest-qt's running QApplication; events run while qtbot waits. As in the
    app, garbage is collected on the Qt thread only while the loop's worker threads run."""
    import qasync  # here, after amicus_desktop.ui (imported above) has set QT_API for it

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
             online_interval: float = ONLINE_INTERVAL, start: bool = True, show: bool = True) -> Any:
        overrides = Overrides(db_path=str(db) if db else None, proxy_url=proxy, chapter=chapter)
        session = Session(SettingsStore(), overrides, online_interval=online_interval)
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


# -- the real local proxy and a library it embedded, once per module (the slow real-proxy flows) --
@pytest.fixture(scope="module")
def real_proxy() -> Iterator[ProxyProcess]:
    proxy = ProxyProcess("--rate-limit", "0")
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.close()


@pytest.fixture(scope="module")
def real_db(real_proxy: ProxyProcess, tmp_path_factory: pytest.TempPathFactory) -> Path:
    with ProxyEmbedder(real_proxy.url) as embedder:
        chunks = demo_like_chunks(vectors=embedder.embed)
        model = embedder.model_id
    return build_db(tmp_path_factory.mktemp("realdb") / "scripture.db", chunks, model=model,
                    books=BOOKS, verses=verses())


@pytest.fixture
def proxy_ready(real_proxy: ProxyProcess) -> ProxyProcess:
    """The module's proxy, running (a test before may have stopped it)."""
    if not real_proxy.running:
        real_proxy.start()
    return real_proxy
