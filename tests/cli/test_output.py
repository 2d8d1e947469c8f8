"""What the command line writes (``cli/output.py``): text from outside — a proxy's error, titles and
text from the database, a model id — never reaches the terminal as a control sequence (#20.5), is
quoted bounded (#20.22), and nothing the terminal cannot encode is a traceback (#20.8)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from amicus_desktop.core.results import ChunkMetadata
from tests.support.cli import run
from tests.support.dbs import BOOKS, Chunk, build_db, demo_like_chunks, unit
from tests.support.scripted_proxy import ScriptedProxy, reply_json

ESCAPES = ("\x1b", "\x07", "\x9b", "\x9d", "\x00", "\r")
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x9b31m\x9d0;x\x9c\r\x00"


def assert_inert(text: str) -> None:
    assert not any(c in text for c in ESCAPES), repr(text)


@pytest.fixture
def hostile_db(tmp_path: Path) -> Path:
    """The demo-like chunks plus one whose text and scholar carry terminal escapes."""
    chunks = demo_like_chunks(dims=8)
    chunks.append(Chunk("evil-1", unit([1.0] * 8), f"grace {HOSTILE} grace abounding", "section_panel", "x",
                        ChunkMetadata(scholar_id=f"evil{HOSTILE}", book_id="romans", chapter_num=5)))
    return build_db(tmp_path / "hostile.db", chunks, books=BOOKS)


def test_control_characters_from_a_proxy_error_and_the_database_are_escaped(hostile_db: Path) -> None:
    """#20.5: ``query`` printed a proxy's ``\\x1b[2J`` and OSC titles raw to the terminal."""
    with ScriptedProxy(dims=8) as proxy:
        proxy.behaviour = lambda _b: reply_json(500, {"error": {"code": f"E{HOSTILE}", "message": f"boom {HOSTILE}"}})
        code, out, err = run("query", "grace", "--db", str(hostile_db), "--proxy", proxy.url)
        assert code == 1 and "EMBED_FAILED" in err and "boom" in err
        assert_inert(out + err)
        assert "\\u001b[2J" in err  # shown, inert
        code, out, err = run("doctor", "--db", str(hostile_db), "--proxy", proxy.url)
        assert_inert(out + err)
    code, out, err = run("query", "grace abounding", "--db", str(hostile_db), "--mode", "keyword")
    assert code == 0 and "evil\\u001b[2J" in out and "grace \\u001b[2J" in out  # title and snippet, inert
    assert_inert(out + err)
    code, out, err = run("context", "grace abounding", "--db", str(hostile_db), "--mode", "keyword")
    assert code == 0 and "grace" in out
    assert_inert(out + err)
    code, out, _ = run("query", "grace abounding", "--db", str(hostile_db), "--mode", "keyword", "--json")
    assert any(HOSTILE in r["text"] for r in json.loads(out)["results"])  # --json keeps the text exactly


def test_real_argv_bytes_and_a_strict_ascii_terminal_give_no_traceback(small_db: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii:strict"}
    base = [sys.executable, "-m", "amicus_desktop", "query", "grace", "--mode", "keyword", "--db", str(small_db)]
    proc = subprocess.run([*base, "--scholar", b"\xff"], capture_output=True, env=env, timeout=120)
    assert proc.returncode == 2 and b"not valid UTF-8" in proc.stderr and b"Traceback" not in proc.stderr
    proc = subprocess.run(base, capture_output=True, env=env, timeout=120)  # "·", "—" and "×" in the table
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    assert b"results \\xb7 keyword search" in proc.stdout


def test_a_three_megabyte_model_id_is_not_echoed_whole(small_db: Path) -> None:
    """#20.22: the proxy's model id was quoted whole (3 MB) into the MODEL_MISMATCH message."""
    with ScriptedProxy(dims=8, model="m" * 3_000_000 + HOSTILE) as proxy:
        code, out, err = run("query", "grace", "--db", str(small_db), "--proxy", proxy.url, "--json")
        error = json.loads(out)["error"]
        assert code == 1 and error["code"] == "MODEL_MISMATCH" and len(error["message"]) < 500
        code, out, err = run("doctor", "--db", str(small_db), "--proxy", proxy.url)
        assert len(out + err) < 10_000
        assert_inert(out + err)
