"""``build-db --resume``: a library built book by book, killed at random points, always whole books and usable."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from amicus_desktop.corpus.build import BuildCancelled
from amicus_desktop.corpus.grow import NotGrowing, build_order, grow_database
from amicus_desktop.corpus.sources.common import Scope
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.sqlite import connect, growing_marker
from tests.support.cli import query_json, run
from tests.support.dbs import read_rows

BOOKS = ["jude", "3-john", "2-john", "philemon"]
ROOT = Path(__file__).resolve().parents[2]
#: resumes the build, saying when each book starts (so the test can kill it while books are written)
CHILD = (
    "import sys; sys.path.insert(0, sys.argv[2])\n"
    "from tests.support.embedders import StandInEmbedder\n"
    "from amicus_desktop.corpus.grow import grow_database\n"
    "def say(p):\n"
    "    if p.stage.startswith('book '): print(p.stage, flush=True)\n"
    "grow_database(sys.argv[1], sys.argv[3].split(','), StandInEmbedder(), batch=8, progress=say)\n"
)
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1200)]


def _per_book(db: Path) -> dict[str, int]:
    con = connect(db, readonly=False)
    try:
        return {str(b): int(n) for b, n in con.execute(
            "SELECT book_id, count(*) FROM chunk_metadata WHERE book_id IS NOT NULL GROUP BY 1")}
    finally:
        con.close()


def _check_usable(db: Path, whole: dict[str, int]) -> tuple[str, ...]:
    """The library opens, validates, holds only whole books (a prefix of the build order) and answers."""
    with ScriptureStore(db) as store:
        books = store.coverage().books
        assert len(store.books()) == 66 and store.chapter("genesis", 1)[0][1].startswith("In the beginning")
    order = [b.book_id for b in build_order(Scope.of(BOOKS).books)]
    assert sorted(books) == sorted(order[: len(books)])
    per_book = _per_book(db)
    assert all(per_book[b] == whole[b] for b in books)  # never half a book
    code, out = query_json("grace and peace", "--db", str(db), "--mode", "keyword")
    assert code == 0 and isinstance(out["results"], list) and (out["results"] or not books)
    assert out["diagnostics"]["coverage"]["study_books"] == list(books)
    return books


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory, library) -> dict[str, int]:
    """How many chunks each book has when built in one go (the reference for "whole books")."""
    from tests.support.embedders import StandInEmbedder

    db = tmp_path_factory.mktemp("grow") / "straight.db"
    report = grow_database(db, BOOKS, StandInEmbedder(), library=library)
    assert report.complete and set(report.books_written) == set(BOOKS)
    assert not growing_marker(db).exists() and db.read_bytes()[18:20] == b"\x01\x01"  # an ordinary file again
    with ScriptureStore(db) as store:
        assert store.coverage().books == ("philemon", "2-john", "3-john", "jude") and not store.coverage().growing
    return _per_book(db)


def test_killed_at_a_random_point_it_stays_whole_and_resumes(tmp_path: Path, whole: dict[str, int], library) -> None:
    from tests.support.embedders import StandInEmbedder

    db = tmp_path / "scripture.db"
    cancel = threading.Event()
    cancel.set()  # the library appears (all the text, no book yet), then the build stops
    with pytest.raises(BuildCancelled):
        grow_database(db, BOOKS, StandInEmbedder(), library=library, cancel=cancel)
    assert _check_usable(db, whole) == ()
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(db), str(ROOT), ",".join(BOOKS)], cwd=ROOT,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        started = [child.stdout.readline() for _ in range(random.randint(1, len(BOOKS)))]
        assert all(line.startswith("book ") for line in started)
        time.sleep(random.uniform(0.0, 0.5))  # somewhere in embedding or writing that book
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=60)
        if child.stdout is not None:
            child.stdout.close()
    _check_usable(db, whole)
    # killed before the library was finished — in a book, in the cross-reference index after one, or after the last
    # book in what belongs to no book (it may have finished first): the next run continues it
    if growing_marker(db).exists():
        report = grow_database(db, BOOKS, StandInEmbedder(), library=library)
        assert report.complete
    assert _check_usable(db, whole) and not growing_marker(db).exists()
    assert _per_book(db) == whole  # nothing twice, nothing missing
    con = connect(db, readonly=False)
    try:
        texts, vectors = (int(next(iter(con.execute(f"SELECT count(*) FROM {t}")))[0])
                          for t in ("chunk_text", "embeddings"))
        assert texts == vectors
    finally:
        con.close()


def test_resume_refuses_a_finished_library_and_the_cli_prints_progress(tmp_path: Path) -> None:
    from tests.support.scripted_proxy import ScriptedProxy

    db = tmp_path / "done.db"
    with ScriptedProxy(dims=8, model="scripted-model@1") as proxy:
        code, out, err = run("build-db", "--out", str(db), "--books", "jude", "--resume", "--proxy", proxy.url)
    assert code == 0 and "1 of 66 books have study material" in out and "the library is complete" in out
    assert "book 1/2: Jude [" in err and "chunks" in err
    from tests.support.embedders import StandInEmbedder

    with pytest.raises(NotGrowing, match="finished library"):
        grow_database(db, ["jude"], StandInEmbedder())
    code, out, err = run("doctor", "--db", str(db))
    assert "1 of 66 books have study material (Jude)" in out


def test_the_content_id_is_stored_once_the_last_book_is_in(tmp_path: Path, library) -> None:
    from amicus_desktop.store.content_id import CONTENT_ID_KEY, computed, library_id
    from tests.support.embedders import StandInEmbedder

    db = tmp_path / "grown.db"
    stored = lambda: dict(read_rows(db, "SELECT key, value FROM db_meta")).get(CONTENT_ID_KEY)  # noqa: E731
    assert not grow_database(db, BOOKS[:2], StandInEmbedder(), library=library, stop_after=1).complete
    assert stored() is None  # still growing: each book changes it, so a reader computes it
    with ScriptureStore(db) as store:
        growing = library_id(store)
    assert grow_database(db, BOOKS[:2], StandInEmbedder(), library=library).complete
    with ScriptureStore(db) as store:
        assert stored() == library_id(store) == computed(store) != growing
