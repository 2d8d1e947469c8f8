"""``amicus-desktop query`` as a subprocess: JSON shape, CONTRACT section 3 to the letter, exit codes."""

from __future__ import annotations

import hashlib
import json
import os
import socket
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.store.sqlite import connect
from tests.support.cli import cli
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import dead_proxy, sha256
from tests.support.dbs import Chunk, build_db, edit_db, random_chunks, unit
from tests.support.scripted_proxy import ScriptedProxy, reply_json, text_vector

SECRET = "Sup3r-Secret-Token"


def query_json(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict]:
    proc = cli("query", *args, "--json", env=env)
    assert proc.stdout.count("\n") == 1, proc.stdout + proc.stderr  # one JSON object, one line
    return proc.returncode, json.loads(proc.stdout)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=16, model="test-model") as p:
        yield p


@pytest.fixture(params=[False, True], ids=["exact", "two-stage"])
def corpus(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, list[Chunk]]:
    """The contract corpus, without and with the two-stage tables (used whenever present: ``on``)."""
    chunks = random_chunks(400, 16, seed=7, scholars=("henry", "scofield", "spurgeon", None, "henry"))
    if request.param:
        monkeypatch.setenv("AMICUS_TWO_STAGE", "on")
    return build_db(tmp_path / "scripture.db", chunks, two_stage=request.param), chunks


# -- an independent reading of CONTRACT section 3 ---------------------------------------------
def reference(
    rows: dict[str, dict], sims: dict[str, float], *, chapter=None, scholars=(), traditions=(), k=10, min_sim=None
):
    """Re-implement steps 3–7 from the contract's words, over the candidates the CLI reported."""
    rejected = []
    scored = []
    for cid, sim in sims.items():
        m = rows[cid]
        if min_sim is not None and sim < min_sim:
            rejected.append((cid, "below_threshold", sim, sim))
            continue
        cb = 1.5 if chapter and m["book_id"] == chapter[0] and m["chapter_num"] == chapter[1] else 1.0
        sb = 1.1 if m["scholar_id"] in scholars else 1.0
        tb = 1.05 if m["tradition"] in traditions else 1.0
        scored.append((sim * cb * sb * tb, sim, cid))
    scored.sort(key=lambda t: (-t[0], -t[1], t[2]))
    count: dict[str, int] = {}
    survivors = []
    for final, sim, cid in scored:
        s = rows[cid]["scholar_id"]
        if s is not None:
            count[s] = count.get(s, 0) + 1
            if count[s] > 2:
                rejected.append((cid, "scholar_cap", sim, final))
                continue
        survivors.append((final, sim, cid))
    for final, sim, cid in survivors[k:]:
        rejected.append((cid, "below_cutoff", sim, final))
    return [(cid, final) for final, _, cid in survivors[:k]], rejected


