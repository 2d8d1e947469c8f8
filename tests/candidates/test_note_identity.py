"""A library chunk cannot take a note's identity (issue #30 item 5).

``ingest`` accepted ``"chunk_id": "note:<hex>"``; that chunk then answered ``--pin`` of the reader's note and
pushed the note out of the results. The notes' id space is reserved — ``ingest`` reports such a line, the
writer under ``build-db`` and ``ingest`` refuses such a row — and the pool keys the two apart, so even a
library built elsewhere holding a note's id never stands in for the note.
"""

from __future__ import annotations

import json
from pathlib import Path

import apsw
import pytest

from amicus_desktop.notes import Note
from tests.retrieval.test_notes_scoping import QUESTION, write
from tests.support.cli import query_json, run
from tests.support.dbs import Chunk, build_db
from tests.support.ingest import notes, write_jsonl
from tests.support.scripted_proxy import ScriptedProxy, text_vector


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=8, model="test-model") as p:
        yield p


def test_ingest_reports_a_chunk_id_in_the_notes_space(tmp_path: Path, proxy: ScriptedProxy) -> None:
    corpus = notes(2)
    corpus["chunks"][1]["chunk_id"] = "note:0123456789abcdef"
    path = write_jsonl(tmp_path / "c.jsonl", [corpus, notes(1, prefix="ok")])
    code, out, err = run("ingest", str(path), "--db", str(tmp_path / "lib.db"), "--proxy", proxy.url, "--json")
    report = json.loads(out)
    assert code == 1 and report["documents_ingested"] == 1, out + err
    (error,) = report["errors"]
    assert error["line"] == 1 and error["message"].startswith("/chunks/1/chunk_id: ")
    assert "notes' id space" in error["message"]


def test_the_writer_never_stores_a_chunk_in_the_notes_space(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="notes' id space"):
        build_db(tmp_path / "x.db", [Chunk("note:abc", [1.0, 0.0], "text", "section_panel")])
    assert not (tmp_path / "x.db").exists()


@pytest.fixture
def note_and_impostor(small_db: Path, proxy: ScriptedProxy) -> Note:
    """Alice's note, the best answer to the question, and a library built elsewhere holding a chunk with its id."""
    note = write("alice", "Jacob and Esau, election before birth", "Romans 9:11")
    proxy.vectors[QUESTION] = text_vector(note.text, 8)
    con = apsw.Connection(str(small_db))
    con.execute("UPDATE chunk_text SET chunk_id = ? WHERE rowid = 1", (note.id,))
    con.close()
    return note


@pytest.mark.parametrize("mode", ["semantic", "hybrid", "keyword"])
def test_a_library_chunk_with_a_notes_id_never_stands_in_for_the_note(small_db: Path, proxy: ScriptedProxy,
                                                                       note_and_impostor: Note, mode: str) -> None:
    note = note_and_impostor
    conn = ("--db", str(small_db), "--proxy", proxy.url, "--mode", mode, "--k", "50", "--candidates", "200")
    code, out = query_json(QUESTION, *conn, "--workspace", "alice", "--pin", note.id)
    assert code == 0, out
    same_id = [r for r in out["results"] if r["chunk_id"] == note.id]
    assert len(same_id) == 1 and same_id[0]["source_type"] == "user_note", same_id  # the note, pinned
    assert out["results"][0]["chunk_id"] == note.id
    code, out = query_json(QUESTION, *conn, "--workspace", "alice")
    assert code == 0
    same_id = [r for r in out["results"] if r["chunk_id"] == note.id]
    assert [r["source_type"] for r in same_id] == ["user_note"]  # the note, not pushed out by the chunk
    # outside the workspace a pin of the notes' space names no library chunk
    code, out = query_json(QUESTION, *conn, "--pin", note.id)
    assert code == 0 and all(r["source_type"] != "user_note" for r in out["results"])
    assert not [r for r in out["results"] if r.get("pinned")]
    assert "pin_not_found" in [w["code"] for w in out["warnings"]]
