"""Scoping is the security boundary: nothing a workspace gives out holds another workspace's note.

The store half (the retrieval, service and MCP halves are in tests/retrieval/test_notes_scoping.py,
tests/serve and tests/mcp): every read a workspace offers, after another workspace wrote notes with the
same text and the same ids, with hypothesis generating the workspaces and notes.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amicus_desktop.logs import setup_logging, shutdown_logging
from amicus_desktop.notes import Note, Workspace
from amicus_desktop.notes.exchange import export_json, export_markdown, import_notes
from amicus_desktop.notes.search import bm25_of, keyword_search, nearest
from tests.support.cli import run
from tests.support.corpora import dead_proxy

WORDS = ("grace", "election", "faith", "works", "law", "love", "hope", "jacob", "esau", "potter")


def everything_read(ws: Workspace, model: str) -> str:
    """All a workspace gives out, as text: its notes, lists, exports, searches and their notes."""
    search = ws.search()
    index = search.index(model)
    rows = [r for r, _ in nearest(index, np.ones(4, np.float32), 1000)]
    rows += [r for r, _ in keyword_search(index, list(WORDS), 1000)]
    rows += [r for r, _ in bm25_of(index, list(WORDS), list(range(1, 10_000)))]
    rows += [int(r) for r in index.rowids[: index.size]]
    found = search.fetch([*rows, *range(1, 2000)])
    parts = [
        json.dumps(export_json(ws)), export_markdown(ws),
        repr(ws.notes()), repr(ws.pending(model)), repr(list(found.values())),
        repr(search.rowids_of([n.id for n in ws.notes()])),
    ]
    return "\n".join(parts)


@st.composite
def notes_of_workspaces(draw: st.DrawFn) -> dict[str, list[str]]:
    names = draw(st.lists(st.from_regex(r"[a-z0-9-]{1,12}", fullmatch=True), min_size=2, max_size=4, unique=True))
    return {n: draw(st.lists(st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join),
                             min_size=0, max_size=6)) for n in names}


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=notes_of_workspaces())
def test_no_workspace_gives_out_anothers_note(store_factory, layout: dict[str, list[str]]) -> None:
    # (on PostgreSQL the examples share the test's database: an earlier example's notes are one more
    # workspace's notes that must not leak)
    with store_factory() as store:
        written: dict[str, list[Note]] = {}
        for i, (name, texts) in enumerate(layout.items()):
            ws = store.workspace(name)
            # each text carries its workspace's marker, so a leaked note is seen by its words
            written[name] = [ws.add(f"{t} [{name}#{j}]") for j, t in enumerate(texts)]
            ws.store_vectors("m", [(n, np.full(4, i + 1.0)) for n in written[name]])
        for name in layout:
            seen = everything_read(store.workspace(name), "m")
            for other, notes in written.items():
                if other == name:
                    continue
                for n in notes:
                    assert f"[{other}#" not in seen and n.id not in seen


def test_identical_text_and_ids_in_two_workspaces_stay_two_notes(store) -> None:
    if True:
        alice, bob = store.workspace("alice"), store.workspace("bob")
        a = alice.add("The same words exactly")
        report = import_notes(bob, export_json(alice))  # bob now holds a note with alice's id and text
        (b,) = report.imported
        assert b.id == a.id and b.text == a.text
        bob.edit(b.id, "bob changed his copy")
        alice.store_vectors("m", [(a, np.ones(4))])
        assert alice.get(a.id).text == "The same words exactly" and bob.get(b.id).models == ()
        bob.remove(b.id)
        assert alice.get(a.id).models == ("m",) and bob.count() == 0
        assert "bob changed" not in everything_read(alice, "m")


def test_notes_commands_never_log_note_text(tmp_path: Path, small_db: Path, caplog, amicus_home: Path) -> None:
    secret = "Onesimus-secret-note-text-7731"
    caplog.set_level(logging.DEBUG)
    log_file = setup_logging(logging.DEBUG, stderr_level=None)
    conn = ["--db", str(small_db), "--proxy", dead_proxy()]
    out = tmp_path / "x.json"
    try:
        assert run("notes", "add", secret, "--workspace", "w", *conn)[0] == 0
        _, listed, _ = run("notes", "list", "--workspace", "w", "--json")
        note_id = json.loads(listed)["notes"][0]["id"]
        assert run("notes", "edit", note_id, secret + " edited", "--workspace", "w", *conn)[0] == 0
        assert run("notes", "export", "--workspace", "w", "--out", str(out))[0] == 0
        assert run("notes", "import", str(out), "--workspace", "v", *conn)[0] == 0
        assert run("notes", "rm", note_id, "--workspace", "w")[0] == 0
    finally:
        shutdown_logging()
    texts = [r.getMessage() + repr(r.__dict__) for r in caplog.records]
    assert log_file is not None and log_file.exists()
    texts += [p.read_text(encoding="utf-8", errors="replace") for p in amicus_home.rglob("*.log*")]
    assert any("notes embedded" in t for t in texts)  # the commands did log: not one line holds the text
    assert not [t for t in texts if "Onesimus" in t]
