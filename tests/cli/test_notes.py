"""``amicus-desktop notes``: CONTRACT section 11's commands, JSON shapes and exit codes, with a real
(scripted) proxy over HTTP and one that is away."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.notes import NotesStore
from tests.support.cli import run
from tests.support.corpora import dead_proxy
from tests.support.dbs import build_db, demo_like_chunks
from tests.support.scripted_proxy import ScriptedProxy, text_vector


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=8, model="test-model") as p:
        yield p


def notes(*args: str) -> tuple[int, str, str]:
    return run("notes", *args)


def add_json(*args: str) -> tuple[int, dict, str]:
    code, out, err = notes("add", *args, "--json")
    assert out.count("\n") == 1, out + err  # one JSON object on stdout, whatever else is said
    return code, json.loads(out), err


def test_add_embeds_with_the_librarys_model(small_db: Path, proxy: ScriptedProxy) -> None:
    code, body, err = add_json("Election is not of works", "--workspace", "alice", "--ref", "Rom 9:11",
                               "--db", str(small_db), "--proxy", proxy.url)
    assert code == 0 and err == ""
    assert set(body) == {"id", "workspace", "ref", "embedded"}
    assert body["id"].startswith("note:") and body["workspace"] == "alice" and body["embedded"] is True
    assert body["ref"] == {"book_id": "romans", "chapter_num": 9, "verse_start": 11, "verse_end": 11}
    with NotesStore() as store:
        assert store.workspace("alice").get(body["id"]).models == ("test-model",)


def test_add_with_the_proxy_away_saves_and_says_so(small_db: Path, proxy: ScriptedProxy) -> None:
    code, body, err = add_json("Saved while offline", "--workspace", "w", "--db", str(small_db),
                               "--proxy", dead_proxy())
    assert code == 0 and body["embedded"] is False and body["ref"] is None
    assert "not embedded" in err and "cannot be reached" in err and "Saved while offline" not in err
    # the next notes command that reaches the proxy embeds it
    code, second, _ = add_json("Saved online", "--workspace", "w", "--db", str(small_db), "--proxy", proxy.url)
    assert code == 0 and second["embedded"] is True
    with NotesStore() as store:
        assert store.workspace("w").pending("test-model") == []


def test_a_proxy_serving_another_model_embeds_nothing(small_db: Path) -> None:
    with ScriptedProxy(dims=8, model="another-model") as other:
        code, body, err = add_json("x", "--workspace", "w", "--db", str(small_db), "--proxy", other.url)
    assert code == 0 and body["embedded"] is False and "MODEL" not in err and "another-model" in err
    with NotesStore() as store:
        assert store.workspace("w").get(body["id"]).models == ()


def test_a_new_library_model_embeds_every_note_again(small_db: Path, tmp_path: Path) -> None:
    with ScriptedProxy(dims=8, model="test-model") as p:
        _, first, _ = add_json("one", "--workspace", "w", "--db", str(small_db), "--proxy", p.url)
    other_db = build_db(tmp_path / "m2.db", demo_like_chunks(dims=8), model="model-2")
    with ScriptedProxy(dims=8, model="model-2") as p:
        _, second, _ = add_json("two", "--workspace", "w", "--db", str(other_db), "--proxy", p.url)
    with NotesStore() as store:
        ws = store.workspace("w")
        assert ws.get(first["id"]).models == ("model-2", "test-model")
        assert ws.get(second["id"]).models == ("model-2",)


@pytest.mark.parametrize(("args", "words"), [
    (["add", "", "--workspace", "w"], "needs some text"),
    (["add", "x", "--workspace", "Not-Valid"], "--workspace"),
    (["add", "x", "--workspace", "w", "--ref", "Romans 99"], "16 chapters"),
    (["add", "x", "--workspace", "w", "--ref", "nonsense"], "--ref"),
    (["list"], "--workspace"),
    (["edit", "note:1", "--workspace", "w"], "TEXT, --ref or --no-ref"),
    (["edit", "note:1", "x", "--workspace", "w", "--ref", "John 1", "--no-ref"], "not allowed"),
])
def test_usage_errors_exit_2(args: list[str], words: str) -> None:
    code, out, err = notes(*args)
    assert code == 2 and out == "" and words in err


def test_list_edit_rm(small_db: Path, proxy: ScriptedProxy) -> None:
    conn = ["--db", str(small_db), "--proxy", proxy.url]
    _, a, _ = add_json("on Romans 9", "--workspace", "w", "--ref", "Romans 9", *conn)
    _, b, _ = add_json("on John 3:16", "--workspace", "w", "--ref", "John 3:16", *conn)
    code, out, _ = notes("list", "--workspace", "w", "--json")
    listed = json.loads(out)
    assert code == 0 and listed["workspace"] == "w" and [n["id"] for n in listed["notes"]] == [a["id"], b["id"]]
    assert set(listed["notes"][0]) == {"id", "text", "ref", "created", "updated", "models"}
    code, out, _ = notes("list", "--workspace", "w", "--ref", "Romans 9:3", "--json")
    assert [n["id"] for n in json.loads(out)["notes"]] == [a["id"]]
    code, out, _ = notes("list", "--workspace", "w")
    assert code == 0 and "Romans 9" in out and "John 3:16" in out

    code, out, err = notes("edit", a["id"], "rewritten", "--workspace", "w", "--json", *conn)
    body = json.loads(out)
    assert code == 0 and body["embedded"] is True and body["ref"]["chapter_num"] == 9
    code, out, _ = notes("edit", a["id"], "--no-ref", "--workspace", "w", "--json", *conn)
    assert json.loads(out)["ref"] is None

    for ws in ("other", "w"):  # another workspace's note is not found; then it is gone for good
        code, out, err = notes("rm", b["id"] if ws == "w" else a["id"], "--workspace", ws)
        assert code == 0 if ws == "w" else code == 1
    code, out, err = notes("rm", b["id"], "--workspace", "w", "--json")
    assert code == 1 and json.loads(out)["error"]["code"] == "NOTE_NOT_FOUND"
    code, out, err = notes("edit", "note:nope", "x", "--workspace", "w")
    assert code == 1 and "NOTE_NOT_FOUND" in err
    assert [n["id"] for n in json.loads(notes("list", "--workspace", "w", "--json")[1])["notes"]] == [a["id"]]


def test_export_and_import(tmp_path: Path, small_db: Path, proxy: ScriptedProxy) -> None:
    conn = ["--db", str(small_db), "--proxy", proxy.url]
    _, a, _ = add_json("First thought on grace", "--workspace", "alice", "--ref", "Romans 3:24", *conn)
    _, b, _ = add_json("A note on no passage", "--workspace", "alice", *conn)
    out = tmp_path / "alice.json"
    code, _, err = notes("export", "--workspace", "alice", "--out", str(out))
    data = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0 and "2 notes" in err
    assert data["workspace"] == "alice" and [n["id"] for n in data["notes"]] == [a["id"], b["id"]]
    assert set(data["notes"][0]) == {"id", "text", "ref", "created", "updated"}
    assert (out.stat().st_mode & 0o777) == 0o600

    code, md, _ = notes("export", "--workspace", "alice", "--out", "-", "--format", "markdown")
    assert code == 0 and md.index("## Romans 3") < md.index("## Notes on no passage")
    assert "### Romans 3:24" in md and "First thought on grace" in md

    # into another workspace: the notes are copied there, alice keeps hers
    code, stdout, _ = notes("import", str(out), "--workspace", "bob", "--json", *conn)
    assert code == 0 and json.loads(stdout) == {"imported": 2, "errors": []}
    # into the same workspace: every id clashes and is re-assigned
    code, stdout, _ = notes("import", str(out), "--workspace", "alice", *conn)
    assert code == 0 and "was taken" in stdout
    with NotesStore() as store:
        alice, bob = store.workspace("alice"), store.workspace("bob")
        assert alice.count() == 4 and len({n.id for n in alice.notes()}) == 4
        assert [n.text for n in bob.notes()] == ["First thought on grace", "A note on no passage"]
        assert bob.pending("test-model") == [] and alice.pending("test-model") == []
        bob.edit(a["id"], "bob's own version now")
        assert alice.get(a["id"]).text == "First thought on grace"


def test_import_reports_each_bad_note_by_index(tmp_path: Path, small_db: Path) -> None:
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"workspace": "x", "notes": [
        {"text": "good one", "ref": {"book_id": "romans", "chapter_num": 8, "verse_start": 28}},
        {"text": ""},
        {"text": "bad ref", "ref": {"book_id": "romans", "chapter_num": 17}},
        "not a note",
        {"text": "bad time", "created": "yesterday"},
        {"text": "unknown key", "colour": "red"},
        {"id": "note:keep-me", "text": "good two", "created": "2020-01-01T00:00:00Z"},
    ]}), encoding="utf-8")
    code, out, _ = notes("import", str(path), "--workspace", "w", "--json", "--db", str(small_db),
                         "--proxy", dead_proxy())
    body = json.loads(out)
    assert code == 1 and body["imported"] == 2
    assert [e["index"] for e in body["errors"]] == [1, 2, 3, 4, 5]
    with NotesStore() as store:
        kept = store.workspace("w").get("note:keep-me")
        assert kept.created == "2020-01-01T00:00:00.000Z" and kept.updated == kept.created
        (good,) = [n for n in store.workspace("w").notes() if n.text == "good one"]
        assert good.ref.verse_end == 28  # one verse: it ends where it starts


@pytest.mark.parametrize("content", [b"not json", b'{"notes": {}}', b"[]", b"\xff\xfe",
                                     b'{"workspace": "w", "notes": [{"id": "note:a", "text": "t", "x": NaN}]}'])
def test_a_file_that_is_not_an_export_is_a_usage_error(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out, _ = notes("import", str(path), "--workspace", "w")
    assert code == 2 and out == ""
    with NotesStore() as store:
        assert store.workspace("w").count() == 0


def test_vectors_are_unit_and_of_the_notes_opening(small_db: Path, proxy: ScriptedProxy) -> None:
    long_text = "grace " * 1000
    add_json(long_text, "--workspace", "w", "--db", str(small_db), "--proxy", proxy.url)
    with NotesStore() as store:
        index = store.workspace("w").search().index("test-model")
    assert np.allclose(index.matrix[0], text_vector(long_text[:2000], 8), atol=1e-6)


def test_export_never_writes_over_a_database_whatever_its_name_nor_a_pipe_device_or_folder(tmp_path: Path) -> None:
    """Issue #30 item 10: only a ``.db`` name was refused, so ``--out library.json`` (a library by another name)
    was replaced by the notes; a refused target is a usage error (exit 2) as for the other commands, and the
    file is left as it was."""
    import os
    import subprocess
    import sys

    with NotesStore() as store:
        store.workspace("w").add("a note to export")
    library = build_db(tmp_path / "library.json", demo_like_chunks(dims=8))  # a database, named like an export
    before = library.read_bytes()
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for target in (library, fifo, Path("/dev/null"), tmp_path):
        proc = subprocess.run([sys.executable, "-m", "amicus_desktop", "notes", "export", "--workspace", "w",
                               "--out", str(target)], capture_output=True, text=True, timeout=60, check=False)
        assert proc.returncode == 2 and proc.stdout == "", (target, proc.stderr)
        assert "Traceback" not in proc.stderr and "error: " in proc.stderr
    assert library.read_bytes() == before and fifo.exists() and not fifo.is_file()
    code, _, err = notes("export", "--workspace", "w", "--out", str(library))
    assert code == 2 and "is a SQLite database" in err
    assert notes("export", "--workspace", "w", "--out", str(tmp_path / "notes.json"))[0] == 0
