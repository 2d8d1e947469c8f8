"""``--preset app`` (CONTRACT section 15): exactly the app's configuration; flags given explicitly win; without a
preset ``query`` keeps the contract's defaults."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from amicus_desktop.core.preset import APP
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.retrieval import Retriever
from amicus_desktop.session.controller import app_context
from amicus_desktop.settings import Settings
from tests.support.cli import query_json, run
from tests.support.corpora import DIMS, axis, corpus
from tests.support.dbs import build_db, unit
from tests.support.scripted_proxy import ScriptedProxy


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=DIMS, model="test-model") as p:
        yield p


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_db(tmp_path / "scripture.db", corpus())


def test_the_apps_settings_start_from_the_app_preset() -> None:
    s = Settings()
    assert (s.search_mode, s.weights, s.k, s.candidates) == (APP.mode, APP.weights, APP.k, APP.candidates)


def test_preset_app_is_what_the_app_asks(db: Path, proxy: ScriptedProxy, tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    q = "how is a person justified"
    proxy.vectors[q] = unit(axis(0, 1, 0.4)).tolist()
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url, "--chapter", "romans:9", "--preset", "app")
    assert code == 0 and out["mode"] == "hybrid"
    # the app's own context for the same question and chapter: the same chunks, order and scores
    monkeypatch.setenv("AMICUS_HOME", str(tmp_path / "home"))
    ctx = app_context(Settings(), q, chapter=ChapterRef("romans", 9))

    async def app_answer():  # the retrieval the window makes, through the same engine
        retriever = Retriever(db, proxy.url)
        try:
            return await retriever.retrieve(ctx)
        finally:
            await retriever.aclose()

    result = asyncio.run(app_answer())
    assert [(r["chunk_id"], r["score"]) for r in out["results"]] == [(r.chunk_id, r.score) for r in result.results]
    assert all("diversity" in r["breakdown"] and "source_prior" in r["breakdown"] for r in out["results"])


def test_explicit_flags_win_over_the_preset(db: Path, proxy: ScriptedProxy) -> None:
    q = "grace"
    proxy.vectors[q] = unit(axis(1)).tolist()
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url, "--preset", "app", "--mode", "semantic",
                           "--k", "3")
    assert code == 0 and out["mode"] == "semantic" and len(out["results"]) == 3
    assert "diversity" in out["results"][0]["breakdown"]  # the preset's policy still applies


def test_without_a_preset_query_keeps_the_contract(db: Path, proxy: ScriptedProxy) -> None:
    q = "grace"
    proxy.vectors[q] = unit(axis(1)).tolist()
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url)
    assert code == 0 and out["mode"] == "semantic"
    assert all(set(r["breakdown"]) == {"distance", "similarity", "chapter_boost", "scholar_boost", "tradition_boost",
                                       "final", "mode", "base", "lexical", "reference_boost"} for r in out["results"])


def test_an_unknown_preset_is_a_usage_error(db: Path) -> None:
    code, _out, err = run("query", "q", "--db", str(db), "--preset", "reader")
    assert code == 2 and "--preset" in err
