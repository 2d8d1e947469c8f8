"""Four plain rankings of a library's verses, shared by the verse golden set's pooling and its baselines.

Each ranks single verses (ids ``book:chapter:verse``) for a question:

* ``dense`` — cosine of the question against each verse embedded alone (the project's local MiniLM);
* ``dense+neighbours`` — the same against each verse embedded with the verse before and after it in
  its chapter (a verse's meaning often lives in its sentence, which verse numbers cut);
* ``bm25`` — SQLite FTS5 over the verse text with the app's tokenizer (porter stemming, diacritics
  folded), the question's words without stop-words joined with OR, as the app's keyword search does;
  only verses holding one of the words are ranked;
* ``rrf`` — reciprocal-rank fusion (k 60) of ``dense`` and ``bm25``.

These are deliberately plain: the baselines a real verse search must beat, and the independent
rankings whose union is judged. The verses are read from the database's ``verses`` table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from amicus_desktop.core.books import BY_ID
from amicus_desktop.embedding.local import LocalMiniLMBackend
from amicus_desktop.store.fts import FTS_TOKENIZE
from amicus_desktop.understand.query import keywords

RRF_K = 60


@dataclass(frozen=True)
class Verse:
    id: str  # book:chapter:verse
    reference: str  # "Romans 8:28"
    text: str


def load_verses(db: Path) -> list[Verse]:
    """The database's verses in canonical order (book, chapter, verse)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = con.execute("SELECT book_id, chapter_num, verse_num, text FROM verses").fetchall()
    finally:
        con.close()
    rows.sort(key=lambda r: (BY_ID[r[0]].ordinal, r[1], r[2]))
    return [Verse(f"{b}:{c}:{v}", f"{BY_ID[b].name} {c}:{v}", t) for b, c, v, t in rows]


def with_neighbours(verses: list[Verse]) -> list[str]:
    """Each verse's text with the verse before and after it, when they are in the same chapter."""
    chapter = [v.id.rsplit(":", 1)[0] for v in verses]
    return [" ".join(verses[j].text for j in (i - 1, i, i + 1) if 0 <= j < len(verses) and chapter[j] == chapter[i])
            for i in range(len(verses))]


class VerseRankings:
    """The four rankings over one list of verses (embeds every verse twice on construction)."""

    NAMES = ("dense", "dense+neighbours", "bm25", "rrf")

    def __init__(self, verses: list[Verse]) -> None:
        self.verses = verses
        self.ids = [v.id for v in verses]
        self.model = LocalMiniLMBackend()
        self._alone = self.model.embed([v.text for v in verses])
        self._context = self.model.embed(with_neighbours(verses))
        self._fts = sqlite3.connect(":memory:")
        self._fts.execute(f"CREATE VIRTUAL TABLE verse_fts USING fts5(text, tokenize='{FTS_TOKENIZE}')")
        self._fts.executemany("INSERT INTO verse_fts(rowid, text) VALUES (?, ?)",
                              [(i, v.text) for i, v in enumerate(verses)])
        self._query_vectors: dict[str, np.ndarray] = {}

    def ranking(self, name: str) -> Callable[[str], list[str]]:
        return {"dense": self.dense, "dense+neighbours": self.dense_neighbours,
                "bm25": self.bm25, "rrf": self.rrf}[name]

    def _vector(self, question: str) -> np.ndarray:
        if question not in self._query_vectors:
            self._query_vectors[question] = self.model.embed([question])[0]
        return self._query_vectors[question]

    def _by_cosine(self, matrix: np.ndarray, question: str) -> list[str]:
        sims = matrix @ self._vector(question)
        order = sorted(range(len(self.ids)), key=lambda i: (-float(sims[i]), i))  # ties: canonical order
        return [self.ids[i] for i in order]

    def dense(self, question: str) -> list[str]:
        return self._by_cosine(self._alone, question)

    def dense_neighbours(self, question: str) -> list[str]:
        return self._by_cosine(self._context, question)

    def bm25(self, question: str) -> list[str]:
        words = keywords(question)
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        rows = self._fts.execute(
            "SELECT rowid FROM verse_fts WHERE verse_fts MATCH ? ORDER BY bm25(verse_fts), rowid", [match])
        return [self.ids[r[0]] for r in rows]

    def rrf(self, question: str) -> list[str]:
        score: dict[str, float] = {}
        for ranked in (self.dense(question), self.bm25(question)):
            for rank, vid in enumerate(ranked, start=1):
                score[vid] = score.get(vid, 0.0) + 1.0 / (RRF_K + rank)
        position = {vid: i for i, vid in enumerate(self.ids)}
        return sorted(score, key=lambda vid: (-score[vid], position[vid]))
