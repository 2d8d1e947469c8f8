"""Keyword search on PostgreSQL: FTS5's ``bm25()`` computed in SQL from the statistics tables of :mod:`.schema`.

The question's words are tokenized by SQLite's own FTS5 tokenizer (:data:`~amicus_desktop.store.fts.FTS_TOKENIZE`,
query mode), as the SQLite library's ``MATCH`` tokenizes them, so both backends look for the same terms. Each
word is one *phrase*, as in :func:`~amicus_desktop.store.fts.match_expression` (``"w1" OR "w2"``); a chunk
matches when it holds any phrase. Its score is FTS5's, term for term::

    idf(p)  = log((N - n(p) + 0.5) / (n(p) + 0.5)), at least 1e-6     N: chunks, n(p): chunks holding p
    bm25    = -Σ_p idf(p) · tf·(k1 + 1) / (tf + k1·(1 - b + b·D / avgdl))   k1 = 1.2, b = 0.75

with ``D`` the chunk's token count and ``avgdl`` the tokens per chunk (``fts_stats``); two words with one
stem are two phrases, counted twice, as FTS5 counts them. A word FTS5 splits into several tokens (rare: the
question's words are runs of letters and digits already) is held by a chunk holding all of them, its ``tf``
the least of theirs — FTS5 would ask for them in a row; positions are not kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import apsw

from ...core.query import Filters
from .. import fts
from .conditions import filter_condition

if TYPE_CHECKING:
    from .library import PgLibrary

K1 = 1.2
B = 0.75


class PgFullText:
    """The keyword index of one :class:`~.library.PgLibrary` (the :class:`~amicus_desktop.store.library.FullText`
    protocol; see the module docstring)."""

    where = "database"

    def __init__(self, store: PgLibrary) -> None:
        self._store = store
        self._tokenize = fts.tokenizer(apsw.Connection(":memory:"))
        ((rows, tokens),) = store.query("SELECT rows, tokens FROM fts_stats")
        self.total = int(rows)
        self._avgdl = float(tokens) / float(rows) if rows else 1.0
        self._doc_counts: dict[str, int] = {}

    # -- words --------------------------------------------------------------------------------
    def _tokens(self, word: str) -> list[str]:
        found = self._tokenize(word.encode("utf-8"), apsw.FTS5_TOKENIZE_QUERY, None,
                               include_offsets=False, include_colocated=False)
        return [t for t in found if isinstance(t, str)]

    def stem(self, word: str) -> str:
        tokens = self._tokens(word)
        return tokens[0] if tokens else word

    def _phrases(self, words: Sequence[str]) -> list[list[str]]:
        return [tokens for tokens in (self._tokens(w) for w in words) if tokens]

    def _hits(self, tokens: list[str]) -> int:
        """How many chunks hold every one of ``tokens``."""
        distinct = sorted(set(tokens))
        if len(distinct) == 1:
            found = self._store.query("SELECT docs FROM fts_terms WHERE term = %s", [distinct[0]])
            return int(found[0][0]) if found else 0
        ((count,),) = self._store.query(
            "SELECT count(*) FROM (SELECT rowid FROM fts_postings WHERE term = ANY(%s::text[]) GROUP BY rowid "
            "HAVING count(*) = %s) x", [distinct, len(distinct)])
        return int(count)

    def doc_count(self, word: str) -> int:
        """How many chunks hold ``word`` (its phrase, after stemming)."""
        if word not in self._doc_counts:
            tokens = self._tokens(word)
            self._doc_counts[word] = self._hits(tokens) if tokens else 0
        return self._doc_counts[word]

    def _idf(self, tokens: list[str]) -> float:
        n = self._hits(tokens)
        idf = math.log((self.total - n + 0.5) / (n + 0.5))
        return idf if idf > 0.0 else 1e-6

    # -- scores -----------------------------------------------------------------------------------
    def _scored(self, words: Sequence[str], where: str, params: list[object], n: int | None) -> list[tuple[int, float]]:
        phrases = self._phrases(words)
        if not phrases:
            return []
        index = [i for i, tokens in enumerate(phrases) for _ in sorted(set(tokens))]
        terms = [t for tokens in phrases for t in sorted(set(tokens))]
        sizes = [len(set(tokens)) for tokens in phrases]
        idfs = [self._idf(tokens) for tokens in phrases]
        joined = ("" if where in ("TRUE", "f.rowid = ANY(%s::bigint[])") else  # the filters' columns, when asked
                  " JOIN chunk_text t ON t.rowid = f.rowid LEFT JOIN chunk_metadata m ON m.rowid = f.rowid")
        sql = f"""
            WITH q AS (SELECT * FROM unnest(%s::int[], %s::text[]) AS q(i, term)),
                 ph AS (SELECT * FROM unnest(%s::int[], %s::int[], %s::float8[]) AS ph(i, size, idf)),
                 f AS (SELECT p.rowid, q.i, min(p.tf) AS tf, count(*) AS n
                       FROM q JOIN fts_postings p ON p.term = q.term GROUP BY p.rowid, q.i)
            SELECT f.rowid, -sum(ph.idf * ((f.tf * {K1 + 1.0!r}::float8)
                               / (f.tf + {K1!r} * (1 - {B!r} + {B!r} * d.tokens / %s::float8)))) AS s
            FROM f JOIN ph ON ph.i = f.i AND f.n = ph.size JOIN fts_docs d ON d.rowid = f.rowid{joined}
            WHERE {where}
            GROUP BY f.rowid ORDER BY s, f.rowid"""
        args: list[object] = [index, terms, list(range(len(phrases))), sizes, idfs, self._avgdl, *params]
        if n is not None:
            sql += " LIMIT %s"
            args.append(int(n))
        return [(int(r), float(s)) for r, s in self._store.query(sql, args)]

    def search(self, words: Sequence[str], n: int, filters: Filters = Filters()) -> list[tuple[int, float]]:
        """The ``n`` best chunks holding any of ``words`` that ``filters`` allow: ``(rowid, bm25)``, best first."""
        where, params = filter_condition(filters)
        return self._scored(words, where, params, n)

    def bm25_of(self, words: Sequence[str], rowids: Iterable[int]) -> list[tuple[int, float]]:
        """``(rowid, bm25)`` of those of ``rowids`` that hold any of ``words``."""
        ids = sorted({int(r) for r in rowids})
        return self._scored(words, "f.rowid = ANY(%s::bigint[])", [ids], None) if ids else []

    def terms(self, first: str, shortest: int, longest: int) -> dict[str, int]:
        rows = self._store.query(
            "SELECT term, docs FROM fts_terms WHERE term >= %s AND term < %s AND length(term) BETWEEN %s AND %s",
            [first, chr(ord(first) + 1), shortest, longest])
        return {str(t): int(d) for t, d in rows}

    def written_form(self, term: str) -> str | None:
        """A word as chunks write it whose stem is ``term`` ("justifi" → "justified")."""
        rows = self._store.query(
            "SELECT t.text FROM fts_postings p JOIN chunk_text t ON t.rowid = p.rowid WHERE p.term = %s "
            "ORDER BY p.rowid LIMIT 5", [term])
        for (text,) in rows:
            raw = str(text).encode("utf-8")
            for start, end, token in fts.token_spans(self._tokenize, raw):
                if token == term:
                    return raw[start:end].decode("utf-8", "replace").lower()
        return None
