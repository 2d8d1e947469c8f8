"""Searching one workspace's notes: nearest by meaning (numpy, one model's vectors), best by words
(FTS5's bm25 over the workspace's own notes), and an index that follows changes made anywhere."""

from __future__ import annotations

from pathlib import Path

import apsw
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amicus_desktop.notes import NotesStore, parse_ref
from amicus_desktop.notes.index import NotesIndex, tokenizer
from amicus_desktop.notes.search import bm25_of, distances, keyword_search, nearest
from amicus_desktop.store.fts import FTS_TOKENIZE


@pytest.fixture
def store(tmp_path: Path):
    with NotesStore(tmp_path / "notes.sqlite") as s:
        yield s


def _unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v)).astype(np.float32)


def test_nearest_is_exact_cosine_over_the_models_vectors(store: NotesStore) -> None:
    ws = store.workspace("w")
    rng = np.random.default_rng(7)
    notes = [ws.add(f"note {i}") for i in range(60)]
    vectors = rng.standard_normal((60, 16)).astype(np.float32) * 3  # not unit: cosine all the same
    ws.store_vectors("m", list(zip(notes[:50], vectors[:50], strict=True)))
    ws.store_vectors("other-model", [(n, np.ones(3)) for n in notes[50:]])
    search = ws.search()
    index = search.index("m")
    assert index.count == 60 and index.pending == 10
    q = rng.standard_normal(16).astype(np.float32)
    got = nearest(index, q, 10)
    rowids = search.rowids_of([n.id for n in notes])
    pairs = zip(notes[:50], vectors[:50], strict=True)
    expected = sorted((1 - float(_unit(v) @ _unit(q)), rowids[n.id]) for n, v in pairs)
    assert [r for r, _ in got] == [r for _, r in expected[:10]]
    for (r, d), (d2, r2) in zip(got, expected, strict=False):
        assert r == r2 and d == pytest.approx(d2, abs=1e-5)
    assert distances(index, q, [rowids[notes[0].id], rowids[notes[55].id]]).keys() == {rowids[notes[0].id]}
    assert nearest(index, np.ones(5, np.float32), 10) == []  # another length: nothing compares


def test_nearest_only_among_allowed_slots(store: NotesStore) -> None:
    ws = store.workspace("w")
    a = ws.add("a", parse_ref("Romans 9"))
    b = ws.add("b", parse_ref("John 3"))
    ws.store_vectors("m", [(a, np.array([1, 0], np.float32)), (b, np.array([0.9, 0.1], np.float32))])
    index = ws.search().index("m")
    allowed = index.book_ids[: index.size] == "john"
    assert [r for r, _ in nearest(index, np.array([1, 0], np.float32), 5, allowed)] == [index.rowids[1]]
    assert nearest(index, np.array([1, 0], np.float32), 5, np.zeros(2, bool)) == []


def test_the_index_follows_changes_from_another_process(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    with NotesStore(path) as app, NotesStore(path) as cli:
        search = app.workspace("w").search()
        first = search.index("m")
        assert first.count == 0 and search.index("m") is first
        note = cli.workspace("w").add("written by the command line about grace")
        index = search.index("m")
        assert index is first and index.count == 1 and index.pending == 1  # patched, not read again
        cli.workspace("w").store_vectors("m", [(note, np.ones(4))])
        assert search.index("m").pending == 0 and nearest(index, np.ones(4), 3)[0][0] == index.rowids[0]
        cli.workspace("w").edit(note.id, "rewritten about peace")
        assert search.index("m") is index
        assert keyword_search(index, ["grace"], 5) == [] and len(keyword_search(index, ["peace"], 5)) == 1
        assert search.index("m").pending == 1  # the new text is not embedded yet
        cli.workspace("w").remove(note.id)
        assert search.index("m").count == 0
        assert keyword_search(index, ["peace"], 5) == []
        cli.workspace("other").add("another workspace's change")
        assert search.index("m").count == 0


def test_keyword_search_holds_the_workspaces_notes_only(store: NotesStore) -> None:
    alice, bob = store.workspace("alice"), store.workspace("bob")
    a = alice.add("Justified by faith, says Paul")
    bob.add("Justified by works, says bob")
    search = alice.search()
    index = search.index("m")
    rowid = search.rowids_of([a.id])[a.id]
    assert [r for r, _ in keyword_search(index, ["justified"], 10)] == [rowid]
    assert index.doc_count("justify") == 1 and index.count == 1  # stemmed, as the library's index
    assert keyword_search(index, ["justified"], 10, np.zeros(index.size, bool)) == []
    assert bm25_of(index, ["faith"], [rowid, 999]) != [] and bm25_of(index, ["works"], [rowid]) == []


def test_another_workspaces_words_never_move_these_scores(store: NotesStore) -> None:
    """BM25 counts how many notes hold a word: each workspace counts its own, so what bob writes cannot be
    read off alice's scores."""
    alice = store.workspace("alice")
    for text in ("grace and peace", "grace upon grace", "peace be with you", "the law and the prophets"):
        alice.add(text)
    before = keyword_search(alice.search().index("m"), ["grace", "law"], 10)
    bob = store.workspace("bob")
    for i in range(50):
        bob.add(f"grace {i}" if i % 2 else f"law {i}")
    assert keyword_search(alice.search().index("m"), ["grace", "law"], 10) == before
    assert alice.search().index("m").doc_count("grace") == 2


WORDS = ("grace", "graces", "peace", "law", "faith", "works", "justified", "justify", "Agápē", "agape", "the")


@settings(max_examples=60, deadline=None)
@given(texts=st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12).map(" ".join), min_size=1,
                      max_size=25),
       query=st.lists(st.sampled_from(WORDS), min_size=1, max_size=3, unique=True),
       changes=st.lists(st.tuples(st.integers(0, 24), st.lists(st.sampled_from(WORDS), max_size=5).map(" ".join)),
                        max_size=8))
