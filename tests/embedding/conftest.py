"""Shared by the model tests (the fused graph, the int8 model): real texts, read once a session, and the default
model's vectors of them, embedded once a session.

Real texts: every fourth of the builder's own embedding texts for three short books (lexicon entries, word studies,
panels, cross-reference notes), every 200th whole-Bible verse (what the verse vectors embed) and the demo golden
set's questions (what a query embeds). Reading the whole Bible's text and embedding ≈ 450 texts takes minutes on
a busy machine: once, not once per test file.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.embedding.local import LocalMiniLMBackend

GOLDEN = Path(__file__).resolve().parents[2] / "resources" / "golden" / "demo.json"


@pytest.fixture(scope="session")
def real_texts() -> dict[str, list[str]]:
    from amicus_desktop.corpus.build import collect_chunks, embedding_text
    from amicus_desktop.corpus.library import Library
    from amicus_desktop.corpus.sources.common import BibleText, Scope

    library = Library()
    whole = BibleText.whole(library)
    _, records = collect_chunks(Scope.of(["jude", "philemon", "titus"]), library, whole=whole)
    chunks = [embedding_text(r, whole.verses) for r in records[::4]]
    verses = list(whole.verses.values())[::200]
    queries = [q["query"] for q in json.loads(GOLDEN.read_text(encoding="utf-8"))["queries"]]
    assert len(chunks) > 250 and len(verses) > 150 and len(queries) > 20
    return {"chunks": chunks, "verses": verses, "queries": queries}


@pytest.fixture(scope="session")
def default_vectors(local_model: LocalMiniLMBackend, real_texts: dict[str, list[str]]) -> dict[str, np.ndarray]:
    """Per kind of text, the default model's vectors (the fused graph)."""
    assert local_model.graph in ("", "fused") and local_model.fused
    return {kind: local_model.embed(texts) for kind, texts in real_texts.items()}