def db_rows(path: Path) -> dict[str, dict]:
    con = connect(path, readonly=True)
    out = {}
    for cid, scholar, tradition, book, chapter in con.execute(
        "SELECT t.chunk_id, m.scholar_id, m.tradition, m.book_id, m.chapter_num"
        " FROM chunk_text t JOIN chunk_metadata m USING (rowid)"
    ):
        out[cid] = {"scholar_id": scholar, "tradition": tradition, "book_id": book, "chapter_num": chapter}
    con.close()
    return out


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"chapter": ("romans", 3)},
        {"chapter": ("john", 2), "scholars": ("henry",), "traditions": ("t-spurgeon",)},
        {"scholars": ("scofield", "spurgeon"), "k": 3},
        {"min_sim": 0.25, "k": 50, "candidates": 60},
        {"chapter": ("romans", 1), "scholars": ("henry",), "traditions": ("t-henry",), "k": 1, "candidates": 1},
    ],
)
def test_query_json_follows_section_3_to_the_letter(corpus, proxy: ScriptedProxy, options: dict) -> None:
    db, chunks = corpus
    query = "what does it mean to be justified?"
    args = [query, "--db", str(db), "--proxy", proxy.url]
    if "chapter" in options:
        args += ["--chapter", f"{options['chapter'][0]}:{options['chapter'][1]}"]
    for s in options.get("scholars", ()):
        args += ["--prefer-scholar", s]
    for t in options.get("traditions", ()):
        args += ["--prefer-tradition", t]
    k = options.get("k", 10)
    candidates = options.get("candidates", 40)
    args += ["--k", str(k), "--candidates", str(candidates)]
    if options.get("min_sim") is not None:
        args += ["--min-similarity", str(options["min_sim"])]
    code, out = query_json(*args)
    assert code == 0, out
    assert out["query"] == query
    assert out["model"] == {"id": "test-model", "dims": 16}
    assert set(out["timing_ms"]) == {"embed", "search", "rerank", "total"}

    # The candidate set is the exact KNN: brute force over the same vectors agrees.
    q = np.asarray(text_vector(query, 16))
    mat = np.stack([unit(c.vector) for c in chunks])
    sims_np = mat @ q
    top = {chunks[i].chunk_id for i in np.argsort(-sims_np)[:candidates]}
    reported = {r["chunk_id"] for r in out["results"]} | {r["chunk_id"] for r in out["rejected"]}
    assert reported == top
    assert len(out["results"]) + len(out["rejected"]) == candidates

    sims = {r["chunk_id"]: r["breakdown"]["similarity"] for r in out["results"]}
    sims |= {r["chunk_id"]: r["similarity"] for r in out["rejected"]}
    for cid, sim in sims.items():
        assert abs(sim - float(sims_np[[c.chunk_id for c in chunks].index(cid)])) < 1e-5
    results, rejected = reference(
        db_rows(db), sims, chapter=options.get("chapter"), scholars=options.get("scholars", ()),
        traditions=options.get("traditions", ()), k=k, min_sim=options.get("min_sim"),
    )
    assert [(r["chunk_id"], r["score"]) for r in out["results"]] == results
    got_rejected = sorted((r["chunk_id"], r["reason"], r["similarity"], r["score"]) for r in out["rejected"])
    assert got_rejected == sorted(rejected)
    for i, r in enumerate(out["results"], start=1):
        b = r["breakdown"]
        assert r["rank"] == i
        assert r["score"] == b["final"]
        assert b["similarity"] == 1 - b["distance"]
        assert b["final"] == b["similarity"] * b["chapter_boost"] * b["scholar_boost"] * b["tradition_boost"]
        assert set(r) == {"rank", "chunk_id", "source_type", "source_id", "text", "score", "metadata", "breakdown"}
        assert set(r["metadata"]) == {
            "scholar_id", "tradition", "book_id", "chapter_num", "verse_start", "verse_end", "panel_type"
        }


def test_ties_fall_to_chunk_id_and_nulls_are_never_capped(tmp_path: Path, proxy: ScriptedProxy) -> None:
    v = [1.0] + [0.0] * 15
    chunks = [Chunk(cid, v) for cid in ("d", "b", "c", "a")]  # identical vectors, no scholar
    henry = ChunkMetadata(scholar_id="henry")
    chunks += [Chunk(f"h{i}", [1.0, 0.1 * (i + 1)] + [0.0] * 14, meta=henry) for i in range(3)]
    db = build_db(tmp_path / "t.db", chunks)
    proxy.vectors["q"] = v
    code, out = query_json("q", "--db", str(db), "--proxy", proxy.url)
    assert code == 0
    assert [r["chunk_id"] for r in out["results"]] == ["a", "b", "c", "d", "h0", "h1"]
    assert [(r["chunk_id"], r["reason"]) for r in out["rejected"]] == [("h2", "scholar_cap")]


def test_chapter_flag_matches_case_insensitively_and_abbreviations(tmp_path: Path, proxy: ScriptedProxy) -> None:
    chunks = [
        Chunk("far-rom9", [1.0, 1.0, 0.3] + [0.0] * 13, meta=ChunkMetadata(book_id="romans", chapter_num=9)),
        Chunk("near", [1.0, 0.9, 0.0] + [0.0] * 13),
        Chunk("cor13", [1.0, 1.0, 0.2] + [0.0] * 13, meta=ChunkMetadata(book_id="1-corinthians", chapter_num=13)),
    ]
    db = build_db(tmp_path / "c.db", chunks)
    proxy.vectors["q"] = [1.0, 0.9] + [0.0] * 14
    cases = (("ROMANS:9", "far-rom9"), ("rom:9", "far-rom9"), ("1cor:13", "cor13"), ("Romans:10", "near"),
             ("nowhere:1", "near"))
    for flag, top in cases:
        code, out = query_json("q", "--db", str(db), "--proxy", proxy.url, "--chapter", flag)
        assert code == 0, out
        assert out["results"][0]["chunk_id"] == top, flag


