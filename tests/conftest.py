"""Shared fixtures: an isolated AMICUS_HOME per test, offscreen Qt, single-threaded BLAS."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from amicus_desktop.embedding.local import LocalMiniLMBackend

# Before numpy or Qt load anywhere: 2 BLAS threads on a 2-core VM are slower than 1 (docs/PERFORMANCE.md),
# and tests never open a real window. (QT_API is the app's own business: amicus_desktop/ui/__init__.py.)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


# -- every bundle the suite produces fits the shipped schema (tests/support/bundles.py) ------------
@pytest.fixture(scope="session", autouse=True)
def every_bundle_fits_its_schema() -> Iterator[None]:
    """For the whole run, each ``RetrievalResult.to_json()`` made in this process is checked against
    ``resources/schemas/bundle.schema.json`` (the CLI helpers and the service helper check what other
    processes print); a bad one fails the test that made it (below) and, at the end, the run."""
    from amicus_desktop.core.results import RetrievalResult
    from tests.support.bundles import LEDGER, check_bundle_json

    original = RetrievalResult.to_json

    def to_json(self: RetrievalResult) -> dict[str, Any]:
        data = original(self)
        check_bundle_json(data, " (RetrievalResult.to_json)")
        return data

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(RetrievalResult, "to_json", to_json)
        yield
    assert not LEDGER.invalid, "bundles that do not fit resources/schemas/bundle.schema.json:\n" + "\n".join(
        f"{test}: {'; '.join(problems)}" for test, problems in LEDGER.invalid)


@pytest.fixture(autouse=True)
def no_invalid_bundle(every_bundle_fits_its_schema: None) -> Iterator[None]:
    """Fails the test that produced a bundle the schema refuses, naming each problem's JSON pointer."""
    from tests.support.bundles import LEDGER

    before = len(LEDGER.invalid)
    yield
    new = LEDGER.invalid[before:]
    assert not new, "a bundle that does not fit resources/schemas/bundle.schema.json:\n" + "\n".join(
        f"{test}: {'; '.join(problems)}" for test, problems in new)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    from tests.support.bundles import LEDGER

    if LEDGER.checked or LEDGER.answers:
        terminalreporter.write_line(f"bundle schema: {LEDGER.checked} bundles and {LEDGER.answers} service answers "
                                    f"checked, {len(LEDGER.invalid)} did not fit")


@pytest.fixture(autouse=True)
def amicus_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own config/data/log folders; nothing touches the real user's."""
    home = tmp_path_factory.mktemp("amicus-home")
    monkeypatch.setenv("AMICUS_HOME", str(home))
    for var in ("AMICUS_DB", "AMICUS_PROXY_URL", "AMICUS_PROXY_TOKEN", "AMICUS_SQLITE_VEC_PATH"):
        monkeypatch.delenv(var, raising=False)
    return home


# -- a real study library and the real local proxy, shared by the whole session ----------------
@pytest.fixture(scope="session")
def local_model() -> LocalMiniLMBackend:
    """The real local model, loaded once for the whole run (every suite shares this one)."""
    from amicus_desktop.embedding import get_backend
    from amicus_desktop.embedding.local import LocalMiniLMBackend

    backend = get_backend("local")
    assert isinstance(backend, LocalMiniLMBackend)
    backend.load()
    return backend


@pytest.fixture(scope="session")
def study_db(tmp_path_factory: pytest.TempPathFactory, local_model) -> Path:
    """Romans 3, 5, 9 and friends, full schema, real vectors (see ``tests/support/study.py``)."""
    from tests.support.build_cache import cached
    from tests.support.study import build_study_db

    path = tmp_path_factory.mktemp("study") / "scripture.db"
    return cached("study", path, lambda p: build_study_db(p, local_model.embed, local_model.model_id, local_model.dims))


