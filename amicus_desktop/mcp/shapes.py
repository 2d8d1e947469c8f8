"""How each tool's answer is cut at each ``detail`` (:class:`~.sizing.Shape`): which keys an item and the
header keep at ``ids``, ``brief`` and ``full``, and what each level leaves out. No Qt, no I/O.

Every level keeps what a citation needs: an item's id, its score or position, its citation (or
reference) and ``text_sha256`` where the item is a text of the library (CONTRACT section 10).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from . import text
from .sizing import Item, Shape, View, preview


def _keep(keys: Sequence[str], extra: Callable[[Item], Item] | None = None) -> View:
    def view(item: Item) -> Item:
        out = {k: item[k] for k in keys if k in item}
        if extra is not None:
            out.update(extra(item))
        return out
    return view


def _same(item: Item) -> Item:
    return dict(item)


def _preview_of(key: str) -> Callable[[Item], Item]:
    return lambda item: {"preview": preview(str(item.get(key) or ""))}


#: ``search_library``: section 9's body; an item is one result
SEARCH_HEADER = ("query", "k", "mode", "filters", "warnings", "model", "library")
SEARCH = Shape(
    items_key="results",
    item_views={
        "full": _same,
        "brief": _keep(("id", "rank", "score", "pinned", "source_type", "title", "citation", "text_sha256"),
                       _preview_of("snippet")),
        "ids": _keep(("id", "rank", "score", "citation", "text_sha256")),
    },
    header_views={"full": _same, "brief": _keep(SEARCH_HEADER), "ids": _keep(SEARCH_HEADER)},
    left_out={"brief": "each result's snippet (a preview instead), meta and breakdown, and the answer's rejected, "
                       "query_trace, diagnostics, provenance and timing_ms (detail=full has them)",
              "ids": "each result's title, snippet, meta and breakdown, and the answer's rejected, query_trace, "
                     "diagnostics, provenance and timing_ms (detail=brief or full has them)"},
    long_keys=("snippet",),
    render=text.results_list,
    heavy_keys=("rejected", "query_trace", "diagnostics", "provenance"),
)

#: ``get_context``: the block (full), or its chunks' citations; items are the chunks included
CONTEXT_HEADER = ("query", "budget", "used_tokens", "dropped", "library")
CONTEXT = Shape(
    items_key="chunks",
    item_views={"full": _keep(("id", "citation", "text_sha256")),
                "brief": _keep(("id", "citation", "text_sha256", "preview")),
                "ids": _keep(("id", "citation", "text_sha256"))},
    header_views={"full": _same, "brief": _keep(CONTEXT_HEADER), "ids": _keep(CONTEXT_HEADER)},
    left_out={"brief": "the block's text (each chunk's citation and a preview instead; detail=full has it)",
              "ids": "the block's text (each chunk's id and citation instead; detail=full has it)"},
    long_keys=("preview",),
    render=text.context_text,
)

#: ``read_passage``: items are the verses
PASSAGE_HEADER = ("reference", "book_id", "chapter_num", "verse_start", "verse_end", "translation", "library")
PASSAGE = Shape(
    items_key="verses",
    item_views={"full": _same, "brief": _keep(("verse",), _preview_of("text")), "ids": _keep(("verse",))},
    header_views={"full": _same, "brief": _keep(PASSAGE_HEADER), "ids": _keep(PASSAGE_HEADER)},
    left_out={"brief": "each verse's text past its first 160 characters (detail=full has it)",
              "ids": "the verses' text (their numbers only; detail=full has it)"},
    long_keys=("text",),
    render=text.passage_text,
)

#: ``search_verses``: section 14's ``verses --json``; items are the results
VERSES_HEADER = ("query", "mode", "translation", "model", "warnings", "library")
VERSES = Shape(
    items_key="results",
    item_views={
        "full": _same,
        "brief": _keep(("rank", "reference", "book_id", "chapter_num", "verse_start", "verse_end", "score",
                        "text_sha256"), _preview_of("text")),
        "ids": _keep(("rank", "reference", "book_id", "chapter_num", "verse_start", "verse_end", "score",
                      "text_sha256")),
    },
    header_views={"full": _same, "brief": _keep(VERSES_HEADER), "ids": _keep(VERSES_HEADER)},
    left_out={"brief": "each result's full text, breakdown and verses, and the answer's query_trace and timing_ms "
                       "(detail=full has them)",
              "ids": "each result's text, breakdown and verses, and the answer's query_trace and timing_ms "
                     "(detail=brief or full has them)"},
    long_keys=("text", "verses"),
    render=text.verses_text,
    heavy_keys=("query_trace",),
)

#: ``cross_references``: section 16's ``xrefs --json``; items are the cross-references
XREFS_HEADER = ("verse", "sources", "available", "notice", "library")
XREFS = Shape(
    items_key="cross_references",
    item_views={"full": _same, "brief": _keep(("ref", "score", "sources"), _preview_of("text")),
                "ids": _keep(("ref", "score", "sources"))},
    header_views={"full": _same, "brief": _keep(XREFS_HEADER), "ids": _keep(XREFS_HEADER)},
    left_out={"brief": "each cross-reference's evidence and full text (detail=full has them)",
              "ids": "each cross-reference's text and evidence (detail=brief or full has them)"},
    long_keys=("text", "evidence"),
    render=text.xrefs_text,
)

#: ``strongs``: section 16's ``strongs --json`` with its entries, word studies and concordance as one list
STRONGS_HEADER = ("number", "language", "lemma", "translit", "book", "total", "books", "notice", "library")
STRONGS = Shape(
    items_key="items",
    item_views={"full": _same,
                 "brief": _keep(("kind", "chunk_id", "source_type", "title", "ref", "words", "text_sha256"),
                                _preview_of("text")),
                 "ids": _keep(("kind", "chunk_id", "title", "ref", "text_sha256"))},
    header_views={"full": _same, "brief": _keep(STRONGS_HEADER), "ids": _keep(("number", "language", "lemma",
                                                                              "total", "notice", "library"))},
    left_out={"brief": "each entry's, word study's and verse's full text and highlights (detail=full has them)",
              "ids": "the texts, and the counts per book (detail=brief or full has them)"},
    long_keys=("text",),
    render=text.strongs_text,
)

#: ``list_notes`` and ``add_note``: items are the workspace's notes
NOTES_HEADER = ("workspace", "embedded", "library")
NOTES = Shape(
    items_key="notes",
    item_views={"full": _same, "brief": _keep(("id", "ref", "label", "updated", "text_sha256"), _preview_of("text")),
                "ids": _keep(("id", "ref", "label", "text_sha256"))},
    header_views={"full": _same, "brief": _keep(NOTES_HEADER), "ids": _keep(NOTES_HEADER)},
    left_out={"brief": "each note's full text (a preview instead; detail=full has it)",
              "ids": "the notes' text (detail=brief or full has it)"},
    long_keys=("text",),
    render=text.notes_text,
)

SHAPES: dict[str, Shape] = {"search_library": SEARCH, "get_context": CONTEXT, "read_passage": PASSAGE,
                            "search_verses": VERSES, "cross_references": XREFS, "strongs": STRONGS,
                            "list_notes": NOTES, "add_note": NOTES}


def label_of(ref: dict[str, Any] | None) -> str | None:
    """A note's passage as a reader writes it (``Romans 9:11``), from its ``ref`` object."""
    if ref is None:
        return None
    from ..core.references import PassageRef

    return PassageRef(ref["book_id"], ref["chapter_num"], ref["verse_start"], ref["verse_end"]).label()

