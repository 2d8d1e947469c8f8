"""``amicus-desktop query --replay TRACE.json``: ask a recorded question again and say what changed.

A trace is an answer kept as JSON: ``query --json``'s bundle, a ``GET /retrieve`` body, or the structured
content of the MCP tool ``search_library`` (whose ``library`` names the library's content id). The question is
asked again through the same request model as ``query`` and the service (the service's parameters: ``q``,
``mode``, ``k``, the filters, pins and candidates the trace records), on ``--db``, and the two rankings are
compared item by item: the chunks that moved, came in or went out, the scores that changed, and whether the
library (its content id, :func:`amicus_desktop.store.content_id.library_id`) or the model differ.

Exit 0: reproduced (the same chunks in the same order with the same scores); 3: the ranking changed (what
changed is printed); 1 a contract error or a trace that cannot be read; 2 bad flags.
"""

from __future__ import annotations

import asyncio
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import AmicusError
from ..knobs import BY_PARAM
from ..retrieval import Retriever, validate_query
from ..retrieval.request import RequestError, SearchRequest
from ..store.content_id import library_id
from .common import connection_from_args

CHANGED = 3
#: scores closer than this are the same score (they are computed the same way; JSON keeps 17 digits)
SAME_SCORE = 1e-9


@dataclass(frozen=True)
class Trace:
    """What a recorded answer says about its question and its ranking."""

    query: str
    pairs: list[tuple[str, str]]
    ranking: list[tuple[str, float]]
    model: str | None
    library: str | None
    overlay: str | None
    partial: bool = False


@dataclass
class Comparison:
    trace: Trace
    ranking: list[tuple[str, float]]
    model: str
    library: str
    moved: list[dict[str, Any]] = field(default_factory=list)
    new: list[dict[str, Any]] = field(default_factory=list)
    gone: list[dict[str, Any]] = field(default_factory=list)
    rescored: list[dict[str, Any]] = field(default_factory=list)

    @property
    def reproduced(self) -> bool:
        return not (self.moved or self.new or self.gone or self.rescored)

    def to_json(self) -> dict[str, Any]:
        return {"reproduced": self.reproduced, "query": self.trace.query,
                "library": {"trace": self.trace.library, "now": self.library},
                "model": {"trace": self.trace.model, "now": self.model},
                "overlay": self.trace.overlay, "results": len(self.ranking),
                "moved": self.moved, "new": self.new, "gone": self.gone, "rescored": self.rescored}


def read_trace(path: Path) -> Trace:
    """The question and ranking a trace file records (``ValueError`` saying why it is not one)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} cannot be read as JSON ({exc})") from None
    if not isinstance(data, dict) or not isinstance(data.get("query"), str) or not isinstance(
            data.get("results"), list):
        raise ValueError(f"{path} is not an answer: it needs the question (query) and its results")
    trace = data.get("query_trace") or {}
    filters = data.get("filters") or trace.get("filters") or {}
    pairs: list[tuple[str, str]] = [("mode", str(data.get("mode") or trace.get("mode") or "semantic"))]
    ranking = [(str(r.get("id") or r.get("chunk_id")), float(r["score"])) for r in data["results"]]
    page = data.get("page") or {}
    k = data.get("k") or max(len(ranking), 1)
    pairs.append(("k", str(k)))
    for kind, values in filters.items():
        pairs += [(f"filter.{kind}", str(v)) for v in values or ()]
    pairs += [("pin", str(p)) for p in trace.get("pins") or ()]
    if trace.get("candidates_requested"):
        pairs.append(("candidates", str(trace["candidates_requested"])))
    library = data.get("library") or {}
    model = (data.get("model") or {}).get("id")
    return Trace(data["query"], pairs, ranking, model, library.get("id"), trace.get("overlay"),
                 partial=bool(page) and (page.get("offset", 0) > 0 or page.get("count", 0) < page.get("total", 0)))


def compare(trace: Trace, ranking: list[tuple[str, float]], model: str, library: str) -> Comparison:
    """What differs between the trace's ranking and ``ranking`` (a page of a trace: its items only)."""
    out = Comparison(trace, ranking, model, library)
    if trace.partial:
        ranking = ranking[: len(trace.ranking)]
    before = {cid: (rank, score) for rank, (cid, score) in enumerate(trace.ranking, start=1)}
    now = {cid: (rank, score) for rank, (cid, score) in enumerate(ranking, start=1)}
    for cid, (rank, score) in now.items():
        if cid not in before:
            out.new.append({"id": cid, "rank": rank, "score": score})
            continue
        was_rank, was_score = before[cid]
        if was_rank != rank:
            out.moved.append({"id": cid, "from": was_rank, "to": rank})
        if abs(was_score - score) > SAME_SCORE:
            out.rescored.append({"id": cid, "from": was_score, "to": score})
    out.gone = [{"id": cid, "rank": rank} for cid, (rank, _) in before.items() if cid not in now]
    return out


