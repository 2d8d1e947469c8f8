"""``amicus-desktop mcp --workspace W``: the workspace's notes join every tool call, and a server for
another workspace (or none) never gives one out (CONTRACT sections 10 and 11)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from mcp import ClientSession

from amicus_desktop.notes import NotesStore, parse_ref
from tests.mcp.test_server import drive, text_of
from tests.support.scripted_proxy import ScriptedProxy, text_vector

QUESTION = "what does Romans 9:11 say about Jacob and Esau"
SECRET = "Onesiphorus-kept-this-private"


def test_the_workspaces_notes_and_no_others(small_db: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    text = f"{SECRET}: Jacob and Esau, election before birth"
    with NotesStore(home / "data" / "notes" / "notes.sqlite") as store:
        ws = store.workspace("alice")
        note = ws.add(text, parse_ref("Romans 9:11"))
        ws.store_vectors("test-model", [(note, np.asarray(text_vector(text, 8), np.float32))])
    seen: dict[str, str] = {}

    def check(label: str):
        async def run(session: ClientSession) -> None:
            found = await session.call_tool("search_library", {"query": QUESTION, "k": 5})
            words = await session.call_tool("search_library", {"query": "Onesiphorus private", "mode": "keyword",
                                                               "filters": {"source_type": ["user_note"]}})
            block = await session.call_tool("get_context", {"query": QUESTION, "budget": 800})
            seen[label] = "\n".join([text_of(found), json.dumps(found.structured_content), text_of(words),
                                     json.dumps(words.structured_content), text_of(block),
                                     json.dumps(block.structured_content)])
        return run

    with ScriptedProxy(dims=8, model="test-model") as proxy:
        proxy.vectors[QUESTION] = text_vector(text, 8)
        for label, args in (("alice", ("--workspace", "alice")), ("bob", ("--workspace", "bob")), ("none", ())):
            drive(small_db, proxy.url, home, check(label), *args)
    assert SECRET in seen["alice"] and "Your note on Romans 9:11" in seen["alice"] and note.id in seen["alice"]
    for label in ("bob", "none"):
        assert SECRET not in seen[label] and note.id not in seen[label]
