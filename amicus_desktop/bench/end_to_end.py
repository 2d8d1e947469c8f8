"""``Retriever.retrieve`` measured end to end through an embed proxy over loopback HTTP: the exact way and
the two-stage way alternating, and the workbench's what-if re-rank after each answer (no Qt).
"""

from __future__ import annotations

import asyncio
import sys
import time
from functools import partial
from pathlib import Path
from typing import Any

import httpx

from ..core.books import BOOKS
from ..core.query import RetrievalContext
from ..core.references import ChapterRef
from ..embedding.client import EmbedClient, Embedding
from ..retrieval.pipeline import Retriever, rerank_result
from ..store.scripture import ScriptureStore
from ..store.twostage import TwoStageIndex
from ..store.writer import set_meta
from . import synth
from .measuring import FILTER_BOOK, PROFILE, WARMUP, WHAT_IF, K, ms_since, stats
from .processes import start_server, stop_server


def query_texts(count: int, tag: str) -> list[str]:
    """Distinct question texts, so every retrieval misses the embed client's vector cache."""
    words = synth.WORDS[:96]
    books = [b.book_id for b in BOOKS]
    return [
        f"What does {books[i % len(books)].replace('-', ' ')} {1 + i % 7} teach about "
        f"{words[i % len(words)]} and {words[(i * 7 + 3) % len(words)]}? ({tag} {i})"
        for i in range(count)
    ]


class _CountingClient(EmbedClient):
    """The app's embed client, counting the questions it had to send to the proxy (cache misses)."""

    sent = 0

    async def embed(self, text: str) -> Embedding:
        embedding = await super().embed(text)
        self.sent += not embedding.cached
        return embedding


async def end_to_end(db: Path, url: str, texts: list[str], chapter: ChapterRef) -> dict[str, Any]:
    """``Retriever.retrieve`` end to end, the exact way and the two-stage way alternating.

    Two retrievers over the same file: one searches with the two-stage mode ``off``, the other
    with ``on`` (the dense search then uses the two-stage index when the file has the tables).
    Question ``2i`` goes the exact way, ``2i + 1`` the two-stage way, so both see the same machine
    load; every text is distinct, so every retrieval embeds over HTTP.
    """
    ways = {"exact": "off", "two_stage": "on"}
    retrievers: dict[str, Retriever] = {}
    clients: list[_CountingClient] = []
    samples: dict[str, dict[str, list[float]]] = {
        way: {"total": [], "embed": [], "search": [], "rerank": [], "wall": [], "whatif": []} for way in ways
    }
    try:
        for way, mode in ways.items():
            clients.append(_CountingClient(url))
            retrievers[way] = Retriever(db, url, embed_client=clients[-1], two_stage=mode)
            used = await retrievers[way].run_db(partial(_uses_two_stage, mode=mode))
            if way == "two_stage" and not used:
                del samples[way]  # the file has no tables: only the exact way is measured
        for i, text in enumerate(texts):
            way = "two_stage" if i % 2 and "two_stage" in samples else "exact"
            ctx = RetrievalContext(query=text, profile=PROFILE, chapter=chapter, k=10, candidates=K)
            t0 = time.perf_counter()
            result = await retrievers[way].retrieve(ctx)
            t = result.timings
            w = ms_since(t0)
            # The workbench's what-if: re-rank the kept candidates for new weights (no embed, no search).
            t0 = time.perf_counter()
            rerank_result(result, ctx.replace(weights=WHAT_IF[i % 2]))
            whatif = ms_since(t0)
            if i < 2 * WARMUP:
                continue
            for name, value in (("total", t.total), ("embed", t.embed), ("search", t.search),
                                ("rerank", t.rerank), ("wall", w), ("whatif", whatif)):
                samples[way][name].append(value)
        calls = sum(c.sent for c in clients)
    finally:
        for r in retrievers.values():
            await r.aclose()
    out: dict[str, Any] = {"http_embed_calls": calls, "retrievals": len(texts)}
    for way, by_name in samples.items():
        if by_name["total"]:
            out[way] = {name: stats(values) for name, values in by_name.items()}
    return out


def _uses_two_stage(store: ScriptureStore, mode: str) -> bool:
    return TwoStageIndex.for_store(store, mode) is not None


def end_to_end_real_proxy(path: Path, dims: int, queries: int, seed: int) -> dict[str, Any]:
    if dims != 384:
        return {"skipped": "the local model makes 384-dim vectors"}
    try:
        proc, url = start_server(
            [sys.executable, "-m", "amicus_desktop", "proxy", "--port", "0"], "listening on ", timeout=120
        )
    except (RuntimeError, OSError) as exc:
        return {"skipped": f"the real proxy did not start ({exc})"}
    try:
        health = httpx.get(f"{url}/health", timeout=30, trust_env=False).json()
        if int(health["dims"]) != dims:
            return {"skipped": f"the real proxy serves {health['dims']} dims"}
        old = set_meta(path, "embedding_model", str(health["model"]))  # the bench's own copy
        try:
            texts = query_texts(2 * (queries + WARMUP), f"real-{seed}")
            result = asyncio.run(end_to_end(path, url, texts, ChapterRef(FILTER_BOOK, 9)))
        finally:
            set_meta(path, "embedding_model", str(old))
        result["model"] = str(health["model"])
        return result
    finally:
        stop_server(proc)
