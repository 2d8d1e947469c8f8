"""``list_notes`` / ``add_note`` touch the server's workspace only, and ``add_note`` writes only with
``--allow-writes``; passages are resources (``scripture://romans/9/11-13``). The SDK's client over stdio."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp import ClientSession

from amicus_desktop.notes import NotesStore
from tests.mcp.test_server import drive
from tests.mcp.tools_client import Tools

SECRET = "Onesiphorus kept this note about the potter and the clay"


def _notes(home: Path, workspace: str) -> list[str]:
    path = home / "data" / "notes" / "notes.sqlite"
    if not path.exists():
        return []
    with NotesStore(path) as store:
        return [n.text for n in store.workspace(workspace).notes()]


def test_notes_of_the_servers_workspace_only_and_written_only_when_allowed(study_db: Path, local_proxy: Any,
                                                                             tmp_path: Path) -> None:
    home = tmp_path / "home"
    got: dict[str, Any] = {}

    async def read_only(session: ClientSession) -> None:
        tools = await Tools(session).start()
        await tools.refused("add_note", {"text": SECRET, "ref": "Romans 9:21"}, "WRITES_DISABLED")
        listed = await tools.ok("list_notes", {})
        assert listed["notes"] == [] and listed["workspace"] == "alice"

    async def writer(session: ClientSession) -> None:
        tools = await Tools(session).start()
        added = await tools.ok("add_note", {"text": SECRET, "ref": "Romans 9:21"})
        assert added["workspace"] == "alice" and added["embedded"] is True
        note = added["notes"][0]
        assert note["label"] == "Romans 9:21" and note["text"] == SECRET
        got["id"] = note["id"]
        await tools.refused("add_note", {"text": "  "}, "BAD_REQUEST")
        await tools.refused("add_note", {"text": "x", "ref": "Narnia 3"}, "BAD_REQUEST")
        listed = await tools.ok("list_notes", {"ref": "Romans 9", "detail": "ids"})
        assert [n["id"] for n in listed["notes"]] == [note["id"]] and "text" not in listed["notes"][0]
        found = await tools.ok("search_library", {"query": "Onesiphorus potter clay", "mode": "keyword",
                                                  "filters": {"source_type": ["user_note"]}})
        assert [r["id"] for r in found["results"]] == [note["id"]]
        assert found["library"]["workspace"] == "alice"

    async def other(session: ClientSession) -> None:
        tools = await Tools(session).start()
        listed = await tools.ok("list_notes", {})
        assert listed["notes"] == [] and listed["workspace"] == "bob"
        found = await tools.ok("search_library", {"query": "Onesiphorus potter clay", "mode": "keyword"})
        assert got["id"] not in str(found) and SECRET not in str(found)
        await tools.ok("add_note", {"text": "bob's own"})

    async def nobody(session: ClientSession) -> None:
        tools = await Tools(session).start()
        await tools.refused("list_notes", {}, "NO_WORKSPACE")
        await tools.refused("add_note", {"text": "x"}, "WRITES_DISABLED")

    drive(study_db, local_proxy.url, home, read_only, "--workspace", "alice")
    assert _notes(home, "alice") == []
    drive(study_db, local_proxy.url, home, writer, "--workspace", "alice", "--allow-writes")
    drive(study_db, local_proxy.url, home, other, "--workspace", "bob", "--allow-writes")
    drive(study_db, local_proxy.url, home, nobody)
    assert _notes(home, "alice") == [SECRET] and _notes(home, "bob") == ["bob's own"]


def test_passages_are_resources(study_db: Path, tmp_path: Path) -> None:
    async def check(session: ClientSession) -> None:
        templates = {t.uri_template for t in (await session.list_resource_templates()).resource_templates}
        assert templates == {"scripture://{book}/{chapter}/{verses}{?translation}",
                             "scripture://{book}/{chapter}{?translation}"}
        tools = await Tools(session).start()
        passage = await tools.ok("read_passage", {"reference": "Romans 9:11-13"})
        read = await session.read_resource("scripture://romans/9/11-13")
        text = read.contents[0].text  # type: ignore[union-attr]
        assert text.splitlines()[0] == "Romans 9:11-13"
        assert text.splitlines()[2:] == [f"{v['verse']} {v['text']}" for v in passage["verses"]]
        chapter = await session.read_resource("scripture://romans/9")
        assert chapter.contents[0].text.splitlines()[0] == "Romans 9"  # type: ignore[union-attr]
        for bad in ("scripture://romans/9/1?translation=klingon", "scripture://narnia/3/1"):
            try:
                await session.read_resource(bad)
            except Exception as exc:  # the SDK raises the server's error to the client
                assert "BAD_REQUEST" in str(exc), (bad, exc)
            else:
                raise AssertionError(f"{bad} was read")

    drive(study_db, "http://127.0.0.1:9", tmp_path, check)