@pytest.fixture(scope="session")
def study_db_minimal(tmp_path_factory: pytest.TempPathFactory, study_db: Path) -> Path:
    """The same chunks and vectors with the contract's minimal schema (no vec0 columns, no index)."""
    import numpy as np

    from amicus_desktop.store.sqlite import connect
    from tests.support.study import study_records, write_study_db

    records, verses = study_records()
    con = connect(study_db, readonly=True)
    try:
        ids = {str(cid): int(rowid) for rowid, cid in con.execute("SELECT rowid, chunk_id FROM chunk_text")}
        blobs = dict(con.execute("SELECT rowid, embedding FROM embeddings"))
        meta = dict(con.execute("SELECT key, value FROM db_meta"))
        model, dims = meta["embedding_model"], meta["embedding_dims"]
    finally:
        con.close()
    vectors = np.stack([np.frombuffer(blobs[ids[r.chunk_id]], dtype=np.float32) for r in records])
    path = tmp_path_factory.mktemp("study-minimal") / "scripture.db"
    return write_study_db(path, records, vectors, str(model), int(dims), verses, full_schema=False)


@pytest.fixture(scope="session")
def demo_db(tmp_path_factory: pytest.TempPathFactory, local_model) -> Path:
    """The demo library (Romans and John) exactly as ``build-db --demo`` builds it, with the real local model:
    built once per run (a minute or two) for the tests of what a reader gets on real data."""
    from amicus_desktop.corpus import build_database
    from amicus_desktop.corpus.sources.common import DEMO_BOOKS
    from tests.support.build_cache import cached

    path = tmp_path_factory.mktemp("demo") / "scripture.db"
    return cached("demo", path, lambda p: build_database(p, list(DEMO_BOOKS), local_model))


@pytest.fixture(scope="session")
def verse_db(tmp_path_factory: pytest.TempPathFactory, local_model) -> Path:
    """Chapters of John and Romans with the verse-search tables, real vectors (``tests/support/verses.py``)."""
    from tests.support.build_cache import cached
    from tests.support.verses import build_verse_library

    path = tmp_path_factory.mktemp("verses") / "scripture.db"
    return cached("verses", path, lambda p: build_verse_library(p, local_model))


@pytest.fixture(scope="session")
def sample_db(tmp_path_factory: pytest.TempPathFactory, local_model) -> Path:
    """The library ``ingest resources/corpus/sample-study-notes.jsonl`` builds, with the real local model:
    the sample overlay's library (thirteen chunks, two sample authors; a second to build)."""
    from amicus_desktop.corpus.documents import read_corpus
    from amicus_desktop.corpus.ingest import ingest
    from amicus_desktop.resources import resource_path

    path = tmp_path_factory.mktemp("sample") / "sample.db"
    ingest(read_corpus(resource_path("corpus", "sample-study-notes.jsonl")), path, local_model)
    return path


@pytest.fixture(scope="session")
def local_proxy():
    from tests.support.proxy import ProxyProcess

    proxy = ProxyProcess("--rate-limit", "0")
    proxy.start()
    try:
        yield proxy
    finally:
        proxy.close()


@pytest.fixture(scope="session")
def qt_thread_gc(qapp: Any) -> Iterator[Any]:
    """Python's garbage collector run on the Qt thread only, as the app starts it
    (``amicus_desktop/ui/qt_thread_gc.py``): a collection in a worker thread could free a QObject
    there, and its timers then crash the next event loop turn. For every test that runs a qasync
    loop (the UI and fault suites' windows)."""
    from amicus_desktop.ui.qt_thread_gc import QtThreadGC

    collector = QtThreadGC(qapp).start()
    yield collector
    collector.stop()


@pytest.fixture
def small_db(tmp_path: Path) -> Path:
    """112 random-vector chunks (8 dims, model ``test-model``), books and verses: for scripted-proxy tests."""
    from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses

    return build_db(tmp_path / "small.db", demo_like_chunks(dims=8), books=BOOKS, verses=verses())
