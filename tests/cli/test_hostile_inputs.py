"""What an attacker, a broken proxy or a damaged file can feed the command line (issue #20).

Control characters from outside are escaped (#20.5), bytes that are not UTF-8 are usage errors and a
strict terminal encoding is no traceback (#20.8), scores stay finite (#20.16), and a NUL byte in the
saved database path is ``DB_NOT_FOUND`` (#20.21).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.retrieval import Retriever
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


@pytest.mark.parametrize("flag", ["--scholar", "--tradition", "--pin", "--db", "--prefer-scholar", "--book",
                                  "--chapter", "--proxy"])
def test_bytes_that_are_not_utf8_are_usage_errors(small_db: Path, flag: str) -> None:
    """#20.8: ``--scholar $'\\xff'`` reached SQLite and the terminal as a lone surrogate: a traceback."""
    value = os.fsdecode(b"\xff\xfe")  # what Python makes of such argv bytes (surrogateescape)
    args = ["--db", str(small_db)] if flag != "--db" else []
    code, out, err = run("query", "grace", "--mode", "keyword", *args, flag, value)
    assert code == 2 and "not valid UTF-8" in err and flag in err and "Traceback" not in err
    assert_inert(out + err)


def test_real_argv_bytes_and_a_strict_ascii_terminal_give_no_traceback(small_db: Path) -> None:
    env = {**os.environ, "PYTHONIOENCODING": "ascii:strict"}
    base = [sys.executable, "-m", "amicus_desktop", "query", "grace", "--mode", "keyword", "--db", str(small_db)]
    proc = subprocess.run([*base, "--scholar", b"\xff"], capture_output=True, env=env, timeout=120)
    assert proc.returncode == 2 and b"not valid UTF-8" in proc.stderr and b"Traceback" not in proc.stderr
    proc = subprocess.run(base, capture_output=True, env=env, timeout=120)  # "·", "—" and "×" in the table
    assert proc.returncode == 0 and b"Traceback" not in proc.stderr, proc.stderr
    assert b"results \\xb7 keyword search" in proc.stdout


def test_boosts_are_bounded_and_every_score_is_finite_json(small_db: Path) -> None:
    """#20.16: ``--chapter-boost 1e308 --scholar-boost 1e308`` scored ``Infinity``, which is not JSON."""
    code, _, err = run("query", "grace", "--db", str(small_db), "--mode", "keyword",
                       "--chapter-boost", "1e308", "--scholar-boost", "1e308")
    assert code == 2 and "at most 100" in err
    flags = ["--chapter", "romans:5", "--prefer-scholar", "john-calvin", "--prefer-tradition", "reformed",
             *[x for b in ("chapter", "scholar", "tradition", "reference") for x in (f"--{b}-boost", "100")]]
    code, out, err = run("query", "grace Romans 5", "--db", str(small_db), "--mode", "keyword", "--json", *flags)
    assert code == 0, err

    def refuse(constant: str) -> float:
        raise AssertionError(f"{constant} in the JSON output")

    bundle = json.loads(out, parse_constant=refuse)
    scores = [r["score"] for r in bundle["results"]] + [r["score"] for r in bundle["rejected"]]
    assert scores and all(math.isfinite(s) for s in scores)
    assert max(scores) > 10  # the boosts did multiply


def test_a_nul_byte_in_the_saved_database_path_is_db_not_found(amicus_home: Path, tmp_path: Path) -> None:
    """#20.21: a traceback in the CLI (and "Opening database…" for ever in the app)."""
    cfg = paths.config_dir()
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "settings.json").write_text('{"db_path": "/data/scripture\\u0000.db"}')
    code, out, err = run("query", "grace", "--mode", "keyword", "--json")
    assert code == 1 and json.loads(out)["error"]["code"] == "DB_NOT_FOUND" and "Traceback" not in err
    retriever = Retriever(tmp_path / "scripture\x00.db", "http://127.0.0.1:9")
    import asyncio

    async def open_it() -> None:
        try:
            await retriever.open()
        finally:
            await retriever.aclose()

    with pytest.raises(AmicusError) as caught:
        asyncio.run(open_it())
    assert caught.value.code is ErrorCode.DB_NOT_FOUND and "NUL" in caught.value.message


def test_a_three_megabyte_model_id_is_not_echoed_whole(small_db: Path) -> None:
    """#20.22: the proxy's model id was quoted whole (3 MB) into the MODEL_MISMATCH message."""
    with ScriptedProxy(dims=8, model="m" * 3_000_000 + HOSTILE) as proxy:
        code, out, err = run("query", "grace", "--db", str(small_db), "--proxy", proxy.url, "--json")
        error = json.loads(out)["error"]
        assert code == 1 and error["code"] == "MODEL_MISMATCH" and len(error["message"]) < 500
        code, out, err = run("doctor", "--db", str(small_db), "--proxy", proxy.url)
        assert len(out + err) < 10_000
        assert_inert(out + err)
