"""How verse search scores words and phrases, the same over scripture.db's verse index (:mod:`.verses`) and over
its export in PostgreSQL (:mod:`.pg.verses`): the most a verse can score for a question's words (what its BM25 is
divided by), and each verse's share of the weight of the question's word pairs it holds as phrases.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence

#: FTS5's bm25() k1 (its default), for the normalised keyword score (as for chunks).
K1 = 1.2


def best_score(doc_count: Callable[[str], int], total: int, words: Sequence[str]) -> float:
    """The most a verse of ``total`` could score for ``words``: ``Σ idf × (k1 + 1)`` over the words the index knows
    (``doc_count(word)`` verses hold it, at least one) — what a verse's BM25 is divided by."""
    out = 0.0
    for w in dict.fromkeys(words):
        n = doc_count(w)
        if n:
            out += max(1e-6, math.log((total - n + 0.5) / (n + 0.5))) * (K1 + 1)
    return out


def phrase_shares(found: Sequence[tuple[float, Sequence[int]]]) -> dict[int, float]:
    """Each verse's share of the pairs' weight, from each pair's ``(weight, the verses holding it as a phrase)``."""
    norm = sum(w for w, _ in found)
    out: defaultdict[int, float] = defaultdict(float)
    for weight, rows in found:
        for r in rows:
            out[r] += weight / norm
    return dict(out)
