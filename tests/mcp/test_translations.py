"""A passage in another translation the library holds: ``read_passage``'s ``translation``, the resource
``scripture://john/3/16-18?translation=kjv`` and ``GET /passage?translation=kjv`` read the same verses of the
KJV table; an unknown translation is refused everywhere."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcp import ClientSession

from amicus_desktop.store.scripture import ScriptureStore
from tests.mcp.test_server import drive
from tests.mcp.tools_client import Tools
from tests.serve.conftest import expect_error
from tests.support.serve import ServeProcess


def test_another_translation_by_tool_resource_and_http(verse_db: Path, local_proxy: Any, tmp_path: Path) -> None:
    with ScriptureStore(verse_db) as store:
        web = dict(store.chapter("john", 3))
    got: dict[str, Any] = {}

    async def check(session: ClientSession) -> None:
        tools = await Tools(session).start()
        kjv = await tools.ok("read_passage", {"reference": "John 3:16-18", "translation": "KJV"})
        default = await tools.ok("read_passage", {"reference": "John 3:16-18"})
        assert kjv["translation"]["id"] == "kjv" and default["translation"]["id"] == "web"
        assert [v["text"] for v in default["verses"]] == [web[n] for n in (16, 17, 18)]
        assert [v["text"] for v in kjv["verses"]] != [v["text"] for v in default["verses"]]
        assert kjv["verses"][0]["text"].startswith("For God so loved the world")
        read = await session.read_resource("scripture://john/3/16-18?translation=kjv")
        text = read.contents[0].text  # type: ignore[union-attr]
        assert text.splitlines()[2:] == [f"{v['verse']} {v['text']}" for v in kjv["verses"]]
        await tools.refused("read_passage", {"reference": "John 3:16", "translation": "niv"}, "BAD_REQUEST")
        got["kjv"] = kjv

    drive(verse_db, local_proxy.url, tmp_path, check)
    serve = ServeProcess(verse_db, local_proxy.url).start()
    try:
        answer = serve.get("/passage", params={"ref": "John 3:16-18", "translation": "kjv"})
        assert answer.status_code == 200
        body = answer.json()
        assert body["verses"] == [{"verse": v["verse"], "text": v["text"]} for v in got["kjv"]["verses"]]
        assert body["translation"] == got["kjv"]["translation"]
        expect_error(serve.get("/passage", params={"ref": "John 3:16", "translation": "niv"}), 400, "BAD_REQUEST")
    finally:
        serve.close()
