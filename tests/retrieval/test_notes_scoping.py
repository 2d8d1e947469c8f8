"""Scoping is the security boundary: a note of workspace A never appears in anything produced for a
question not scoped to A — results, rejected, context, eval, warnings, diagnostics, caches, logs.

Each test tries to make a note leak: a note that matches the question better than anything, on the
passage the question names, pinned by id, with the same text as another workspace's note, copied by an
import, asked for by one long-lived retriever that serves several workspaces (as ``serve`` does), and
hypothesis writing random notes into random workspaces.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amicus_desktop.context import WordPieceCounter, assemble
from amicus_desktop.core.query import Filters, RetrievalContext, SearchMode
from amicus_desktop.core.results import RetrievalResult
from amicus_desktop.notes import Note, NotesStore, parse_ref
from amicus_desktop.notes.exchange import export_json, import_notes
from amicus_desktop.present import citation
from amicus_desktop.retrieval import Retriever
from tests.support.cli import run
from tests.support.scripted_proxy import ScriptedProxy, text_vector

QUESTION = "what does Romans 9:11 say about Jacob and Esau"
SECRET = "Onesiphorus-kept-this-private"


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=8, model="test-model") as p:
        yield p


def write(workspace: str, text: str, ref: str | None = None) -> Note:
    with NotesStore() as store:
        ws = store.workspace(workspace)
        note = ws.add(text, parse_ref(ref) if ref else None)
        ws.store_vectors("test-model", [(note, np.asarray(text_vector(text, 8), np.float32))])
        return note


def everything(result: RetrievalResult) -> str:
    """All a retrieval gives out, as one text: the bundle, the whole candidate pool, the context block —
    without the caller's own pins echoed back (``query_trace.pins``, "The pinned note 'note:…'")."""
    block = assemble(result.results, budget=4000, count=WordPieceCounter(), cite=citation)
    text = "\n".join([json.dumps(result.to_json()), repr(result.candidates), repr(result.rejected),
                      repr(result.pinned), block.text, repr(block.to_json())])
    text = text.replace(json.dumps(list(result.trace.pins)), "[]")
    for pin in result.trace.pins:
        text = text.replace(f"The pinned note {pin!r}", "The pinned note")
    return text


@pytest.fixture
def alice_secret(proxy: ScriptedProxy) -> Note:
    """Alice's note: the best possible answer to the question, on the passage it names."""
    note = write("alice", f"{SECRET}: Jacob and Esau, election before birth", "Romans 9:11")
    proxy.vectors[QUESTION] = text_vector(note.text, 8)
    return note


def test_every_mode_and_command_keeps_alices_note_hers(small_db: Path, proxy: ScriptedProxy,
                                                        alice_secret: Note, tmp_path: Path) -> None:
    write("bob", "bob's own note on Romans 9", "Romans 9")
    conn = ["--db", str(small_db), "--proxy", proxy.url]
    golden = tmp_path / "golden.json"
    golden.write_text(json.dumps({"name": "g", "queries": [
        {"id": "q1", "query": QUESTION, "judgments": {alice_secret.id: 3}}]}), encoding="utf-8")
    for scope in (["--workspace", "bob"], []):
        for mode in ("semantic", "hybrid", "keyword"):
            outputs = [
                run("query", QUESTION, *conn, "--mode", mode, "--json", "--k", "50", "--candidates", "200",
                    "--pin", alice_secret.id, *scope),
                run("query", "Onesiphorus private election", *conn, "--mode", mode, "--source-type", "user_note",
                    *scope),
                run("context", QUESTION, *conn, "--mode", mode, "--format", "json", *scope),
                run("context", QUESTION, *conn, "--mode", mode, "--format", "markdown", *scope),
                run("eval", str(golden), *conn, "--mode", mode, "--json", *scope),
            ]
            for code, out, err in outputs:
                assert code == 0, err
                assert SECRET not in out + err
                # the caller's own words echoed back (the pins asked for, the golden file's judgment) aside
                echoed = out.replace(f'"pins": ["{alice_secret.id}"]', "").replace(f"'{alice_secret.id}'", "")
                assert alice_secret.id not in echoed.replace(f'"missing_judged_ids": ["{alice_secret.id}"]', "")
    code, out, _ = run("query", QUESTION, *conn, "--json", "--workspace", "alice")
    assert code == 0 and SECRET in out  # the control: scoped to alice, it is found


