"""Retriever: stage order, timings, logging, re-ranking without re-embedding, reopen on replace."""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import socket
import threading
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import Profile, RetrievalContext, SearchMode
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.retrieval import Retriever, rerank_result, retrieve
from tests.support.cli import query_json, run
from tests.support.corpora import sha256
from tests.support.dbs import build_db, random_chunks
from tests.support.scripted_proxy import ScriptedProxy


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=16) as p:
        yield p


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_db(tmp_path / "s.db", random_chunks(200, 16, seed=3))


def test_retrieve_and_timings(db: Path, proxy: ScriptedProxy) -> None:
    result = retrieve(RetrievalContext("grace and peace"), db=db, proxy=proxy.url)
    assert len(result.results) == 10 and len(result.candidates) == 40
    t = result.timings
    assert t.total >= t.embed + t.search + t.rerank - 1e-6
    assert min(t.embed, t.search, t.rerank) >= 0
    assert result.context is not None and result.context.query == "grace and peace"


def test_logs_structured_timings_never_query(db: Path, proxy: ScriptedProxy, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="amicus")
    retrieve(RetrievalContext("Zerubbabel's secret question"), db=db, proxy=proxy.url)
    records = [r for r in caplog.records if r.name == "amicus.retrieval" and r.getMessage() == "retrieved"]
    assert len(records) == 1 and records[0].levelno == logging.INFO
    assert set(records[0].__dict__["timing_ms"]) == {"embed", "search", "rerank", "total"}  # an `extra` field
    for r in caplog.records:
        assert "Zerubbabel" not in r.getMessage() and "Zerubbabel" not in str(r.__dict__)


def test_rerank_result_applies_new_chapter_and_profile_without_io(db: Path, proxy: ScriptedProxy) -> None:
    async def go():
        r = Retriever(db, proxy.url)
        try:
            first = await r.retrieve(RetrievalContext("faith"))
            chap = first.results[5].candidate.metadata
            ctx = first.context.replace(
                chapter=ChapterRef(chap.book_id, chap.chapter_num) if chap.book_id and chap.chapter_num else None,
                profile=Profile.of(["a"]),
            )
            second = rerank_result(first, ctx)
            again = await r.retrieve(ctx)  # same query: the vector comes from the cache
            return first, second, again
        finally:
            await r.aclose()

    first, second, again = asyncio.run(go())
    assert proxy.embed_requests == 1  # asked twice, embedded once
    assert second.candidates == first.candidates
    assert [x.chunk_id for x in second.results] == [x.chunk_id for x in again.results]
    assert [x.score for x in second.results] == [x.score for x in again.results]
    assert [x.chunk_id for x in second.results] != [x.chunk_id for x in first.results]


