"""Candidate signals for verse search, each a (queries × verses) score matrix. Exploration only."""

from __future__ import annotations

import math
import re
import sqlite3
from collections import Counter

import numpy as np
from data import Data

from amicus_desktop.store.fts import FTS_TOKENIZE
from amicus_desktop.understand.query import keywords

K1 = 1.2


def dense(d: Data) -> np.ndarray:
    return d.Q @ d.V.T


class Lexical:
    """FTS5 BM25 over one text per verse, normalised as the app normalises chunk BM25."""

    def __init__(self, docs: list[str]) -> None:
        self.n = len(docs)
        self.con = sqlite3.connect(":memory:")
        self.con.execute(f"CREATE VIRTUAL TABLE f USING fts5(text, tokenize='{FTS_TOKENIZE}')")
        self.con.executemany("INSERT INTO f(rowid, text) VALUES (?, ?)", list(enumerate(docs)))
        self._df: dict[str, int] = {}

    @staticmethod
    def _q(w: str) -> str:
        return '"' + w.replace('"', '""') + '"'

    def df(self, w: str) -> int:
        if w not in self._df:
            self._df[w] = self.con.execute("SELECT count(*) FROM f WHERE f MATCH ?", [self._q(w)]).fetchone()[0]
        return self._df[w]

    def scores(self, question: str) -> np.ndarray:
        out = np.zeros(self.n, dtype=np.float32)
        words = keywords(question)
        known = [w for w in dict.fromkeys(words) if self.df(w) > 0]
        if not known:
            return out
        norm = sum(max(1e-6, math.log((self.n - self.df(w) + 0.5) / (self.df(w) + 0.5))) * (K1 + 1) for w in known)
        for r, s in self.con.execute("SELECT rowid, bm25(f) FROM f WHERE f MATCH ?",
                                     [" OR ".join(self._q(w) for w in known)]):
            out[r] = min(1.0, -s / norm)
        return out

    def matrix(self, d: Data) -> np.ndarray:
        return np.vstack([self.scores(q["query"]) for q in d.queries])


def coverage(d: Data, keep) -> tuple[list[int], list[list[int]]]:
    """Chunks kept by ``keep`` and, for each, the verse indices it covers (in this library)."""
    index = d.index
    chapters: dict[tuple[str, int], list[int]] = {}
    for i, vid in enumerate(d.ids):
        b, c, _ = vid.split(":")
        chapters.setdefault((b, int(c)), []).append(i)
    rows, cover = [], []
    for ci, c in enumerate(d.chunks):
        if not keep(c) or c.book is None or c.chapter is None:
            continue
        if c.vs is None:
            idx = chapters.get((c.book, c.chapter), [])
        else:
            idx = [index[f"{c.book}:{c.chapter}:{v}"] for v in range(c.vs, (c.ve or c.vs) + 1)
                   if f"{c.book}:{c.chapter}:{v}" in index]
        if idx:
            rows.append(ci)
            cover.append(idx)
    return rows, cover


def propagate(sims: np.ndarray, rows: list[int], cover: list[list[int]], n: int, how: str = "max",
              span_power: float = 0.0) -> np.ndarray:
    """Verse scores from chunk similarities: each covered verse gets the chunk's similarity, divided
    by span**span_power, and a verse keeps the max (or the sum) over the chunks covering it."""
    out = np.zeros((sims.shape[0], n), dtype=np.float32)
    for r, idx in zip(rows, cover, strict=True):
        s = sims[:, r] / (len(idx) ** span_power)
        if how == "max":
            out[:, idx] = np.maximum(out[:, idx], s[:, None])
        else:
            out[:, idx] += s[:, None]
    return out


def commentary(d: Data, scholars=("matthew-henry", "c-i-scofield"), types=("section_panel",),
               how="max", span_power=0.0) -> np.ndarray:
    rows, cover = coverage(d, lambda c: c.source_type in types and c.scholar in scholars)
    sims = d.Q @ d.C[rows].T
    return propagate(sims, list(range(len(rows))), cover, len(d.ids), how, span_power)


def lexicon(d: Data, prefix=("strongs:",), idf_power=0.0, top=None) -> np.ndarray:
    """Verse score = max over its Strong's numbers of sim(question, that number's lexicon entry) × idf^p."""
    entry = {}
    for ci, c in enumerate(d.chunks):
        if c.source_type == "lexicon_entry" and c.chunk_id.startswith(prefix):
            entry.setdefault(c.chunk_id.split(":", 1)[1], []).append(ci)
    dfc = Counter(n for nums in d.strongs for n in set(nums))
    N = len(d.ids)
    nums = sorted(entry)
    col = {n: i for i, n in enumerate(nums)}
    sims = np.full((d.Q.shape[0], len(nums)), 0.0, dtype=np.float32)
    for n in nums:
        sims[:, col[n]] = (d.Q @ d.C[entry[n]].T).max(axis=1)
    if idf_power:
        idf = np.array([math.log(N / dfc.get(n, 1)) for n in nums], dtype=np.float32)
        sims = sims * (idf / idf.max()) ** idf_power
    if top:
        thr = np.sort(sims, axis=1)[:, -top][:, None]
        sims = np.where(sims >= thr, sims, 0.0)
    out = np.zeros((d.Q.shape[0], N), dtype=np.float32)
    for vi, vn in enumerate(d.strongs):
        cols = [col[n] for n in vn if n in col]
        if cols:
            out[:, vi] = sims[:, cols].max(axis=1)
    return out


def chains(d: Data) -> np.ndarray:
    """Scofield chain notes: question ~ note → the verses of this library the note lists."""
    index = d.index
    rows, cover = [], []
    for ci, c in enumerate(d.chunks):
        if c.source_type != "cross_ref_thread_note" or c.scholar != "c-i-scofield" or not c.book:
            continue
        m = re.search(r"notes that send the reader here: ([^\n]*)", c.text)
        if not m:
            continue
        idx = []
        for cv in re.findall(r"(\d+):(\d+)", m.group(1)):
            vid = f"{c.book}:{cv[0]}:{cv[1]}"
            if vid in index:
                idx.append(index[vid])
        if idx:
            rows.append(ci)
            cover.append(idx)
    sims = d.Q @ d.C[rows].T
    return propagate(sims, list(range(len(rows))), cover, len(d.ids))


def neighbours(d: Data, s: np.ndarray, beta: float, how: str = "max") -> np.ndarray:
    """s(v) + beta × (max or mean of s at v-1, v+1 in the same chapter)."""
    chap = [vid.rsplit(":", 1)[0] for vid in d.ids]
    n = len(d.ids)
    prev = np.array([i - 1 if i > 0 and chap[i - 1] == chap[i] else i for i in range(n)])
    nxt = np.array([i + 1 if i + 1 < n and chap[i + 1] == chap[i] else i for i in range(n)])
    a, b = s[:, prev], s[:, nxt]
    nb = np.maximum(a, b) if how == "max" else (a + b) / 2
    return s + beta * nb


def glosses(d: Data, lex_text: dict[str, str]) -> list[str]:
    """Each verse's text followed by the glosses of its Strong's words."""
    return [t + " " + " ".join(lex_text.get(n, "") for n in nums) for t, nums in zip(d.texts, d.strongs, strict=True)]


def commentary_cover(d: Data) -> tuple[list[int], list[list[int]]]:
    """The Henry and Scofield section notes and the verses each covers."""
    return coverage(d, lambda c: c.source_type == "section_panel" and c.scholar in ("matthew-henry", "c-i-scofield"))
