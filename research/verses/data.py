"""Exploration data for verse search: everything a candidate signal needs, loaded once and cached.

    .venv/bin/python research/verses/explore.py --db DEMO.db

Not part of the app: the numbers it prints chose the signals the engine keeps (docs/RELEVANCE.md).
"""

from __future__ import annotations

import hashlib
import json
import pickle
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from amicus_desktop.core.books import BY_ID
from amicus_desktop.corpus.library import Library
from amicus_desktop.corpus.sources.common import BibleText
from amicus_desktop.embedding.local import LocalMiniLMBackend
from amicus_desktop.store.scripture import ScriptureStore


@dataclass
class Chunk:
    rowid: int
    chunk_id: str
    source_type: str
    scholar: str | None
    book: str | None
    chapter: int | None
    vs: int | None
    ve: int | None
    text: str


@dataclass
class Data:
    ids: list[str]                      # book:chapter:verse, canonical order
    texts: list[str]
    V: np.ndarray                       # verse vectors (alone)
    strongs: list[list[str]]            # per verse, Strong's numbers in order
    chunks: list[Chunk]
    C: np.ndarray                       # chunk vectors, row i = chunks[i]
    queries: list[dict]                 # golden queries
    Q: np.ndarray                       # query vectors
    extra: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def index(self) -> dict[str, int]:
        return {v: i for i, v in enumerate(self.ids)}


def _embed(model: LocalMiniLMBackend, texts: list[str]) -> np.ndarray:
    out = [model.embed(texts[i:i + 64]) for i in range(0, len(texts), 64)]
    return np.vstack(out).astype(np.float32)


def load(db: Path, golden: Path, cache: Path) -> Data:
    key = hashlib.sha1(f"{db.resolve()}|{db.stat().st_mtime_ns}|{golden.stat().st_mtime_ns}".encode()).hexdigest()[:12]
    path = cache / f"data-{key}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    store = ScriptureStore(db)
    rows = store.rows("SELECT book_id, chapter_num, verse_num, text FROM verses")
    rows.sort(key=lambda r: (BY_ID[r[0]].ordinal, r[1], r[2]))
    ids = [f"{b}:{c}:{v}" for b, c, v, _ in rows]
    texts = [str(t) for *_, t in rows]
    books = sorted({r[0] for r in rows}, key=lambda b: BY_ID[b].ordinal)
    bible = BibleText.load(Library(), [BY_ID[b] for b in books])
    strongs = []
    for b, c, v, _ in rows:
        nums: list[str] = []
        for tok in bible.tokens.get((b, c, v), []):
            nums.extend(n for n in tok.strongs if n not in nums)
        strongs.append(nums)
    crow = store.rows(
        """SELECT t.rowid, t.chunk_id, t.source_type, m.scholar_id, m.book_id, m.chapter_num, m.verse_start,
                  m.verse_end, t.text FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid ORDER BY t.rowid""")
    chunks = [Chunk(*r) for r in crow]
    vecs = dict(store.rows("SELECT rowid, embedding FROM embeddings"))
    C = np.vstack([np.frombuffer(vecs[c.rowid], dtype="<f4") for c in chunks]).astype(np.float32)
    queries = json.loads(golden.read_text())["queries"]
    model = LocalMiniLMBackend()
    V = _embed(model, texts)
    Q = _embed(model, [q["query"] for q in queries])
    data = Data(ids, texts, V, strongs, chunks, C, queries, Q)
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(data))
    return data


def split(queries: list[dict]) -> tuple[list[int], list[int]]:
    """A fixed half/half split per kind: by a hash of the id (train, held-out)."""
    train, test = [], []
    for kind in ("topic", "question", "paraphrase"):
        idx = [i for i, q in enumerate(queries) if q["kind"] == kind]
        idx.sort(key=lambda i: hashlib.sha1(queries[i]["id"].encode()).hexdigest())
        half = len(idx) // 2
        train += idx[:half]
        test += idx[half:]
    return sorted(train), sorted(test)
