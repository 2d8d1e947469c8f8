"""``ingest`` when things go wrong: the library is byte-identical afterwards and nothing is left beside it.

Each fault is real: a proxy that cannot be reached or breaks off mid-run, a disk that is full
(``RLIMIT_FSIZE`` on the child process, as in ``test_export_faults.py``), and signals sent to a running
``amicus-desktop ingest`` process once its temporary copy exists (SIGINT, SIGTERM, SIGHUP; and SIGKILL,
after which the next run clears what was left).
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from amicus_desktop.store.update import TMP_INFIX
from tests.support.cli import run
from tests.support.ingest import folder_state, notes, write_jsonl
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=8) as p:
        yield p


@pytest.fixture
def library(tmp_path: Path, proxy: ScriptedProxy) -> tuple[Path, Path]:
    """A library of 3 chunks, and a corpus that replaces one and adds 40 long ones (≈ 120 KB of text, more
    than the library's free pages hold, so that it must grow)."""
    db = tmp_path / "lib" / "scripture.db"
    db.parent.mkdir()
    code, out, err = run("ingest", str(write_jsonl(tmp_path / "first.jsonl", [notes(3)])), "--db", str(db),
                         "--proxy", proxy.url, "--quiet")
    assert code == 0, out + err
    changed = notes(3)
    changed["chunks"][0]["text"] = "A changed note on the law."
    more = notes(40, prefix="more")
    for c in more["chunks"]:
        c["text"] = (c["text"] + " ") * 60
    return db, write_jsonl(tmp_path / "more.jsonl", [changed, more])


def _error(args: list[str]) -> tuple[int, dict[str, str]]:
    code, out, _err = run("ingest", *args, "--json")
    return code, json.loads(out)["error"]


def test_an_unreachable_proxy_changes_nothing(tmp_path: Path, library: tuple[Path, Path]) -> None:
    db, corpus = library
    before = folder_state(db.parent)
    url = f"http://127.0.0.1:{free_port()}"
    code, err = _error([str(corpus), "--db", str(db), "--proxy", url])
    assert code == 1 and err["code"] == "OFFLINE"
    assert folder_state(db.parent) == before
    code, err = _error([str(corpus), "--db", str(db.parent / "new.db"), "--proxy", url])
    assert code == 1 and err["code"] == "OFFLINE"
    assert folder_state(db.parent) == before


def test_a_proxy_that_breaks_off_mid_run_changes_nothing(library: tuple[Path, Path], proxy: ScriptedProxy) -> None:
    db, corpus = library
    before = folder_state(db.parent)
    answered = []

    def second_batch_fails(body: dict[str, object]) -> str | None:
        if body.get("health"):
            return None
        answered.append(1)
        return "close" if len(answered) > 1 else None

    proxy.behaviour = second_batch_fails
    code, err = _error([str(corpus), "--db", str(db), "--proxy", proxy.url, "--batch", "8"])
    assert code == 1 and err["code"] in ("OFFLINE", "EMBED_FAILED")
    assert len(answered) >= 2  # the first batch was written into the copy before the failure
    assert folder_state(db.parent) == before


def _limit_file_size(limit: int) -> Callable[[], None]:
    def preexec() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return preexec


@pytest.mark.parametrize("room", [-1, 0], ids=["the-copy-fails", "a-write-fails"])
def test_a_full_disk_changes_nothing(library: tuple[Path, Path], proxy: ScriptedProxy, room: int) -> None:
    db, corpus = library
    before = folder_state(db.parent)
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop", "ingest", str(corpus), "--db", str(db), "--proxy", proxy.url,
         "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
        preexec_fn=_limit_file_size(db.stat().st_size + room),
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    err = json.loads(proc.stdout)["error"]
    assert err["code"] == "WRITE_FAILED" and "is as it was" in err["message"], err
    assert folder_state(db.parent) == before


def _as_from_a_terminal() -> None:
    """Ctrl-C as a terminal delivers it: a suite started in the background (CI, ``cmd &``) hands its children
    SIGINT ignored, and Python then installs no handler for it, so the signal would be lost."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(corpus: Path, db: Path, proxy: ScriptedProxy) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "amicus_desktop", "ingest", str(corpus), "--db", str(db), "--proxy", proxy.url,
         "--batch", "4"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_as_from_a_terminal,
    )


def _wait_for_copy(proc: subprocess.Popen[str], db: Path) -> Path:
    """The temporary copy of ``db`` the running ingest made (it is at work inside the update)."""
    tmp = db.with_name(f".{db.name}{TMP_INFIX}{proc.pid}")
    deadline = time.monotonic() + 60
    while not tmp.exists():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the ingest never made its copy"
        time.sleep(0.02)
    return tmp


def _end(proc: subprocess.Popen[str]) -> str:
    """``proc``'s stderr once it has ended; killed (and the test failed) when it has not within 60 s, so that a
    hang costs this test alone."""
    try:
        return proc.communicate(timeout=60)[1]
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        raise


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_a_signal_mid_run_changes_nothing(library: tuple[Path, Path], proxy: ScriptedProxy,
                                          sig: signal.Signals) -> None:
    db, corpus = library
    before = folder_state(db.parent)
    proxy.behaviour = lambda body: None if body.get("health") else (time.sleep(0.3), None)[1]  # slow batches
    proc = _start(corpus, db, proxy)
    _wait_for_copy(proc, db)
    proc.send_signal(sig)
    err = _end(proc)
    assert proc.returncode == 130, err
    assert "INTERRUPTED" in err and "is as it was" in err
    assert folder_state(db.parent) == before


def test_a_second_signal_interrupts_at_once(library: tuple[Path, Path], proxy: ScriptedProxy) -> None:
    """The first signal waits for the batch in flight (it is not raised inside the HTTP client); a second one
    does not: here the proxy never answers the batch until the test ends."""
    db, corpus = library
    before = folder_state(db.parent)
    asked, release = threading.Event(), threading.Event()

    def hold(body: dict[str, object]) -> None:
        if not body.get("health"):
            asked.set()
            release.wait(120)

    proxy.behaviour = hold
    proc = _start(corpus, db, proxy)
    try:
        _wait_for_copy(proc, db)
        # the batch in flight first: a signal before it is asked for ends the run at the batch's check, at once
        # (as it should; seen under load, when the signal came between the copy and the first batch)
        assert asked.wait(60), "the ingest never asked for its first batch"
        proc.send_signal(signal.SIGTERM)
        time.sleep(1.0)
        assert proc.poll() is None  # waiting for the batch, as asked
        proc.send_signal(signal.SIGTERM)
        err = _end(proc)
    finally:
        release.set()
        if proc.returncode is None:  # failed above: end it and close its pipes here, not in the next test
            proc.kill()
            proc.communicate()
    assert proc.returncode == 130, err
    assert "INTERRUPTED" in err and "is as it was" in err
    assert folder_state(db.parent) == before


def test_after_sigkill_the_next_run_clears_the_leftover(library: tuple[Path, Path], proxy: ScriptedProxy) -> None:
    db, corpus = library
    proxy.behaviour = lambda body: None if body.get("health") else (time.sleep(0.3), None)[1]
    proc = _start(corpus, db, proxy)
    tmp = _wait_for_copy(proc, db)
    proc.kill()
    _end(proc)
    assert tmp.exists()  # nothing can clean up after SIGKILL …
    proxy.behaviour = None
    code, out, err = run("ingest", str(corpus), "--db", str(db), "--proxy", proxy.url, "--quiet")
    assert code == 0, out + err
    assert sorted(p.name for p in db.parent.iterdir()) == [db.name]  # … but the next run does
    assert os.stat(db).st_size > 0


def test_an_unchanged_ingest_writes_not_a_byte(tmp_path: Path, library: tuple[Path, Path],
                                               proxy: ScriptedProxy) -> None:
    """With every file limited to one byte, re-ingesting what the library holds still succeeds: nothing
    is copied or written (a change would fail at once, as the test above shows)."""
    db, _corpus = library
    before = folder_state(db.parent)
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop", "ingest", str(tmp_path / "first.jsonl"), "--db", str(db),
         "--proxy", proxy.url, "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False, preexec_fn=_limit_file_size(1),
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    assert (out["chunks_unchanged"], out["chunks_embedded"], out["written"]) == (3, 0, False)
    assert folder_state(db.parent) == before


# -- issue #30 item 4: bad lines are reported, never abort the run -----------------------------------
def _bad_lines() -> list[dict[str, object] | str]:
    good = notes(2, prefix="good")
    surrogate = notes(1, prefix="sur")
    surrogate["chunks"][0]["text"] = "a lone \ud800 surrogate"
    title = notes(1, prefix="tit")
    title["title"] = "\udfff"
    fraction = notes(1, prefix="frac")
    fraction["chunks"][0]["chapter_num"] = 9.0
    nul = notes(1, prefix="nul")
    nul["chunks"][0]["text"] = "a NUL\x00 inside"
    past = notes(1, prefix="past")
    past["chunks"][0].update(verse_start=33, verse_end=40)  # Romans 1 has 32 verses
    return [good, surrogate, title, fraction, nul, past,
            '{"source_id": "n", "source_type": "section_panel", "chunks": [{"chunk_id": "nan", "text": "t", '
            '"book_id": "romans", "chapter_num": NaN}]}']


@pytest.mark.parametrize("backend", ["proxy", "local"])
def test_bad_lines_are_reported_by_line_and_the_good_ones_go_in(tmp_path: Path, proxy: ScriptedProxy,
                                                               backend: str) -> None:
    """A lone surrogate aborted the whole run (INGEST_FAILED with no line; a traceback from the local model's
    tokenizer), "chapter_num": 9.0 crashed the insert with apsw.SQLError; NUL characters, verses past the
    chapter's end and NaN went in. Now each is its line's error with the field's pointer."""
    corpus = write_jsonl(tmp_path / "bad.jsonl", _bad_lines())
    db = tmp_path / "lib" / "scripture.db"
    db.parent.mkdir()
    how = ["--proxy", proxy.url] if backend == "proxy" else ["--backend", "local"]
    code, out, err = run("ingest", str(corpus), "--db", str(db), *how, "--json")
    assert code == 1, out + err
    report = json.loads(out)
    assert (report["documents_ingested"], report["chunks_ingested"]) == (1, 2)
    by_line = {(e["line"], e["message"].split(":")[0]) for e in report["errors"]}
    assert by_line == {(2, "/chunks/0/text"), (3, "/title"), (4, "/chunks/0/chapter_num"), (5, "/chunks/0/text"),
                       (6, "/chunks/0/verse_start"), (6, "/chunks/0/verse_end"), (7, "/chunks/0/chapter_num")}, report
    messages = " ".join(e["message"] for e in report["errors"])
    for words in ("lone surrogate", "whole number", "NUL", "Romans 1 has 32 verses", "finite"):
        assert words in messages
    assert "Traceback" not in err


def test_a_fifo_with_no_writer_is_refused_at_once(tmp_path: Path, proxy: ScriptedProxy) -> None:
    fifo = tmp_path / "corpus.jsonl"
    os.mkfifo(fifo)
    proc = subprocess.run([sys.executable, "-m", "amicus_desktop", "ingest", str(fifo), "--db",
                           str(tmp_path / "x.db"), "--proxy", proxy.url, "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    err = json.loads(proc.stdout)["error"]
    assert err["code"] == "CORPUS_UNREADABLE" and "not a regular file" in err["message"]
    assert not (tmp_path / "x.db").exists()


def test_whatever_sqlite_refuses_is_a_contract_error(library: tuple[Path, Path], proxy: ScriptedProxy) -> None:
    """A library built elsewhere whose table refuses the insert (here a trigger): INGEST_FAILED as JSON, the
    library as it was (an apsw traceback before)."""
    import apsw

    db, corpus = library
    con = apsw.Connection(str(db))
    con.execute("CREATE TRIGGER refuse BEFORE INSERT ON chunk_text BEGIN SELECT RAISE(ABORT, 'not here'); END")
    con.close()
    before = folder_state(db.parent)
    code, out, err = run("ingest", str(corpus), "--db", str(db), "--proxy", proxy.url, "--json")
    assert code == 1 and "Traceback" not in err, out + err
    error = json.loads(out)["error"]
    assert error["code"] == "INGEST_FAILED" and "not here" in error["message"] and "is as it was" in error["message"]
    assert folder_state(db.parent) == before


def test_a_file_size_limit_on_a_new_library_is_write_failed(tmp_path: Path, proxy: ScriptedProxy) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", [notes(3)])
    db = tmp_path / "lib" / "new.db"
    db.parent.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "amicus_desktop", "ingest", str(corpus), "--db", str(db), "--proxy", proxy.url,
         "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False, preexec_fn=_limit_file_size(4096),
    )
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["error"]["code"] == "WRITE_FAILED"
    assert list(db.parent.iterdir()) == []