def test_zero_knn_rows_is_an_empty_result(tmp_path: Path, proxy: ScriptedProxy) -> None:
    db = build_db(tmp_path / "e.db", [], dims=16)
    code, out = query_json("anything", "--db", str(db), "--proxy", proxy.url)
    assert code == 0 and out["results"] == [] and out["rejected"] == []


def test_readable_table_by_default(corpus, proxy: ScriptedProxy) -> None:
    db, _ = corpus
    proc = cli("query", "grace", "--db", str(db), "--proxy", proxy.url,
               "--chapter", "romans:1", "--prefer-scholar", "henry")
    assert proc.returncode == 0, proc.stderr
    assert "10 results" in proc.stdout and "Rejected" in proc.stdout
    assert "×1.1 scholar" in proc.stdout
    assert "total" in proc.stdout


def test_a_long_boosts_cell_is_cut_with_a_mark(corpus, proxy: ScriptedProxy) -> None:
    db, _ = corpus  # henry's chunks on Romans 1 get three boosts: more than the column's 30 characters
    proc = cli("query", "grace", "--db", str(db), "--proxy", proxy.url,
               "--chapter", "romans:1", "--prefer-scholar", "henry", "--prefer-tradition", "t-henry")
    assert proc.returncode == 0, proc.stderr
    rows = [line for line in proc.stdout.splitlines() if line[:2].strip().isdigit() and "×" in line]
    cells = [line[36:66] for line in rows]  # after "#", score, base, sim and words; then one space
    assert all(line[66] == " " for line in rows), rows
    assert any(c.startswith("×1.5 chapter, ×1.1 scholar") and c.endswith("…") for c in cells), rows


# -- errors ------------------------------------------------------------------------------------
def expect_error(code: str, *args: str, env: dict[str, str] | None = None) -> str:
    rc, out = query_json(*args, env=env)
    assert rc == 1, out
    assert set(out) == {"error"} and out["error"]["code"] == code, out
    message = out["error"]["message"]
    assert message and "Traceback" not in message
    return message


def test_query_invalid(corpus, proxy: ScriptedProxy) -> None:
    db, _ = corpus
    for text in ("", "   \t\n", "x" * 2001):
        expect_error("QUERY_INVALID", text, "--db", str(db), "--proxy", proxy.url)
    assert proxy.embed_requests == 0
    # 2,000 characters exactly is allowed
    rc, _ = query_json("y" * 2000, "--db", str(db), "--proxy", proxy.url)
    assert rc == 0


def test_a_damaged_notes_store_is_notes_store_invalid(tmp_path: Path, proxy: ScriptedProxy) -> None:
    """Issue #31 item 4: one error tree — ``--workspace`` over a damaged store prints its code, as the service answers
    it (tests/serve/test_scope.py) and the window names it in its banner (tests/ui/test_notes_pane.py)."""
    from amicus_desktop import paths

    db = build_db(tmp_path / "scripture.db", random_chunks(40, 16, seed=3))
    store = paths.notes_path()
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_bytes(b"this is not a notes store " * 200)
    message = expect_error("NOTES_STORE_INVALID", "grace", "--db", str(db), "--proxy", proxy.url,
                           "--workspace", "personal")
    assert "move it aside" in message


def test_query_invalid_wins_over_everything(tmp_path: Path) -> None:
    expect_error("QUERY_INVALID", " ", "--db", str(tmp_path / "missing.db"), "--proxy", f"http://127.0.0.1:{free_port()}")


def test_db_not_found_wins_over_offline(tmp_path: Path) -> None:
    msg = expect_error("DB_NOT_FOUND", "grace", "--db", str(tmp_path / "missing.db"), "--proxy", f"http://127.0.0.1:{free_port()}")
    assert "missing.db" in msg


