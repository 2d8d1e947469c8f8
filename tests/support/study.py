"""A small real study library for tests: real chunks from the SWORD modules, real local-model vectors.

Romans 3, 5 and 9 — Matthew Henry, Scofield, Nave's, word studies and the Strong's entries they use —
plus the app's FAQ: about 150 chunks, embedded in-process by the same local model the real proxy
serves (so ``embedding_model`` matches a :class:`~tests.support.proxy.ProxyProcess`). Built once per
session by the fixtures that use it: a full-schema file (vec0 metadata columns, books, verses, the
builder's keyword index) and a minimal-schema twin with the same chunks and vectors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from amicus_desktop.store.writer import ChunkRecord, ScriptureWriter

CHAPTERS = (3, 5, 9)


@cache
def study_records() -> tuple[tuple[ChunkRecord, ...], tuple[tuple[str, int, int, str], ...]]:
    """The chosen chunk records and the WEB verses of the chosen chapters (read once per process)."""
    from amicus_desktop.corpus.build import collect_chunks
    from amicus_desktop.corpus.sources.common import Scope

    bible, records = collect_chunks(Scope.of(["romans"]))
    chosen = [r for r in records if r.metadata.book_id == "romans" and r.metadata.chapter_num in CHAPTERS]
    numbers = {r.source_id.split(":")[0] for r in records if r.source_type == "word_study"}
    studies = [r for r in records if r.source_type == "word_study"][:40]
    used = {r.source_id.split(":")[0] for r in studies}
    lexicon = [r for r in records if r.source_type == "lexicon_entry" and r.source_id in (used or numbers)]
    faq = [r for r in records if r.source_type == "meta_faq"]
    chosen_ids = {r.chunk_id for r in chosen}
    out = chosen + [r for r in studies + lexicon + faq if r.chunk_id not in chosen_ids]
    verses = tuple(
        ("romans", chapter, verse, text)
        for (book, chapter, verse), text in sorted(bible.verses.items())
        if book == "romans" and chapter in CHAPTERS
    )
    return tuple(out), verses


def build_study_db(
    path: Path, embed: Callable[[list[str]], Any], model_id: str, dims: int, *, full_schema: bool = True
) -> Path:
    """Write the study library to ``path`` with vectors from ``embed(texts) -> ndarray``."""
    records, verses = study_records()
    vectors = np.asarray(embed([r.text for r in records]), dtype=np.float32)
    return write_study_db(path, records, vectors, model_id, dims, verses, full_schema=full_schema)


def write_study_db(
    path: Path,
    records: Sequence[ChunkRecord],
    vectors: np.ndarray,
    model_id: str,
    dims: int,
    verses: Sequence[tuple[str, int, int, str]],
    *,
    full_schema: bool,
) -> Path:
    with ScriptureWriter(path, model_id=model_id, dims=dims, full_schema=full_schema, corpus_name="study") as w:
        if full_schema:
            w.add_books([("romans", "Romans", 45, 16)])
            w.add_verses(verses)
        w.add_chunks(list(records), vectors)
    return path
