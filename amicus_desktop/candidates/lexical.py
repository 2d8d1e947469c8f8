"""Keyword candidates: FTS5 BM25 over chunk text, with a normalised score and spelling suggestions.

The index itself — the database's ``chunk_fts`` when it can be trusted, else the app's own in the
cache folder or in memory — and its queries are the store's (:mod:`amicus_desktop.store.keyword`);
this module decides what to ask it and what the answers mean.

**The lexical score.** FTS5's ``bm25()`` is unbounded and depends on the question's length, so it is
normalised by the most a chunk could score for these words: ``Σ idf(t) × (k1 + 1)`` over the
question's words that the index knows (FTS5's ``k1`` is 1.2; ``idf`` as FTS5 computes it). The result,
in [0, 1], reads as "how much of the question's (rarity-weighted) words this chunk holds, and how
densely"; it does not depend on which other chunks matched, so it can be fused with a cosine
similarity and compared against a floor.
"""

from __future__ import annotations

import difflib
import math
import weakref
from collections import defaultdict
from collections.abc import Mapping, Sequence

from ..core.query import Filters
from ..store.library import FullText, LibraryStore
from ..understand.spelling import MIN_KEY, sound_key

#: FTS5's bm25() constants (its defaults; we do not pass others).
K1 = 1.2
#: a word held by at most this many chunks is rare enough (a name, a transliteration) to be looked for in its other
#: spellings too, in a library without the Bible's text (:func:`rare_words`); a common word's sound-alikes are other
#: words ("seal", "zeal")
RARE_CHUNKS = 100
#: how alike (difflib's ratio) two spellings of one word look at least: "hese"/"chese" 0.89, "melchizedek"/
#: "melchisedec" 0.82; "mari"/"marri" (Mary, married) 0.67 are two words
SPELLING_RATIO = 0.8
#: the letters a word's key (:func:`~amicus_desktop.understand.spelling.sound_key`) may start with, by the letters
#: its spellings may start with ("hesed" is spelt "chesed" too)
_FIRST_LETTERS = {"h": "hck", "k": "kcq", "s": "szt", "f": "fp", "i": "iy"}
#: a word and its other spellings in the index (:meth:`KeywordIndex.variants`)
Variants = Mapping[str, Sequence[str]]
#: per index, per first letter: its terms by sound key (the final *e* the stemmer keeps or drops aside), read once
_BY_KEY: weakref.WeakKeyDictionary[FullText, dict[str, dict[str, tuple[str, ...]]]] = weakref.WeakKeyDictionary()
#: the longest term read for it
_LONGEST = 64


