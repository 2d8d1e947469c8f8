"""An assistant's session with the library over MCP — search, read, cite — written out as a Markdown page.

    python tools/examples/mcp_session.py --db PATH --proxy URL --out docs/examples/mcp-session.md

Starts ``amicus-desktop mcp`` on the library and talks to it with the MCP SDK's own client over stdio, as an
assistant does: it searches at ``detail=brief``, reads the passage of the best result, takes a page of a long
ranking with ``max_tokens`` and continues it with ``next_cursor``, and cites what it used by citation, chunk
id, text hash and the library's id. Every call and every answer in the page is what the server said (only
long texts are shortened, and marked so); nothing in it is typed by hand. No timestamps or timings are
written, so the page changes only when the library, the model or the server's answers do.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "Why did God choose Jacob over Esau?"
#: characters of a text shown before it is cut (marked with ``…``)
SHOWN = 1200


def _short(text: str, chars: int = SHOWN) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "… [shortened in this page]"


def _json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


class Session:
    """The page being written, and the client session it records."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session
        self.lines: list[str] = []

    def say(self, *lines: str) -> None:
        self.lines += [*lines, ""]

    async def call(self, tool: str, arguments: dict[str, Any], show: tuple[str, ...] = ()) -> dict[str, Any]:
        """Call ``tool``; write the call, the text the model reads and the structured keys in ``show``."""
        result = await self.session.call_tool(tool, arguments)
        text = result.content[0].text  # type: ignore[union-attr]
        if result.is_error:
            raise SystemExit(f"{tool} failed: {text}")
        data: dict[str, Any] = result.structured_content or {}
        self.say(f"**Call** `{tool}`:", "```json", _json(arguments), "```",
                 "**Text the model reads:**", "```text", _short(text), "```")
        if show:
            self.say("**Structured content** (" + ", ".join(f"`{k}`" for k in show) + "):", "```json",
                     _json({k: data[k] for k in show if k in data}), "```")
        return data


async def session_page(db: Path, proxy: str, home: Path) -> str:
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "amicus_desktop", "mcp", "--db", str(db), "--proxy", proxy],
        env={"AMICUS_HOME": str(home), "OPENBLAS_NUM_THREADS": "1", "PYTHONPATH": str(ROOT),
             "PATH": os.environ.get("PATH", "")}, cwd=str(ROOT))
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as client:
            await client.initialize()
            return await _session(Session(client))


async def _session(s: Session) -> str:
    tools = [t.name for t in (await s.session.list_tools()).tools]
    templates = [t.uri_template for t in (await s.session.list_resource_templates()).resource_templates]
    s.say("## 1. What the server offers", f"Tools: {', '.join(f'`{t}`' for t in tools)}.",
          f"Resource templates: {', '.join(f'`{t}`' for t in templates)}.")

    s.say("## 2. Search, briefly", "The assistant asks for ids, scores, citations and one-line previews first "
          "(`detail: brief`; `page.tokens` says what the answer cost) to decide what to read.")
    found = await s.call("search_library", {"query": QUESTION, "k": 5, "detail": "brief"}, ("page", "library"))
    best = found["results"][0]

    s.say("## 3. Read the passage", "It asks for the best result in full (its `meta` names the passage it is "
          "on) and reads those verses, the Bible text itself.")
    full = await s.call("search_library", {"query": QUESTION, "k": 1, "detail": "full"})
    meta = full["results"][0]["meta"]
    reference = f"{meta['book_id']} {meta['chapter_num']}"
    if meta.get("verse_start"):
        end = meta.get("verse_end") or meta["verse_start"]
        reference += f":{meta['verse_start']}" + (f"-{end}" if end != meta["verse_start"] else "")
    passage = await s.call("read_passage", {"reference": reference, "detail": "full"}, ("reference", "translation"))

    s.say("## 4. A long ranking, page by page", "With a small `max_tokens` the ranking comes in pages; "
          "`next_cursor` continues the same ranking (not the question asked again).")
    first = await s.call("search_library", {"query": QUESTION, "k": 10, "detail": "ids", "max_tokens": 1000},
                         ("next_cursor", "page"))
    if first["next_cursor"]:
        await s.call("search_library", {"query": QUESTION, "k": 10, "detail": "ids", "max_tokens": 1000,
                                        "cursor": first["next_cursor"]}, ("next_cursor", "page"))

    s.say("## 5. Cite", "The assistant quotes what it used and cites it so that anyone can check the quotation "
          "later: the citation line, the chunk id, the hash of the chunk's text and the library's content id "
          "(the same question on the same library gives the same ranking: `amicus-desktop query --replay`).")
    library = found["library"]
    cited = [f"> {best['preview']}", ">",
             f"> — {best['citation']} (chunk `{best['id']}`, `{best['text_sha256'][:23]}…`; "
             f"library `{library['id']}`, model `{library['model']['id']}`)", "",
             f"> {passage['verses'][0]['verse']} {passage['verses'][0]['text']}", ">",
             f"> — {passage['reference']} ({(passage.get('translation') or {}).get('abbreviation', '')}, "
             f"`{passage['verses'][0]['text_sha256'][:23]}…`)"]
    s.say(*cited)
    return "\n".join(s.lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the library (scripture.db)")
    parser.add_argument("--proxy", required=True, help="the embed proxy's URL (amicus-desktop proxy)")
    parser.add_argument("--out", type=Path, required=True, help="the Markdown page to write")
    parser.add_argument("--home", type=Path, default=None, help="AMICUS_HOME for the server (default: a temporary one)")
    args = parser.parse_args(argv)
    import tempfile

    with tempfile.TemporaryDirectory(prefix="amicus-example-") as tmp:
        body = asyncio.run(session_page(args.db.resolve(), args.proxy, args.home or Path(tmp)))
    head = ["# An assistant's session: search, read, cite",
            "",
            "Generated by `tools/examples/mcp_session.py` (do not edit by hand): the MCP SDK's own client talking to",
            f"`amicus-desktop mcp` on the library `{args.db.name}` over stdio. The question: *{QUESTION}*",
            "Regenerate with `python tools/examples/mcp_session.py --db PATH --proxy URL --out "
            "docs/examples/mcp-session.md`.", ""]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp_out = args.out.with_suffix(".tmp")
    tmp_out.write_text("\n".join(head) + "\n" + body.rstrip() + "\n", encoding="utf-8")
    tmp_out.replace(args.out)  # atomic: a reader never sees half a page
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
