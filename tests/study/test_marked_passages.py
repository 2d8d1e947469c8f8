"""A question limited to the reader's marked passages ("search my labelled passages"): ``query --marks`` on the
real demo library and a real notes store, resolved in the question's workspace only (notes/marks.py
MarkChoice, Filters.passages, store/conditions.py's passages condition, the notes' own filter)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from amicus_desktop.core.query import Filters
from amicus_desktop.core.references import PassageRef
from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.notes import NotesError, NotesStore
from amicus_desktop.notes.marks import MarkChoice, MarkKind, chosen_passages
from amicus_desktop.store.scripture import ScriptureStore
from tests.support.cli import run
from tests.support.corpora import dead_proxy

ROM_8_28 = PassageRef("romans", 8, 28, 28)
JOHN_3 = PassageRef("john", 3, 16, 17)
ROM_9 = PassageRef("romans", 9, 10, 13)


def _mark(workspace: str) -> None:
    with NotesStore() as store:
        marks = store.workspace(workspace).marks()
        marks.add("bookmark", ROM_8_28, labels=["Promises"])
        marks.add("highlight", JOHN_3, colour="green", labels=["promises", "gospel"])
        marks.add("highlight", ROM_9, colour="pink")
        store.workspace(workspace).add("the potter and the clay, mercy on whom he will", ROM_9)
        store.workspace(workspace).add("all things work together for good: mercy", ROM_8_28)


def _query(db: Path, *args: str) -> tuple[int, dict, str]:
    code, out, err = run("query", "love mercy grace", "--db", str(db), "--proxy", dead_proxy(), "--mode",
                         "keyword", "--candidates", "200", "--k", "50", "--json", *args)
    return code, (json.loads(out) if out.strip() else {}), err


def _meta(result: dict) -> ChunkMetadata:
    m = result["metadata"]
    return ChunkMetadata(book_id=m.get("book_id"), chapter_num=m.get("chapter_num"),
                         verse_start=m.get("verse_start"), verse_end=m.get("verse_end"))


def test_a_choice_is_read_and_holds_the_marks_it_names(amicus_home: Path) -> None:
    assert MarkChoice.parse("Bookmarks") == MarkChoice(kind=MarkKind.BOOKMARK)
    assert MarkChoice.parse("label:sermon  12") == MarkChoice(label="sermon 12")
    assert MarkChoice.parse("promises") == MarkChoice(label="promises")
    with pytest.raises(NotesError):
        MarkChoice.parse("label:" + "x" * 41)
    _mark("alice")
    with NotesStore() as store:
        marks = store.workspace("alice").marks()
        assert chosen_passages(marks, [MarkChoice(label="PROMISES")]) == [JOHN_3, ROM_8_28]  # Bible order
        assert chosen_passages(marks, [MarkChoice(kind=MarkKind.HIGHLIGHT)]) == [JOHN_3, ROM_9]
        assert chosen_passages(marks, [MarkChoice(kind=MarkKind.BOOKMARK), MarkChoice(label="gospel")]) == [
            JOHN_3, ROM_8_28]
        assert chosen_passages(store.workspace("bob").marks(), [MarkChoice(label="promises")]) == []


def test_the_store_allows_only_chunks_covering_a_marked_passage(demo_db: Path) -> None:
    passages = (ROM_8_28, JOHN_3)
    with ScriptureStore(demo_db) as store:
        allowed = set(store.allowed_rowids(Filters(passages=passages)))
        by_meta = {rowid for rowid, meta in _all_metadata(store) if any(p.covers(meta) for p in passages)}
        assert allowed == by_meta and allowed
        romans = set(store.allowed_rowids(Filters(books=("romans",), passages=passages)))
        assert romans and romans < allowed  # AND across kinds: John 3 is not Romans
        assert not store.filters_in_vec0(Filters(passages=passages))  # vec0 has no verses: over the rowids


def _all_metadata(store: ScriptureStore) -> list[tuple[int, ChunkMetadata]]:
    rows = store.rows("SELECT rowid, book_id, chapter_num, verse_start, verse_end FROM chunk_metadata")
    return [(int(r), ChunkMetadata(book_id=b, chapter_num=c, verse_start=s, verse_end=e)) for r, b, c, s, e in rows]


def test_query_marks_limits_the_question_to_the_workspaces_passages(demo_db: Path, amicus_home: Path,
                                                                    caplog: pytest.LogCaptureFixture) -> None:
    _mark("alice")
    code, whole, _ = _query(demo_db, "--workspace", "alice")
    assert code == 0 and "passage" not in whole["query_trace"]["filters"]  # section 6's four kinds exactly
    everywhere = {(r["metadata"]["book_id"], r["metadata"]["chapter_num"]) for r in whole["results"]}
    assert len(everywhere) > 2
    with caplog.at_level(logging.DEBUG):
        code, body, err = _query(demo_db, "--workspace", "alice", "--marks", "promises")
    assert code == 0, err
    assert body["query_trace"]["filters"]["passage"] == [
        {"book_id": "john", "chapter_num": 3, "verse_start": 16, "verse_end": 17},
        {"book_id": "romans", "chapter_num": 8, "verse_start": 28, "verse_end": 28}]
    assert body["results"]
    for r in body["results"]:
        assert any(p.covers(_meta(r)) for p in (ROM_8_28, JOHN_3)), r["chunk_id"]
    notes = [r for r in body["results"] if r["source_type"] == "user_note"]
    assert [r["metadata"]["verse_start"] for r in notes] == [28]  # the note on Romans 9 is not on a marked passage
    assert "promises" not in caplog.text.lower()  # the reader's labels are never logged
    code, highlights, _ = _query(demo_db, "--workspace", "alice", "--marks", "highlights")
    covered = {(r["metadata"]["book_id"], r["metadata"]["chapter_num"]) for r in highlights["results"]}
    assert code == 0 and covered <= {("john", 3), ("romans", 9)} and ("romans", 9) in covered


def test_marks_need_the_workspace_that_marked_them(demo_db: Path, amicus_home: Path) -> None:
    _mark("alice")
    code, _, err = _query(demo_db, "--marks", "promises")
    assert code == 2 and "--marks" in err and "--workspace" in err
    code, _, err = _query(demo_db, "--workspace", "bob", "--marks", "promises")  # bob marked nothing
    assert code == 2 and "workspace bob has no passages marked as label 'promises'" in err
    code, _, err = _query(demo_db, "--workspace", "alice", "--marks", "label:")
    assert code == 2 and "--marks: A label is 1–40 characters." in err