def test_eval_reports_another_workspaces_note_as_missing(small_db: Path, proxy: ScriptedProxy,
                                                         alice_secret: Note, tmp_path: Path) -> None:
    golden = tmp_path / "golden.json"
    golden.write_text(json.dumps({"name": "g", "queries": [
        {"id": "q1", "query": QUESTION, "judgments": {alice_secret.id: 3}}]}), encoding="utf-8")
    conn = ["--db", str(small_db), "--proxy", proxy.url]
    for workspace, found in (("alice", True), ("bob", False)):
        code, out, _ = run("eval", str(golden), *conn, "--json", "--workspace", workspace)
        body = json.loads(out)
        assert code == 0
        assert (alice_secret.id in body["queries"][0]["ranked"]) is found
        assert (alice_secret.id in body["missing_judged_ids"]) is not found


def test_identical_text_in_two_workspaces_gives_each_its_own(small_db: Path, proxy: ScriptedProxy) -> None:
    text = "Word for word the same note about Jacob"
    a, b = write("alice", text, "Romans 9:13"), write("bob", text, "Romans 9:13")
    proxy.vectors[QUESTION] = text_vector(text, 8)
    for workspace, mine, theirs in (("alice", a, b), ("bob", b, a)):
        code, out, _ = run("query", QUESTION, "--db", str(small_db), "--proxy", proxy.url, "--json",
                           "--workspace", workspace, "--mode", "hybrid", "--pin", theirs.id)
        body = json.loads(out)
        assert code == 0
        assert body["results"][0]["chunk_id"] == mine.id
        assert theirs.id not in json.dumps([body["results"], body["rejected"], body["diagnostics"]])
        assert [w["code"] for w in body["warnings"]].count("pin_not_found") == 1


def test_an_import_into_another_workspace_is_a_copy(small_db: Path, proxy: ScriptedProxy, alice_secret: Note) -> None:
    with NotesStore() as store:
        alice, carol = store.workspace("alice"), store.workspace("carol")
        (copy,) = import_notes(carol, export_json(alice)).imported
        carol.edit(copy.id, "carol rewrote her copy about Jacob and Esau")
    result_alice = _ask(small_db, proxy.url, workspace="alice")
    result_carol = _ask(small_db, proxy.url, workspace="carol", mode=SearchMode.KEYWORD)
    assert "carol rewrote" not in everything(result_alice)
    assert SECRET not in everything(result_carol) and "carol rewrote" in everything(result_carol)


def _ask(db: Path, url: str, query: str = QUESTION, retriever: Retriever | None = None,
         **options: object) -> RetrievalResult:
    async def go() -> RetrievalResult:
        r = retriever or Retriever(db, url)
        try:
            return await r.retrieve(RetrievalContext(query, **options))  # type: ignore[arg-type]
        finally:
            if retriever is None:
                await r.aclose()

    return asyncio.run(go())


def test_one_retriever_serving_many_workspaces_keeps_them_apart(small_db: Path, proxy: ScriptedProxy,
                                                                alice_secret: Note) -> None:
    """The service's shape: one retriever, its caches warm from alice's questions, then bob asks."""

    async def go() -> tuple[RetrievalResult, RetrievalResult, RetrievalResult]:
        retriever = Retriever(small_db, proxy.url)
        try:
            first = await retriever.retrieve(RetrievalContext(QUESTION, workspace="alice", mode=SearchMode.HYBRID))
            bob = await retriever.retrieve(RetrievalContext(QUESTION, workspace="bob", mode=SearchMode.HYBRID))
            # the note's text as bob's question: the vector cache holds questions, never notes
            probe = await retriever.retrieve(RetrievalContext(alice_secret.text, workspace="bob"))
            return first, bob, probe
        finally:
            await retriever.aclose()

    first, bob, probe = asyncio.run(go())
    assert first.results[0].chunk_id == alice_secret.id
    assert SECRET not in everything(bob) and alice_secret.id not in everything(bob)
    assert bob.trace.embedding_cached  # the question (not any note) was cached
    assert not probe.trace.embedding_cached and SECRET not in everything(probe).replace(alice_secret.text, "")


