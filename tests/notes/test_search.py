"""Searching one workspace's notes: nearest by meaning (numpy, one model's vectors), best by words
(the workspace's own BM25 statistics), and a snapshot that follows changes made anywhere."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.notes import NotesStore, parse_ref


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
    snap = search.snapshot("m")
    assert len(snap) == 60 and snap.pending == 10 and snap.matrix.shape == (50, 16)
    q = rng.standard_normal(16).astype(np.float32)
    got = search.nearest(snap, q, 10)
    rowids = search.rowids_of([n.id for n in notes])
    pairs = zip(notes[:50], vectors[:50], strict=True)
    expected = sorted((1 - float(_unit(v) @ _unit(q)), rowids[n.id]) for n, v in pairs)
    assert [r for r, _ in got] == [r for _, r in expected[:10]]
    for (r, d), (d2, r2) in zip(got, expected, strict=False):
        assert r == r2 and d == pytest.approx(d2, abs=1e-5)
    assert search.distances(snap, q, [rowids[notes[0].id], rowids[notes[55].id]]).keys() == {rowids[notes[0].id]}


def test_nearest_only_among_allowed_rows(store: NotesStore) -> None:
    ws = store.workspace("w")
    a = ws.add("a", parse_ref("Romans 9"))
    b = ws.add("b", parse_ref("John 3"))
    ws.store_vectors("m", [(a, np.array([1, 0], np.float32)), (b, np.array([0.9, 0.1], np.float32))])
    search = ws.search()
    snap = search.snapshot("m")
    allowed = np.array([book == "john" for book in snap.book_ids])
    assert [r for r, _ in search.nearest(snap, np.array([1, 0], np.float32), 5, allowed)] == [snap.rowids[1]]
    assert search.nearest(snap, np.array([1, 0], np.float32), 5, np.zeros(2, bool)) == []


def test_the_snapshot_follows_changes_from_another_process(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite"
    with NotesStore(path) as app, NotesStore(path) as cli:
        search = app.workspace("w").search()
        first = search.snapshot("m")
        assert search.snapshot("m") is first  # unchanged: from memory
        note = cli.workspace("w").add("written by the command line")
        assert len(search.snapshot("m")) == 1 and search.snapshot("m").pending == 1
        cli.workspace("w").store_vectors("m", [(note, np.ones(4))])
        assert search.snapshot("m").pending == 0
        cli.workspace("other").add("another workspace's change")
        assert search.snapshot("m") is search.snapshot("m")


def test_keyword_search_holds_the_workspaces_notes_only(store: NotesStore) -> None:
    alice, bob = store.workspace("alice"), store.workspace("bob")
    a = alice.add("Justified by faith, says Paul")
    bob.add("Justified by works, says bob")
    search = alice.search()
    rowids = search.rowids_of([a.id])
    assert [r for r, _ in search.search(["justified"], 10)] == [rowids[a.id]]
    assert search.doc_count("justify") == 1 and search.total == 1  # stemmed, as the library's index
    assert search.search(["justified"], 10, allowed=[]) == []
    assert search.bm25_of(["faith"], [rowids[a.id], 999]) != [] and search.bm25_of(["works"], [rowids[a.id]]) == []


def test_another_workspaces_words_never_move_these_scores(store: NotesStore) -> None:
    """BM25 counts how many notes hold a word: each workspace counts its own, so what bob writes cannot be
    read off alice's scores."""
    alice = store.workspace("alice")
    for text in ("grace and peace", "grace upon grace", "peace be with you", "the law and the prophets"):
        alice.add(text)
    before = alice.search().search(["grace", "law"], 10)
    bob = store.workspace("bob")
    for i in range(50):
        bob.add(f"grace {i}" if i % 2 else f"law {i}")
    assert alice.search().search(["grace", "law"], 10) == before
    assert alice.search().doc_count("grace") == 2

