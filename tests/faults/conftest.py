"""The fault suite: real pieces driven through real failures (issue: reliability).

Two guards run around every test here:

* ``guarded_db`` — a small scripture.db embedded with the real local model; its SHA-256 is taken
  before the test and checked after it: a fault must never change the file.
* ``leak_guard`` — every log record (the ``amicus`` loggers, root, and the app's rotating log
  file under ``AMICUS_HOME``) is checked for the query text, the proxy token and the API key.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.store.writer import ChunkRecord, ScriptureWriter
from tests.support.figures import FIGURES

# the window tests' fixtures, shared with the fault suite
from tests.ui.conftest import aloop as aloop
from tests.ui.conftest import collect_after_each_test as collect_after_each_test
from tests.ui.conftest import harness as harness

SECRET_QUERY = "Where does Onesiphorus keep his secret prayer list"
SECRET_TOKEN = "tok-Zx81-never-log-me"
SECRET_KEY = "sk-test-never-log-this-key-4242"
SECRETS = (SECRET_QUERY, "Onesiphorus", SECRET_TOKEN, SECRET_KEY)

TEXTS = [
    ("mh-rom-3", "Being justified freely by his grace through the redemption that is in Christ Jesus.",
     "matthew-henry", "reformed", "romans", 3),
    ("mh-rom-5", "Therefore being justified by faith, we have peace with God through our Lord Jesus Christ.",
     "matthew-henry", "reformed", "romans", 5),
    ("mh-rom-9", "Paul's sorrow for Israel, and God's sovereign choice of Jacob over Esau.",
     "matthew-henry", "reformed", "romans", 9),
    ("sc-rom-9", "Election is the sovereign act of God in grace whereby certain persons are chosen.",
     "c-i-scofield", "dispensational", "romans", 9),
    ("sc-joh-3", "Ye must be born again: the new birth is a new creation by the Holy Spirit.",
     "c-i-scofield", "dispensational", "john", 3),
    ("mh-joh-1", "In the beginning was the Word, and the Word was with God, and the Word was God.",
     "matthew-henry", "reformed", "john", 1),
    ("faq-1", "How scores work: similarity times the chapter, scholar and tradition boosts.", None, None, None, None),
    ("lex-g1344", "dikaioo: to render righteous, to show or declare to be righteous.", None, None, None, None),
]


def _source_type(cid: str) -> str:
    if cid.startswith("faq"):
        return "meta_faq"
    return "lexicon_entry" if cid.startswith("lex") else "section_panel"


@pytest.fixture(scope="session")
def real_db_template(tmp_path_factory: pytest.TempPathFactory, local_model) -> Path:
    """A scripture.db embedded with the real local model (built once per session)."""
    path = tmp_path_factory.mktemp("faults") / "scripture.db"
    records = [
        ChunkRecord(cid, _source_type(cid), cid, text,
                    ChunkMetadata(scholar, tradition, book, chapter, 1, 5 if book else None))
        for cid, text, scholar, tradition, book, chapter in TEXTS
    ]
    vectors = local_model.embed([r.text for r in records])
    with ScriptureWriter(path, model_id=local_model.model_id, dims=local_model.dims, corpus_name="faults") as w:
        w.add_books([("romans", "Romans", 45, 16), ("john", "John", 43, 21)])
        w.add_verses([("romans", 9, 1, "I tell the truth in Christ."), ("john", 3, 16, "For God so loved the world.")])
        w.add_chunks(records, vectors)
    return path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture
def guarded_db(real_db_template: Path, tmp_path: Path) -> Iterator[Path]:
    """A private copy of the real DB; the test fails if the fault changed a byte of it."""
    path = tmp_path / "scripture.db"
    path.write_bytes(real_db_template.read_bytes())
    before = sha256(path)
    yield path
    if path.exists():
        assert sha256(path) == before, "scripture.db changed during a fault test"


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.name} {record.getMessage()} {record.__dict__!r}")


@pytest.fixture(autouse=True)
def leak_guard(amicus_home: Path) -> Iterator[_Collect]:
    handler = _Collect()
    root = logging.getLogger()
    old_level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(old_level)
    texts = handler.lines[:]
    for log_file in amicus_home.rglob("*.log*"):
        texts.append(log_file.read_text(encoding="utf-8", errors="replace"))
    for text in texts:
        for secret in SECRETS:
            assert secret not in text, f"a log line holds a secret: {text[:300]}"


# -- figures for docs/RELIABILITY.md -----------------------------------------------------------


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    passed = [r for r in terminalreporter.stats.get("passed", []) if "tests/faults/" in r.nodeid]
    failed = [r for r in terminalreporter.stats.get("failed", []) if "tests/faults/" in r.nodeid]
    if not (FIGURES or passed or failed):
        return
    terminalreporter.section("fault suite figures")
    terminalreporter.write_line(f"fault tests: {len(passed)} passed, {len(failed)} failed")
    for name, value in FIGURES.items():
        terminalreporter.write_line(f"{name}: {value}")
