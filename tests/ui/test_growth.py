"""The app grows its own library in the background: a real ``build-db --resume`` child on two small books, the
status bar's sentence, Pause/Continue, quitting and restarting, and never a library opened from elsewhere."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.session import DbStatus
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.sqlite import growing_marker
from amicus_desktop.ui.growth import BOOKS_ENV, Phase, Progress, builder_command, status_text
from tests.support.proxy import free_port

from .conftest import run, wait_for

#: the two smallest books of the New Testament, grown in the build order (canonical in the NT): 2 John first
GROWN = "3-john,2-john"
#: a real build of a book on a busy two-core machine: minutes, not seconds
BUILD_S = 1500.0

pytestmark = [pytest.mark.slow, pytest.mark.timeout(3600)]


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """What the first launch leaves before the demo's books: the text of all 66 books, no book's study
    material, still growing (``build-db --resume --stop-after 0``, the real local model)."""
    db = tmp_path_factory.mktemp("started") / "scripture.db"
    subprocess.run([sys.executable, "-m", "amicus_desktop", "build-db", "--books", GROWN, "--resume",
                    "--stop-after", "0", "--quiet", "--out", str(db)], check=True, timeout=900)
    assert growing_marker(db).exists()
    return db


def _coverage(db: Path) -> tuple[tuple[str, ...], bool]:
    with ScriptureStore(db) as store:
        c = store.coverage()
        return c.books, c.growing


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_the_sentence_says_books_and_time_left() -> None:
    assert status_text(Phase.RUNNING, Progress(12, 66, "Matthew", 40 * 60)) == \
        "Preparing the whole Bible: 12 of 66 books · about 40 min left"
    assert status_text(Phase.RUNNING, Progress(2, 66)) == \
        "Preparing the whole Bible: 2 of 66 books · estimating the time left"
    assert status_text(Phase.RUNNING, Progress(60, 66, eta=20)).endswith("less than a minute left")
    assert status_text(Phase.RUNNING, Progress(3, 66, eta=125 * 60)).endswith("about 2 h 05 min left")
    assert status_text(Phase.PAUSED, Progress(31, 66)) == "Whole Bible paused: 31 of 66 books searchable"
    assert status_text(Phase.DONE, Progress(66, 66)) == status_text(Phase.IDLE, Progress(0, 66)) == ""


def test_the_builder_is_the_same_program_resuming_the_library(tmp_path: Path) -> None:
    program, args = builder_command(tmp_path / "s.db", None)
    assert program == sys.executable and args[:3] == ["-m", "amicus_desktop", "build-db"]
    assert {"--resume", "--all", "--low-priority", "--progress"} <= set(args)
    assert args[args.index("--out") + 1] == str(tmp_path / "s.db")
    assert builder_command(tmp_path / "s.db", ["jude"])[1][-2:] == ["--books", "jude"]  # a test's: normal priority


def test_a_library_opened_from_elsewhere_is_never_built_on(harness, qtbot, started: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BOOKS_ENV, GROWN)
    elsewhere = tmp_path / "mine" / "scripture.db"
    elsewhere.parent.mkdir()
    shutil.copy(started, elsewhere)
    growing_marker(elsewhere).touch()
    window = harness.open(db=elsewhere, proxy=f"http://127.0.0.1:{free_port()}")
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.READY, timeout=30)
    qtbot.wait(300)
    assert window.growth.phase is Phase.IDLE and window.growth.process is None
    assert not window.growth.widget.isVisible()
    assert _coverage(elsewhere) == ((), True)  # untouched


def test_it_grows_pauses_survives_a_restart_and_finishes(harness, qtbot, started: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BOOKS_ENV, GROWN)
    db = paths.default_db_path()
    db.parent.mkdir(parents=True, exist_ok=True)
    shutil.copy(started, db)
    growing_marker(db).touch()
    proxy = f"http://127.0.0.1:{free_port()}"

    # First launch: the library in the data folder is growing, so the window continues it in a child process.
    window = harness.open(proxy=proxy)
    wait_for(qtbot, lambda: window.growth.phase is Phase.RUNNING, timeout=30)
    assert window.growth.process is not None and window.growth.widget.isVisible()
    assert window.growth.widget.label.text().startswith("Preparing the whole Bible: 0 of 2 books")
    assert window.growth.widget.button.text() == "Pause"
    wait_for(qtbot, lambda: window.growth.progress.books_done >= 1, timeout=BUILD_S)
    assert window.growth.widget.label.text().startswith("Preparing the whole Bible: 1 of 2 books · ")
    # the session read the new coverage without re-opening: 2 John is searchable now
    wait_for(qtbot, lambda: run(qtbot, window.session.engine.run_db(lambda s: s.coverage().books)) == ("2-john",),
             timeout=30)

    # Quit while it runs: the child stops, the library keeps its whole books, and is still growing.
    harness.close(window)
    books, growing = _coverage(db)
    assert "2-john" in books and growing

    # Restart: not paused, so it continues by itself; then the reader pauses it.
    window = harness.open(proxy=proxy)
    wait_for(qtbot, lambda: window.growth.phase is Phase.RUNNING, timeout=30)
    assert window.growth.process is not None
    wait_for(qtbot, lambda: window.growth.process is not None and window.growth.process.processId() > 0)
    pid = window.growth.process.processId()
    window.growth.widget.button.click()
    assert window.growth.phase is Phase.PAUSED and window.growth.process is None
    wait_for(qtbot, lambda: not _running(pid), timeout=10)  # the child is gone, not left building
    assert window.growth.widget.label.text().startswith("Whole Bible paused: ")
    assert window.growth.widget.button.text() == "Continue"
    harness.close(window)

    # Paused is kept: the next start waits for Continue; Continue finishes the library.
    window = harness.open(proxy=proxy)
    wait_for(qtbot, lambda: window.growth.phase is Phase.PAUSED, timeout=30)
    assert window.growth.process is None and window.growth.widget.button.text() == "Continue"
    window.growth.widget.button.click()
    assert window.growth.phase is Phase.RUNNING
    wait_for(qtbot, lambda: window.growth.phase is Phase.DONE, timeout=BUILD_S)
    assert _coverage(db) == (("2-john", "3-john"), False) and not growing_marker(db).exists()
    # the session opened it again, complete: nothing left to grow, nothing shown
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.READY
             and window.session.library.state.info is not None
             and "build_state" not in window.session.library.state.info.meta, timeout=30)
    assert window.growth.phase is Phase.IDLE and not window.growth.widget.isVisible()