def test_db_invalid(tmp_path: Path, proxy: ScriptedProxy) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"PK\x03\x04 a zip, not a database" * 100)
    expect_error("DB_INVALID", "grace", "--db", str(bad), "--proxy", proxy.url)
    assert proxy.embed_requests == 0


def test_extension_not_loaded(corpus, proxy: ScriptedProxy, tmp_path: Path) -> None:
    db, _ = corpus
    expect_error("EXTENSION_NOT_LOADED", "grace", "--db", str(db), "--proxy", proxy.url,
                 env={"AMICUS_SQLITE_VEC_PATH": str(tmp_path / "no-vec0.so")})


def test_offline(corpus) -> None:
    db, _ = corpus
    url = f"http://127.0.0.1:{free_port()}"
    msg = expect_error("OFFLINE", "grace", "--db", str(db), "--proxy", url)
    assert url in msg


def test_embed_failed(corpus, proxy: ScriptedProxy) -> None:
    db, _ = corpus
    proxy.behaviour = lambda b: reply_json(503, {"error": {"code": "UPSTREAM_UNAVAILABLE", "message": "upstream down"}})
    expect_error("EMBED_FAILED", "grace", "--db", str(db), "--proxy", proxy.url)
    assert proxy.embed_requests == 2  # one retry


def test_dimension_mismatch_then_model_mismatch(tmp_path: Path) -> None:
    db = build_db(tmp_path / "d.db", random_chunks(20, 8), model="other-model")
    with ScriptedProxy(dims=16, model="test-model") as p:
        expect_error("DIMENSION_MISMATCH", "grace", "--db", str(db), "--proxy", p.url)
        assert p.embed_requests == 1  # not retried
    with ScriptedProxy(dims=8, model="test-model") as p:
        msg = expect_error("MODEL_MISMATCH", "grace", "--db", str(db), "--proxy", p.url)
        assert "other-model" in msg and p.embed_requests == 1


def test_messages_never_hold_query_or_token(corpus, proxy: ScriptedProxy, tmp_path: Path) -> None:
    db, _ = corpus
    secret_query = "my private prayer about my neighbour Zebulon"
    proxy.behaviour = lambda b: reply_json(401, {"error": {"code": "UNAUTHORIZED", "message": "wrong token"}})
    proc = cli("query", secret_query, "--db", str(db), "--proxy", proxy.url, "--json",
               env={"AMICUS_PROXY_TOKEN": SECRET})
    assert proc.returncode == 1
    assert proxy.last_headers["Authorization"] == f"Bearer {SECRET}"
    for stream in (proc.stdout, proc.stderr):
        assert "Zebulon" not in stream and SECRET not in stream
    proc = cli("query", "x" * 2001, "--db", str(db), "--json")
    assert "x" * 50 not in proc.stdout


@pytest.mark.parametrize(
    "flags",
    [
        ["--k", "0"],
        ["--k", "51"],
        ["--candidates", "0"],
        ["--candidates", "4097"],
        ["--k", "20", "--candidates", "10"],
        ["--chapter", "romans"],
        ["--chapter", "romans:x"],
        ["--k", "ten"],
        ["--bogus"],
        ["--min-similarity", "nan"],
        ["--min-similarity", "-inf"],
        ["--min-similarity", "lots"],
    ],
)
def test_usage_errors_exit_2(corpus, flags: list[str]) -> None:
    db, _ = corpus
    proc = cli("query", "grace", "--db", str(db), *flags)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "usage:" in proc.stderr


def test_values_of_the_wrong_type_in_the_database_are_db_invalid_json(corpus, proxy: ScriptedProxy) -> None:
    """A BLOB in chunk_metadata used to end --json with "bytes is not JSON serializable"."""
    db, _ = corpus
    con = connect(db, readonly=False)
    con.execute("UPDATE chunk_metadata SET scholar_id = x'00ff'")
    con.close()
    msg = expect_error("DB_INVALID", "grace", "--db", str(db), "--proxy", proxy.url)
    assert "scholar_id" in msg and "BLOB" in msg