def test_bm25_is_fts5s_own_through_any_changes(texts: list[str], query: list[str],
                                               changes: list[tuple[int, str]]) -> None:
    """The index's BM25 equals FTS5's bm25() over the same notes — after appends, edits and removals
    patched in (an empty text stands for a removal)."""
    con = apsw.Connection(":memory:")
    con.execute(f"CREATE VIRTUAL TABLE t USING fts5(text, tokenize='{FTS_TOKENIZE}')")
    index = NotesIndex("m", tokenizer(con))
    rows = [(i + 1, None, None, None, None, t, None, f"note:{i + 1}") for i, t in enumerate(texts)]
    index.load(1, rows)
    live = {i + 1: t for i, t in enumerate(texts)}
    for generation, (which, text) in enumerate(changes, start=2):
        rowid = which % (len(texts) + 3) + 1
        if text:
            live[rowid] = text
            index.apply(generation, [(rowid, None, None, None, None, text, None, f"note:{rowid}")], ())
        else:
            live.pop(rowid, None)
            index.apply(generation, [], [rowid])
    con.executemany("INSERT INTO t(rowid, text) VALUES (?, ?)", list(live.items()))
    match = " OR ".join(f'"{w}"' for w in query)
    want = {int(r): float(s) for r, s in con.execute("SELECT rowid, bm25(t) FROM t WHERE t MATCH ?", [match])}
    got = dict(keyword_search(index, query, 1000))
    assert got.keys() == want.keys()
    for rowid, score in want.items():
        assert got[rowid] == pytest.approx(score, rel=1e-9, abs=1e-12)
    assert index.count == len(live)


def test_an_index_older_than_the_kept_removals_reads_the_workspace_again(store: NotesStore,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from amicus_desktop.notes import workspace as workspace_module

    monkeypatch.setattr(workspace_module, "REMOVALS_KEPT", 4)
    ws = store.workspace("w")
    notes = [ws.add(f"note {i}") for i in range(12)]
    search = ws.search()
    old = search.index("m")
    for n in notes[:8]:
        ws.remove(n.id)
    fresh = search.index("m")
    assert fresh is not old and fresh.count == 4  # tombstones were forgotten: read again, whole
    ws.remove(notes[8].id)
    assert search.index("m") is fresh and fresh.count == 3  # and patched from there


def test_a_patched_copy_leaves_the_index_a_question_reads_as_it_was() -> None:
    """Copy-on-write: what :meth:`NotesIndex.apply` changes in place (dead slots, slots written within the
    arrays' spare room, the words) belongs to the copy alone, so a question reading the original meanwhile
    (another thread of the service) sees one whole generation."""
    con = apsw.Connection(":memory:")
    index = NotesIndex("m", tokenizer(con))

    def row(rowid: int, text: str) -> tuple[object, ...]:
        return (rowid, None, None, None, None, text, np.full(4, rowid, np.float32).tobytes(), f"note:{rowid}")

    index.load(1, [row(1, "grace and peace"), row(2, "faith"), row(3, "works of the law")])
    live, words, near = index.live().copy(), keyword_search(index, ["faith"], 5), nearest(index, np.ones(4), 5)
    patched = index.copy()
    patched.apply(2, [row(2, "grace upon grace"), row(4, "faith comes by hearing")], [1])
    assert index.generation == 1 and index.size == 3 and (index.live() == live).all()
    assert keyword_search(index, ["faith"], 5) == words and [r for r, _ in words] == [2]
    assert nearest(index, np.ones(4), 5) == near
    assert [r for r, _ in keyword_search(patched, ["faith"], 5)] == [4]
    assert patched.count == 3 and not keyword_search(patched, ["peace"], 5)
