"""Real retrieval results for the export tests: keyword search over the axis corpus (no proxy needed)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from amicus_desktop.core.names import Names
from amicus_desktop.core.query import RetrievalContext, SearchMode
from amicus_desktop.core.results import RetrievalResult
from amicus_desktop.retrieval import Retriever
from tests.support.corpora import corpus
from tests.support.dbs import build_db
from tests.support.proxy import free_port


def keyword_result(tmp: Path, query: str = "grace faith justified God", k: int = 3) -> tuple[RetrievalResult, Names]:
    """A keyword retrieval on a freshly built corpus database: results, rejected candidates and all."""
    db = build_db(tmp / "scripture.db", corpus())

    async def go() -> tuple[RetrievalResult, Names]:
        r = Retriever(db, f"http://127.0.0.1:{free_port()}")
        try:
            result = await r.retrieve(RetrievalContext(query, k=k, mode=SearchMode.KEYWORD))
            return result, await r.run_db(lambda store: store.names())
        finally:
            await r.aclose()

    return asyncio.run(go())