def test_a_numeric_book_id_in_an_untyped_database_is_coerced(tmp_path: Path, proxy: ScriptedProxy) -> None:
    """``--book 45`` against ``book_id`` 45 stored as a number (no declared column types): it was an
    AttributeError traceback; the reader hands out ``'45'`` and compares it so (docs/RELIABILITY.md)."""
    db = build_db(tmp_path / "untyped.db", random_chunks(40, 16, seed=3), full_schema=False)
    edit_db(db, "CREATE TABLE m2 (rowid INTEGER PRIMARY KEY, scholar_id, tradition, book_id, chapter_num, "
                "verse_start, verse_end, panel_type)",
            "INSERT INTO m2 SELECT * FROM chunk_metadata", "DROP TABLE chunk_metadata",
            "ALTER TABLE m2 RENAME TO chunk_metadata",
            "UPDATE chunk_metadata SET book_id = 45 WHERE book_id = 'romans'")
    before = sha256(db)
    for mode in ("keyword", "semantic"):
        proc = cli("query", "text of chunks", "--db", str(db), "--proxy", proxy.url, "--mode", mode,
                   "--book", "45", "--json")
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-800:]
        out = json.loads(proc.stdout)
        assert out["results"] and {r["metadata"]["book_id"] for r in out["results"]} == {"45"}
        assert out["query_trace"]["filters"]["book"] == ["45"]
    assert sha256(db) == before


def test_text_that_is_not_utf8_is_db_invalid_json(corpus, proxy: ScriptedProxy) -> None:
    db, _ = corpus
    con = connect(db, readonly=False)
    con.execute("UPDATE chunk_text SET text = CAST(x'c328' AS TEXT)")
    con.close()
    msg = expect_error("DB_INVALID", "grace", "--db", str(db), "--proxy", proxy.url)
    assert "not valid UTF-8" in msg
    proc = cli("query", "grace", "--db", str(db), "--proxy", proxy.url)
    assert proc.returncode == 1 and "DB_INVALID" in proc.stderr and "not valid UTF-8" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_token_an_http_header_cannot_carry_is_a_clear_error(corpus, proxy: ScriptedProxy) -> None:
    db, _ = corpus
    token = "Geheimnis-ö-42"
    msg = expect_error("EMBED_FAILED", "grace", "--db", str(db), "--proxy", proxy.url,
                       env={"AMICUS_PROXY_TOKEN": token})
    assert "outside ASCII" in msg and "AMICUS_PROXY_TOKEN" in msg and token not in msg
    assert proxy.embed_requests == 0


def test_limits_at_their_edges(corpus, proxy: ScriptedProxy) -> None:
    db, _ = corpus
    rc, out = query_json("grace", "--db", str(db), "--proxy", proxy.url, "--k", "50", "--candidates", "4096")
    assert rc == 0 and len(out["results"]) + len(out["rejected"]) == 400  # the whole DB


def test_db_is_byte_identical_after_use(corpus, proxy: ScriptedProxy) -> None:
    db, _ = corpus
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    files = sorted(p.name for p in db.parent.iterdir())
    assert files[0] == "scripture.db"  # and the two-stage file the build wrote, when it did
    for args in (["grace"], ["faith", "--chapter", "romans:2", "--prefer-scholar", "henry"]):
        rc, _ = query_json(*args, "--db", str(db), "--proxy", proxy.url)
        assert rc == 0
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before
    assert sorted(p.name for p in db.parent.iterdir()) == files  # nothing created beside it


def test_python_dash_m_and_version() -> None:
    proc = cli("--version")
    assert proc.returncode == 0 and proc.stdout.startswith("amicus-desktop ")


def test_json_is_one_line_and_model_is_the_db_model_in_keyword_mode(db: Path) -> None:
    proc = cli("query", "grace", "--db", str(db), "--proxy", dead_proxy(), "--mode", "keyword", "--json")
    assert proc.returncode == 0 and proc.stdout.count("\n") == 1
    out = json.loads(proc.stdout)
    con = connect(db, readonly=True)
    model = dict(con.execute("SELECT key, value FROM db_meta"))["embedding_model"]
    con.close()
    assert out["model"]["id"] == model
    where = out["query_trace"]["keyword_index"]
    assert where in ("database", "cache")
    if where == "cache":  # built once into this test's cache folder, never beside the database
        assert list((Path(os.environ["AMICUS_HOME"]) / "cache").rglob("*.sqlite"))