def test_error_order_db_before_proxy(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(AmicusError) as ei:
        retrieve(RetrievalContext("x"), db=tmp_path / "none.db", proxy=f"http://127.0.0.1:{port}")
    assert ei.value.code is ErrorCode.DB_NOT_FOUND


def test_limits_are_usage_errors(db: Path, proxy: ScriptedProxy) -> None:
    for k, c in ((0, 40), (51, 60), (10, 5), (10, 4097)):
        with pytest.raises(ValueError):
            retrieve(RetrievalContext("x", k=k, candidates=c), db=db, proxy=proxy.url)


def test_database_replaced_while_open_is_reopened(db: Path, proxy: ScriptedProxy, tmp_path: Path) -> None:
    async def go():
        r = Retriever(db, proxy.url)
        try:
            a = await r.retrieve(RetrievalContext("faith", candidates=50, k=10))
            other = build_db(tmp_path / "o.db", random_chunks(7, 16, seed=11))
            shutil.move(other, db)
            b = await r.retrieve(RetrievalContext("faith", candidates=50, k=10))
            db.unlink()
            with pytest.raises(AmicusError) as ei:
                await r.retrieve(RetrievalContext("faith"))
            return a, b, ei.value.code
        finally:
            await r.aclose()

    a, b, code = asyncio.run(go())
    assert len(a.candidates) == 50 and len(b.candidates) == 7
    assert code is ErrorCode.DB_NOT_FOUND


@pytest.mark.slow
def test_modes_references_and_filters_on_real_data(study_db: Path, study_db_minimal: Path, local_proxy) -> None:
    before = {p: sha256(p) for p in (study_db, study_db_minimal)}
    for path in (study_db, study_db_minimal):
        base = ["--db", str(path), "--proxy", local_proxy.url]
        code, out = query_json("How is a person justified before God?", *base, "--mode", "hybrid",
                               "--chapter", "romans:3")
        assert code == 0, out
        assert out["results"] and all(r["breakdown"]["lexical"] is not None for r in out["results"])
        assert any(r["source_type"] == "section_panel" for r in out["results"][:5])
        code, out = query_json("What does Rom 9:11 mean for election?", *base, "--mode", "semantic")
        assert code == 0
        assert out["query_trace"]["references"][0]["chapter_num"] == 9
        assert any(r["breakdown"]["reference_boost"] == 1.25 for r in out["results"])
        code, out = query_json("grace", *base, "--mode", "keyword", "--book", "Romans", "--candidates", "5", "--k", "5")
        assert code == 0 and all(r["metadata"]["book_id"] == "romans" for r in out["results"] + out["rejected"]
                                 if "metadata" in r)
        code, out = query_json("love", *base, "--source-type", "lexicon_entry", "--candidates", "7", "--k", "7")
        assert code == 0 and len(out["results"]) + len(out["rejected"]) == 7
        assert {r["source_type"] for r in out["results"]} == {"lexicon_entry"}
    assert {p: sha256(p) for p in before} == before
    assert not [p for p in study_db_minimal.parent.iterdir() if p.name != "scripture.db"]


def test_a_nul_byte_in_the_saved_database_path_is_db_not_found(amicus_home: Path, tmp_path: Path) -> None:
    """#20.21: a traceback in the CLI (and "Opening database…" for ever in the app)."""
    cfg = paths.config_dir()
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "settings.json").write_text('{"db_path": "/data/scripture\\u0000.db"}')
    code, out, err = run("query", "grace", "--mode", "keyword", "--json")
    assert code == 1 and json.loads(out)["error"]["code"] == "DB_NOT_FOUND" and "Traceback" not in err
    retriever = Retriever(tmp_path / "scripture\x00.db", "http://127.0.0.1:9")

    async def open_it() -> None:
        try:
            await retriever.open()
        finally:
            await retriever.aclose()

    with pytest.raises(AmicusError) as caught:
        asyncio.run(open_it())
    assert caught.value.code is ErrorCode.DB_NOT_FOUND and "NUL" in caught.value.message


def test_the_indexes_open_while_the_question_is_embedded(db: Path, proxy: ScriptedProxy) -> None:
    """The vector and keyword indexes are opened on the database thread while the proxy embeds the question
    (not after, by the search): held at the proxy, the question finds both already open."""
    held, release = threading.Event(), threading.Event()

    def hold(_body: dict[str, object]) -> None:
        held.set()
        release.wait(10)
        return None

    async def go() -> tuple[tuple[bool, bool], int]:
        retriever = Retriever(db, proxy.url)
        try:
            ctx = RetrievalContext("grace and peace", mode=SearchMode.HYBRID)
            task = asyncio.ensure_future(retriever.retrieve(ctx))
            assert await asyncio.to_thread(held.wait, 10)
            opened = await retriever.run_db(lambda s: (bool(s._vector_indexes), s._full_text is not None))
            release.set()
            return opened, len((await task).results)
        finally:
            release.set()
            await retriever.aclose()

    proxy.behaviour = hold
    assert asyncio.run(go()) == ((True, True), 10)
