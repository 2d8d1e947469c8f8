"""build_database and ``amicus-desktop build-db`` end to end, on a one-book scope."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.cli import main
from amicus_desktop.core.query import SOURCE_TYPES
from amicus_desktop.corpus import BuildCancelled, BuildProgress, build_database
from amicus_desktop.embedding import ProxyEmbedder
from amicus_desktop.store import codes
from amicus_desktop.store.sqlite import connect
from amicus_desktop.store.writer import add_two_stage

REQUIRED_META = ("schema_version", "embedding_model", "embedding_dims", "distance_metric")


def _meta(path: Path) -> dict[str, str]:
    con = connect(path, readonly=True)
    try:
        return dict(con.execute("select key, value from db_meta").fetchall())
    finally:
        con.close()


@pytest.mark.timeout(900)  # reads the whole Bible's text (both translations): minutes on a busy machine
def test_build_jude_with_stand_in(tmp_path, library, stand_in):
    out = tmp_path / "jude.db"
    seen: list[BuildProgress] = []
    report = build_database(out, ["jude"], stand_in, progress=seen.append, batch=32, library=library)
    assert out.exists() and report.path == out and report.size_bytes == out.stat().st_size
    assert report.books == ("jude",) and report.verses == 25
    assert set(report.counts) == set(SOURCE_TYPES)
    assert report.counts["section_panel"] > 0 and report.counts["lexicon_entry"] > 0
    assert report.counts["meta_faq"] >= 8 and report.counts["debate_topic"] == 0
    stages = [p.stage for p in seen]
    assert "embedding" in stages and stages[-1] == "done"
    last = [p for p in seen if p.stage == "embedding"][-1]
    assert last.done == last.total == report.chunk_count and last.rate > 0

    meta = _meta(out)
    for key in REQUIRED_META:
        assert key in meta
    assert meta["schema_version"] == "1" and meta["distance_metric"] == "cosine"
    assert meta["embedding_model"] == "stand-in-hash-16" and meta["embedding_dims"] == "16"
    assert int(meta["chunk_count"]) == report.chunk_count
    assert json.loads(meta["chunk_counts"]) == report.counts

    con = connect(out, readonly=True)
    try:
        n, = con.execute("select count(*) from chunk_text").fetchone()
        assert n == report.chunk_count
        types = {t for t, in con.execute("select distinct source_type from chunk_text")}
        assert types <= set(SOURCE_TYPES)
        # Every library carries the whole Bible's text (both translations); study material and verse vectors
        # are the scope's.
        books = con.execute("select name, chapters from books order by ordinal").fetchall()
        assert len(books) == 66 and books[0] == ("Genesis", 50) and ("Jude", 1) in books
        assert report.text_verses == 31095
        assert con.execute("select count(*) from verses").fetchone()[0] == report.text_verses
        g11, = con.execute("select text from verses_kjv where book_id='genesis' and chapter_num=1 "
                           "and verse_num=1").fetchone()
        assert g11.startswith("In the beginning God created the heaven")
        assert con.execute("select count(*) from verse_fts_web where verse_fts_web match 'Noah'").fetchone()[0] > 40
        assert con.execute("select count(*) from verse_embeddings").fetchone()[0] == report.verses
        assert {b for b, in con.execute("select distinct book_id from verse_embeddings")} == {"jude"}
        assert {b for b, in con.execute("select distinct book_id from chunk_metadata where book_id is not null")} \
            == {"jude"}
        v3, = con.execute("select text from verses where book_id='jude' and chapter_num=1 "
                          "and verse_num=3").fetchone()
        assert "contend earnestly for the faith" in v3
        q = stand_in.embed(["Jude 1:3"])[0].astype(np.float32).tobytes()
        rows = con.execute("select rowid, distance from embeddings where embedding match ? and k = 5 "
                           "and book_id = 'jude'", (q,)).fetchall()
        assert len(rows) == 5
        scholar, = con.execute(
            "select m.scholar_id from chunk_text t join chunk_metadata m using(rowid) "
            "where t.chunk_id like 'mhcc:jude:1:%' limit 1").fetchone()
        assert scholar == "matthew-henry"
        hits = con.execute("select count(*) from chunk_fts where chunk_fts match 'ungodly'").fetchone()[0]
        assert hits > 0
    finally:
        con.close()


def test_cancel_leaves_nothing(tmp_path, library, stand_in):
    out = tmp_path / "cancelled.db"
    cancel = threading.Event()

    def progress(p: BuildProgress) -> None:
        if p.stage == "embedding" and p.done > 0:
            cancel.set()

    with pytest.raises(BuildCancelled):
        build_database(out, ["jude"], stand_in, progress=progress, cancel=cancel, batch=16,
                       library=library)
    assert not out.exists()
    assert list(tmp_path.iterdir()) == []  # no temporary file either


def test_cancel_keeps_an_existing_database(tmp_path, library, stand_in):
    out = tmp_path / "scripture.db"
    out.write_bytes(b"previous")
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(BuildCancelled):
        build_database(out, ["jude"], stand_in, cancel=cancel, library=library)
    assert out.read_bytes() == b"previous"


def test_interrupt_propagates_and_leaves_nothing(tmp_path, library, stand_in):
    out = tmp_path / "interrupted.db"

    class Interrupting:
        model_id, dims = "x", 16

        def embed(self, texts):
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_database(out, ["jude"], Interrupting(), library=library)
    assert list(tmp_path.iterdir()) == []


def test_build_through_proxy_records_the_proxy_model(tmp_path, library):
    from tests.support.scripted_proxy import ScriptedProxy

    with ScriptedProxy(dims=8, model="scripted-model@1") as proxy:
        with ProxyEmbedder(proxy.url, per_request=64) as embedder:
            report = build_database(tmp_path / "p.db", ["jude"], embedder, library=library)
        assert proxy.embed_requests >= report.chunk_count / 64
    meta = _meta(tmp_path / "p.db")
    assert meta["embedding_model"] == "scripted-model@1" and meta["embedding_dims"] == "8"


def test_cli_build_db_with_the_local_model(tmp_path, capsys):
    out = tmp_path / "cli.db"
    assert main(["build-db", "--out", str(out), "--books", "jude", "--batch", "128"]) == 0
    captured = capsys.readouterr()
    assert "section_panel" in captured.out and "MB" in captured.out
    assert "embedding [" in captured.err and "ETA" in captured.err
    from amicus_desktop.embedding import get_backend

    assert _meta(out)["embedding_model"] == get_backend("local").model_id


def test_cli_usage_errors(tmp_path):
    with pytest.raises(SystemExit) as exc:
        main(["build-db", "--demo", "--all"])
    assert exc.value.code == 2
    assert main(["build-db", "--out", str(tmp_path / "x.db"), "--books", "notabook"]) == 1
    assert not (tmp_path / "x.db").exists()


def test_full_text_index_stems_and_folds_accents(tmp_path, library, stand_in):
    """``chunk_fts`` is the one definition of ``store/fts.py``: "agape" finds "agápē", "justify"
    finds "justified" (Titus has both: Strong's G26 and the word studies of Titus 3:7)."""
    from amicus_desktop.store.fts import FTS_TOKENIZE

    out = tmp_path / "titus.db"
    build_database(out, ["titus"], stand_in, library=library)
    con = connect(out, readonly=True)
    try:
        sql, = con.execute("select sql from sqlite_master where name = 'chunk_fts'").fetchone()
        assert FTS_TOKENIZE in sql and "content='chunk_text'" in sql

        def match(query: str) -> dict[str, str]:
            return dict(con.execute(
                "select t.chunk_id, t.text from chunk_fts f join chunk_text t on t.rowid = f.rowid "
                "where chunk_fts match ?", (query,)).fetchall())

        agape = match("agape")
        assert "strongs:G26" in agape
        assert all("agápē" in text or "agape" in text.lower() for text in agape.values())
        assert "agape" not in agape["strongs:G26"].lower() and "agápē" in agape["strongs:G26"]
        justify = match("justify")
        only_justified = {cid for cid, text in justify.items()
                          if "justified" in text and "justify" not in text.lower()}
        assert only_justified  # found through the stem, not the word
        with_justified, = con.execute(
            "select count(*) from chunk_text where text like '%justified%'").fetchone()
        assert sum("justified" in text for text in justify.values()) == with_justified
    finally:
        con.close()


def test_built_database_names_its_scholars(tmp_path, library, stand_in):
    from amicus_desktop.core.scholars import KNOWN_SCHOLARS
    from amicus_desktop.store.scripture import ScriptureStore

    out = tmp_path / "jude.db"
    build_database(out, ["jude"], stand_in, library=library)
    con = connect(out, readonly=True)
    try:
        rows = {r[0]: r[1:] for r in con.execute("select scholar_id, name, tradition, work from scholars")}
        used = {r[0] for r in con.execute(
            "select distinct scholar_id from chunk_metadata where scholar_id is not null")}
    finally:
        con.close()
    assert set(rows) == used >= {"matthew-henry", "c-i-scofield", "james-strong", "g-abbott-smith"}
    for sid, (name, tradition, work) in rows.items():
        known = KNOWN_SCHOLARS[sid]
        assert (name, tradition, work) == (known.name, known.tradition, known.work)
    with ScriptureStore(out) as store:
        assert "scholars" in store.info.optional_tables and store.info.has_scholars
        assert store.scholars()["james-strong"].name == "James Strong"


def test_the_two_stage_file_is_written_when_the_corpus_is_large_enough(tmp_path, library, stand_in, monkeypatch):
    """One rule decides (store/codes.py): Jude × 16 dims is small, so no file; above the bar, a file."""
    small = build_database(tmp_path / "small.db", ["jude"], stand_in, library=library)
    assert not codes.path_for(small.path).exists()
    monkeypatch.setattr(codes, "MIN_FLOATS", small.chunk_count * 16)  # now Jude is "large enough"
    big = build_database(tmp_path / "big.db", ["jude"], stand_in, library=library)
    f = codes.CodesFile.open(codes.path_for(big.path))
    assert (f.rows, f.dims) == (big.chunk_count, 16)
    assert dict(f.db) == codes.db_fingerprint(_meta(big.path))
    # The same file a finished database gets afterwards (the vectors come from vec0 then).
    with open(codes.path_for(big.path), "rb") as fh:
        built = fh.read()
    codes.path_for(big.path).unlink()
    add_two_stage(big.path)
    with open(codes.path_for(big.path), "rb") as fh:
        assert fh.read() == built
