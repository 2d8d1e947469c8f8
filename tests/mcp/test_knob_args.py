"""The MCP tools' knob arguments come from the knob table (``mcp/knob_args.py``): a row's ``tools`` puts its
``param`` in each tool's signature, typed by its kind, with a line of help when the description lacks one."""

from __future__ import annotations

import inspect
from dataclasses import replace
from typing import Any, Literal

from amicus_desktop import knobs as table
from amicus_desktop.knobs import BY_NAME, KNOBS
from amicus_desktop.mcp import knob_args
from amicus_desktop.mcp.knob_args import argument_type, knob_items, spelled, takes_knobs, tool_knobs


def test_the_search_tools_take_the_knobs_their_rows_name() -> None:
    assert [k.param for k in tool_knobs("search_library")] == ["k", "mode", "chapter"]
    assert [k.param for k in tool_knobs("get_context")] == ["mode", "chapter"]
    assert spelled(BY_NAME["mode"]) == ("dense", "hybrid", "keyword")  # the service's spelling of semantic
    assert argument_type(BY_NAME["mode"]) == Literal["dense", "hybrid", "keyword"] | None
    assert argument_type(BY_NAME["k"]) == int | None
    assert argument_type(BY_NAME["book"]) == list[str] | None


def test_a_new_rows_knob_becomes_an_argument_with_its_help(monkeypatch: Any) -> None:
    """A row that names a tool is all it takes: the argument, its type, its place and its sentence."""
    extra = replace(BY_NAME["k"], name="min_score", kind=table.Kind.NUMBER, param="min_score", flag=None,
                    target=None, tools=("search_library",), help="drop results scored below X")
    monkeypatch.setattr(knob_args, "KNOBS", (*KNOBS, extra))

    @takes_knobs("search_library", after="query")
    async def tool(query: str, cursor: str | None = None, **knobs: Any) -> str:
        """Find things.

        k: how many.
        """
        return query

    sig = inspect.signature(tool)
    assert list(sig.parameters) == ["query", "k", "mode", "chapter", "min_score", "cursor"]
    assert sig.parameters["min_score"].annotation == float | None and sig.parameters["min_score"].default is None
    assert tool.__doc__ is not None and tool.__doc__.endswith("min_score: drop results scored below X.")
    assert "k: results to return" not in tool.__doc__  # described by hand already
    assert knob_items({"k": 3, "mode": None, "min_score": 0.5, "book": ["rom", "gen"]}) == [
        ("k", "3"), ("min_score", "0.5"), ("book", "rom"), ("book", "gen")]


def test_a_tool_may_keep_the_order_it_published_its_knobs_in() -> None:
    @takes_knobs("get_context", after="budget", first=("chapter",))
    async def tool(query: str, budget: int = 8000, detail: str | None = None, **knobs: Any) -> str:
        """Context. chapter: the open one. mode: how."""
        return query

    assert list(inspect.signature(tool).parameters) == ["query", "budget", "chapter", "mode", "detail"]
    assert tool.__doc__ == "Context. chapter: the open one. mode: how."  # each described already