def test_filters_and_references_reach_no_other_workspace(small_db: Path, proxy: ScriptedProxy,
                                                         alice_secret: Note) -> None:
    for options in ({"filters": Filters.of(["user_note"])}, {"filters": Filters.of(books=["romans"])},
                    {"mode": SearchMode.KEYWORD}, {"pins": (alice_secret.id,)}):
        result = _ask(small_db, proxy.url, workspace="bob", **options)
        assert SECRET not in everything(result) and alice_secret.id not in everything(result)


def test_nothing_is_logged_of_a_note(small_db: Path, proxy: ScriptedProxy, alice_secret: Note,
                                     caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    write("alice", f"{SECRET} pending again")  # and one the question must embed first
    for workspace in ("alice", "bob"):
        _ask(small_db, proxy.url, workspace=workspace, mode=SearchMode.HYBRID)
    lines = [r.getMessage() + repr(r.__dict__) for r in caplog.records]
    assert any("note_candidates" in line for line in lines)
    assert not [line for line in lines if SECRET in line or "Jacob and Esau, election" in line]


WORDS = ("grace", "election", "faith", "works", "jacob", "esau", "potter", "clay", "mercy", "law")


@st.composite
def workspaces_and_notes(draw: st.DrawFn) -> dict[str, list[tuple[str, str | None]]]:
    names = draw(st.lists(st.from_regex(r"[a-z][a-z0-9-]{0,8}", fullmatch=True), min_size=2, max_size=3,
                          unique=True))
    refs = st.sampled_from([None, "Romans 9", "Romans 9:11", "John 3:16", "Genesis 1"])
    text = st.lists(st.sampled_from(WORDS), min_size=1, max_size=5).map(" ".join)
    return {n: draw(st.lists(st.tuples(text, refs), min_size=0, max_size=4)) for n in names}


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=workspaces_and_notes(), words=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3).map(" ".join),
       mode=st.sampled_from(list(SearchMode)), same_text=st.booleans())
def test_no_output_ever_holds_another_workspaces_note(small_db: Path, proxy: ScriptedProxy, tmp_path_factory,
                                                      layout, words: str, mode: SearchMode, same_text: bool) -> None:
    """Random workspaces with random notes (each note's text carries its workspace's marker, and with
    ``same_text`` every workspace also holds the same sentence); for every workspace and for none, with
    every note id pinned and a passage named, nothing given out holds another workspace's id or marker."""
    notes_path = tmp_path_factory.mktemp("prop") / "notes.sqlite"
    written: dict[str, list[Note]] = {}
    with NotesStore(notes_path) as store:
        for name, notes in layout.items():
            ws = store.workspace(name)
            texts = [(f"{t} mark{name}mark", r) for t, r in notes] + ([(words, "Romans 9")] if same_text else [])
            written[name] = [ws.add(t, parse_ref(r) if r else None) for t, r in texts]
            ws.store_vectors("test-model", [(n, np.asarray(text_vector(n.text, 8), np.float32))
                                            for n in written[name]])
    every_id = tuple(n.id for ns in written.values() for n in ns)
    question = f"{words} in Romans 9:11"

    async def go() -> list[tuple[str | None, RetrievalResult]]:
        retriever = Retriever(small_db, proxy.url, notes_path=notes_path)
        try:
            out = []
            for scope in [*layout, None]:
                ctx = RetrievalContext(question, workspace=scope, mode=mode, pins=every_id, k=50, candidates=200)
                out.append((scope, await retriever.retrieve(ctx)))
            return out
        finally:
            await retriever.aclose()

    for scope, result in asyncio.run(go()):
        seen = everything(result)
        shown = seen
        for other, notes in written.items():
            if other == scope:
                continue
            assert f"mark{other}mark" not in seen
            for n in notes:
                mine = scope is not None and n.id in {m.id for m in written[scope]}
                if not mine:  # (two workspaces may hold one id only by import; not here)
                    assert n.id not in shown