async def ask_again(trace: Trace, db: Path, proxy: str, token: str | None) -> tuple[list[tuple[str, float]], str, str]:
    """The trace's question asked again on ``db``: its ranking, the model and the library's content id."""
    validate_query(trace.query)
    unknown = [name for name, _ in trace.pairs if name not in BY_PARAM]
    if unknown:
        raise RequestError(f"the trace names parameters no search takes: {', '.join(sorted(set(unknown)))}")
    request = SearchRequest.from_pairs(trace.query, [(BY_PARAM[name], value) for name, value in trace.pairs])
    request.check()
    retriever = Retriever(db, proxy, token)
    try:
        await retriever.open()
        book_ids, lib = await retriever.run_db(lambda store: (store.book_ids(), library_id(store)))
        result = await retriever.retrieve(request.context(book_ids))
        return [(r.candidate.chunk_id, r.score) for r in result.results], result.model.id, lib
    finally:
        await retriever.aclose()


def format_comparison(c: Comparison) -> str:
    lines = [f"Replayed: {c.trace.query}"]
    for what, was, now in (("library", c.trace.library, c.library), ("model", c.trace.model, c.model)):
        if was is None:
            lines.append(f"{what}: {now} (the trace does not name one)")
        else:
            lines.append(f"{what}: {now}" + (" (the same)" if was == now else f" (changed: the trace's was {was})"))
    if c.trace.overlay:
        lines.append(f"note: the trace was made under the overlay {c.trace.overlay!r}; it was asked again without it")
    if c.reproduced:
        lines.append(f"reproduced: the same {len(c.trace.ranking)} results in the same order with the same scores")
        return "\n".join(lines)
    lines.append("changed:")
    lines += [f"  moved    {m['id']}: rank {m['from']} → {m['to']}" for m in c.moved]
    lines += [f"  new      {n['id']} at rank {n['rank']} (score {n['score']:.4f})" for n in c.new]
    lines += [f"  gone     {g['id']} (was rank {g['rank']})" for g in c.gone]
    lines += [f"  rescored {s['id']}: {s['from']:.6f} → {s['to']:.6f}" for s in c.rescored]
    return "\n".join(lines)


def run_replay(args: Any) -> int:
    try:
        trace = read_trace(args.replay)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    db, proxy, token = connection_from_args(args)
    try:
        ranking, model, lib = asyncio.run(ask_again(trace, db, proxy, token))
    except AmicusError as err:
        print(f"error: {err.code}: {err.message}", file=sys.stderr)
        return 1
    except RequestError as err:
        print(f"error: BAD_REQUEST: {err.named(lambda knob: knob.param)}", file=sys.stderr)
        return 1
    comparison = compare(trace, ranking, model, lib)
    print(json.dumps(comparison.to_json(), ensure_ascii=False) if args.json else format_comparison(comparison))
    return 0 if comparison.reproduced else CHANGED