class KeywordIndex:
    """Full-text search over one store's chunks, scored in [0, 1] (on the store's thread)."""

    def __init__(self, index: FullText) -> None:
        self._index = index

    @classmethod
    def for_store(cls, store: LibraryStore) -> KeywordIndex:
        """The store's index, found or built on first use (runs on the store's thread)."""
        return cls(store.full_text)

    @property
    def where(self) -> str:
        """``database``, ``cache`` or ``memory``: where the index lives (shown by ``doctor``/diagnostics)."""
        return self._index.where

    # -- searching ----------------------------------------------------------------------------
    def search(self, words: Sequence[str], n: int, filters: Filters = Filters(),
               variants: Variants | None = None) -> list[tuple[int, float]]:
        """The ``n`` best chunks holding any of ``words`` (or of their ``variants``, :meth:`variants`) that
        ``filters`` allow: ``(rowid, lexical)``, best first."""
        norm = self.normaliser(words, variants)
        if not words or norm == 0.0:
            return []
        return [(r, _clip(-s / norm)) for r, s in self._index.search(_spelt(words, variants), n, filters)]

    def scores(self, words: Sequence[str], rowids: Sequence[int],
               variants: Variants | None = None) -> dict[int, float]:
        """The lexical score of each of ``rowids`` (0.0 for a chunk holding none of ``words`` or their ``variants``)."""
        out = dict.fromkeys((int(r) for r in rowids), 0.0)
        norm = self.normaliser(words, variants)
        if not words or not out or norm == 0.0:
            return out
        for r, s in self._index.bm25_of(_spelt(words, variants), out):
            out[r] = _clip(-s / norm)
        return out

    def best_among(self, words: Sequence[str], rowids: Sequence[int], n: int,
                   variants: Variants | None = None) -> list[tuple[int, float]]:
        """The ``n`` best of ``rowids`` by lexical score (ties, and chunks without the words, by rowid)."""
        scored = self.scores(words, rowids, variants)
        return sorted(scored.items(), key=lambda item: (-item[1], item[0]))[:n]

    def variants(self, words: Sequence[str]) -> dict[str, tuple[str, ...]]:
        """The other spellings the index holds of each of ``words`` — rare words only (a name, a transliteration:
        the caller chooses them, :func:`amicus_desktop.candidates.quoted.rare_words`; a common word's sound-alikes
        are other words): the index's words with the same
        :func:`~amicus_desktop.understand.spelling.sound_key` that look alike (:data:`SPELLING_RATIO`)
        ("Melchizedek": Henry's "Melchizedec", the KJV's "Melchisedec"; "hesed": Strong's "chêsêd"). Only words
        that have some."""
        out: dict[str, tuple[str, ...]] = {}
        for word in dict.fromkeys(words):
            stem = self._index.stem(word)
            key = sound_key(stem)
            if len(sound_key(word)) < MIN_KEY:  # the word's, not its stem's ("phoebe" is "phoeb")
                continue
            found = [term for first in _FIRST_LETTERS.get(key[0], key[0])
                     for term in self._by_key(first).get(key.rstrip("e"), ())
                     if term != stem and abs(len(term) - len(stem)) <= 2
                     and difflib.SequenceMatcher(None, stem, term).ratio() >= SPELLING_RATIO]
            spelt = [t if self._index.stem(t) == t else self._index.written_form(t) for t in sorted(found)]
            if spelt := [s for s in spelt if s]:
                out[word] = tuple(spelt)
        return out

    # -- statistics ------------------------------------------------------------------------------
    def doc_freq(self, word: str) -> int:
        """How many chunks hold ``word`` (after stemming)."""
        return self._index.doc_count(word)

    @property
    def total(self) -> int:
        return self._index.total

    def idf(self, word: str) -> float:
        """FTS5's idf: ``log((N - n + 0.5) / (n + 0.5))``, at least 1e-6."""
        n = self.doc_freq(word)
        return max(1e-6, math.log((self.total - n + 0.5) / (n + 0.5)))

    def _by_key(self, first: str) -> dict[str, tuple[str, ...]]:
        """The index's terms starting with ``first`` by their sound key without a final *e* (the stemmer keeps
        or drops it: "phoeb", "phebe"), read once per index and letter."""
        per_letter = _BY_KEY.setdefault(self._index, {})
        if first not in per_letter:
            groups: defaultdict[str, list[str]] = defaultdict(list)
            for term in self._index.terms(first, 1, _LONGEST):
                groups[sound_key(term).rstrip("e")].append(term)
            per_letter[first] = {k: tuple(v) for k, v in groups.items()}
        return per_letter[first]

    def normaliser(self, words: Sequence[str], variants: Variants | None = None) -> float:
        """The most any chunk could score for ``words``: ``Σ idf × (k1 + 1)`` over the words the index knows — a word
        with ``variants`` counted once, at its own idf (or, when the index does not know it as written, its
        rarest other spelling's): a rare misprint of a word does not lower every chunk that spells it right."""
        total = 0.0
        for w in dict.fromkeys(words):
            spellings = (w,) if self.doc_freq(w) > 0 else (variants or {}).get(w, ())
            total += max((self.idf(s) for s in spellings if self.doc_freq(s) > 0), default=0.0) * (K1 + 1)
        return total

    # -- spelling ----------------------------------------------------------------------------------
    def unknown(self, words: Sequence[str]) -> list[str]:
        """The ``words`` no chunk holds."""
        return [w for w in dict.fromkeys(words) if self.doc_freq(w) == 0]

    def suggestions(self, words: Sequence[str]) -> dict[str, str]:
        """For each word the index does not know, the closest word it does know (when one is close)."""
        out: dict[str, str] = {}
        for word in self.unknown(words):
            close = self._closest(word)
            if close is not None:
                out[word] = close
        return out

    def _closest(self, word: str) -> str | None:
        stem = self._index.stem(word)
        if len(stem) < 3:
            return None
        freq = self._index.terms(stem[0], len(stem) - 2, len(stem) + 2)
        best = difflib.get_close_matches(stem, list(freq), n=8, cutoff=0.75)
        if not best:
            return None
        top = max(best, key=lambda t: (round(difflib.SequenceMatcher(None, stem, t).ratio(), 2), freq[t]))
        return self._index.written_form(top) or top


def _spelt(words: Sequence[str], variants: Variants | None) -> list[str]:
    """``words`` and each one's ``variants``, each once, in order."""
    return list(dict.fromkeys(s for w in words for s in (w, *(variants or {}).get(w, ()))))


def _clip(value: float) -> float:
    return min(1.0, max(0.0, value))
