"""What the library says about each verse, for one question: gathered on the database thread (no Qt).

Six signals, each a number per verse (docs/RELEVANCE.md, "Verse search", measured them):

* ``similarity`` — cosine of the question and the verse's own vector (the default translation's text);
* ``keyword`` — the verse's words (BM25 over the translation searched, normalised as for chunks);
* ``phrase`` — the question's consecutive word pairs found as phrases in the verse, each weighted by its
  rarity: a remembered quotation ("God so loved the world") scores 1;
* ``commentary`` / ``commentary_keyword`` — the commentary notes (``section_panel`` chunks) nearest the
  question by meaning / best by words: each covered verse gets the note's score ÷ (verses it covers)^p,
  the best note per verse;
* ``lexicon`` / ``lexicon_keyword`` — the Strong's entries (``lexicon_entry`` chunks whose source id
  ends in a Strong's number) nearest the question / best by words: a verse gets, over the Strong's words
  it holds, the best entry score × the word's rarity (idf over the verses, scaled to 0–1).

The candidates are the verses any signal puts forward (nearest verses, best keyword verses, verses of the
top notes, verses holding the top Strong's words, verses the question names) and their neighbours; every
signal is then computed for each candidate and its neighbours, so a breakdown is never partial.
"""

from __future__ import annotations

import itertools
import math
import re
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..candidates.dense import nearest
from ..candidates.lexical import KeywordIndex
from ..core.query import Filters
from ..core.references import PassageRef
from ..store.scripture import ScriptureStore
from ..store.verses import Translation, VerseIndex
from ..understand.query import STOP_WORDS, QueryPlan
from .model import VerseWeights

COMMENTARY = ("section_panel",)
LEXICON = ("lexicon_entry",)
#: how many of each search's best feed the signals (the verses' own searches also the candidates)
VERSE_POOL = 100
NOTE_POOL = 100
LEXICON_POOL = 300
#: the verses of this many best notes join the candidates (the rest of the notes only score them)
NOTE_SEEDS = 20
#: verses holding these many best Strong's words (by score × rarity) join the candidates
LEXICON_SEEDS = 5
# Smaller candidate pools ranked the verse golden set identically (VERSE_POOL 50–200, NOTE_SEEDS 20–100,
# LEXICON_SEEDS 5–10: the same nDCG@10 to three places) and cost less to score; docs/PERFORMANCE.md.
_STRONGS = re.compile(r"([GH]\d+)$")
_WORD = re.compile(r"[^\W_]+")
#: a question's first this many word pairs are looked for as phrases
PHRASE_PAIRS = 16


@dataclass(frozen=True)
class Sourced:
    value: float
    source: str


@dataclass
class VerseSignals:
    """Signals by verse rowid for :attr:`scored` verses; :attr:`candidates` may be ranked."""

    candidates: list[int] = field(default_factory=list)
    scored: list[int] = field(default_factory=list)
    similarity: dict[int, float] = field(default_factory=dict)
    keyword: dict[int, float] = field(default_factory=dict)
    phrase: dict[int, float] = field(default_factory=dict)
    commentary: dict[int, Sourced] = field(default_factory=dict)
    commentary_keyword: dict[int, Sourced] = field(default_factory=dict)
    lexicon: dict[int, Sourced] = field(default_factory=dict)
    lexicon_keyword: dict[int, Sourced] = field(default_factory=dict)
    referenced: set[int] = field(default_factory=set)
    missing_references: list[PassageRef] = field(default_factory=list)
    by_origin: dict[str, int] = field(default_factory=dict)
    keyword_index: str | None = None
    timings: dict[str, float] = field(default_factory=dict)


def gather(store: ScriptureStore, plan: QueryPlan, translation: Translation, books: Sequence[str],
           weights: VerseWeights, vector: np.ndarray | None, *, two_stage: str | None = None) -> VerseSignals:
    """Every signal for the question's candidates (runs on the store's thread); ``two_stage`` chooses the
    chunk searches' path as for chunk search (:mod:`amicus_desktop.candidates.dense`)."""
    index = VerseIndex.for_store(store)
    out = VerseSignals()
    pool: set[int] = set()
    words = plan.keywords
    allowed = set(books)

    def origin(name: str, rowids: Iterable[int]) -> None:
        found = {r for r in rowids if not allowed or index.keys[r][0] in allowed}
        out.by_origin[name] = len(found)
        pool.update(found)

    t0 = time.perf_counter()
    dense = vector is not None and weights.similarity > 0
    if dense:
        assert vector is not None
        origin("verses", (r for r, _ in index.nearest(vector, VERSE_POOL, books)))
    if words and weights.keyword > 0:
        origin("keyword", (r for r, _ in index.keyword(translation, words, VERSE_POOL, books)))
        out.keyword_index = index.fts_where.get(translation.translation_id)
    out.timings["verses"] = _ms(t0)

    t0 = time.perf_counter()
    notes = Filters.of(COMMENTARY, books)
    if vector is not None and weights.commentary > 0:
        hits = [(r, 1.0 - d) for r, d in nearest(store, vector, NOTE_POOL, notes, two_stage=two_stage)]
        out.commentary = _propagate(store, index, hits, weights.span_power)
        origin("commentary", _propagate(store, index, hits[:NOTE_SEEDS], weights.span_power))
    if words and weights.commentary_keyword > 0:
        hits = KeywordIndex.for_store(store).search(words, NOTE_POOL, notes)
        out.commentary_keyword = _propagate(store, index, hits, weights.span_power)
        origin("commentary_keyword", _propagate(store, index, hits[:NOTE_SEEDS], weights.span_power))
    out.timings["commentary"] = _ms(t0)

    t0 = time.perf_counter()
    entries: dict[str, float] = {}
    entries_kw: dict[str, float] = {}
    if index.has_strongs and vector is not None and weights.lexicon > 0:
        entries = _numbers(store, nearest(store, vector, LEXICON_POOL, Filters.of(LEXICON), two_stage=two_stage),
                           distance=True)
    if index.has_strongs and words and weights.lexicon_keyword > 0:
        entries_kw = _numbers(store, KeywordIndex.for_store(store).search(words, LEXICON_POOL, Filters.of(LEXICON)))
    counts = index.strongs_counts([*entries, *entries_kw])
    total = max(2, index.count)
    rarity = {n: math.log(total / c) / math.log(total) for n, c in counts.items() if c}
    entries = {n: s * rarity[n] for n, s in entries.items() if n in rarity}
    entries_kw = {n: s * rarity[n] for n, s in entries_kw.items() if n in rarity}
    for name, scores in (("lexicon", entries), ("lexicon_keyword", entries_kw)):
        seeds = sorted(scores, key=lambda n: (-scores[n], n))[:LEXICON_SEEDS]
        origin(name, (r for rows in index.verses_with(seeds).values() for r in rows))
    out.timings["lexicon"] = _ms(t0)

    for ref in plan.references:
        rowids = _passage(index, ref)
        if not rowids:
            out.missing_references.append(ref)
        out.referenced.update(rowids)
    origin("reference", out.referenced)

    t0 = time.perf_counter()
    if out.referenced and not words:  # the question is only references: it names what it wants
        pool = {r for r in out.referenced if not allowed or index.keys[r][0] in allowed}
    candidates = pool | {n for r in pool for n in index.neighbours(r)}
    scored = candidates | {n for r in candidates for n in index.neighbours(r)}
    out.candidates, out.scored = sorted(candidates), sorted(scored)
    if dense:
        assert vector is not None
        out.similarity = {r: 1.0 - d for r, d in index.distances(vector, scored).items()}
    if words and weights.keyword > 0:
        out.keyword = index.keyword_scores(translation, words, scored)
    if weights.phrase > 0:
        out.phrase = index.phrase_scores(translation, word_pairs(plan), scored)
    held = index.strongs_of(scored) if entries or entries_kw else {}
    out.lexicon = _best_word(held, entries)
    out.lexicon_keyword = _best_word(held, entries_kw)
    out.timings["score"] = _ms(t0)
    return out


def word_pairs(plan: QueryPlan, most: int = PHRASE_PAIRS) -> list[tuple[str, str]]:
    """The question's consecutive word pairs with at least one word that is not a stop-word ("so loved",
    "the world"; not "of the", which says little and which thousands of verses hold), references left out."""
    text = plan.text
    for ref in plan.references:
        if ref.text:
            text = text.replace(ref.text, " ")
    words = _WORD.findall(text.lower())
    pairs = [(a, b) for a, b in itertools.pairwise(words) if a not in STOP_WORDS or b not in STOP_WORDS]
    return list(dict.fromkeys(pairs))[:most]


def _propagate(store: ScriptureStore, index: VerseIndex, hits: list[tuple[int, float]],
               span_power: float) -> dict[int, Sourced]:
    """Each note's score ÷ span^p to the verses it covers; the best note per verse."""
    out: dict[int, Sourced] = {}
    if not hits:
        return out
    rows = store.fetch(r for r, _ in hits)
    for rowid, score in hits:
        if rowid not in rows:
            continue
        chunk_id, _type, _source, _text, meta = rows[rowid]
        if meta.book_id is None or meta.chapter_num is None or meta.verse_start is None:
            continue
        end = meta.verse_end if meta.verse_end is not None else meta.verse_start
        covered = [index.rowid_of[k] for v in range(meta.verse_start, end + 1)
                   if (k := (meta.book_id, meta.chapter_num, v)) in index.rowid_of]
        if not covered:
            continue
        value = score / len(covered) ** span_power
        for r in covered:
            if r not in out or value > out[r].value:
                out[r] = Sourced(value, chunk_id)
    return out


def _numbers(store: ScriptureStore, hits: list[tuple[int, float]], *, distance: bool = False) -> dict[str, float]:
    """Strong's number → the best score of its lexicon entries among ``hits`` (distances become similarities)."""
    rows = store.fetch(r for r, _ in hits)
    out: dict[str, float] = {}
    for rowid, value in hits:
        if rowid not in rows:
            continue
        m = _STRONGS.search(rows[rowid][2])
        if m is None:
            continue
        score = 1.0 - value if distance else value
        out[m.group(1)] = max(out.get(m.group(1), 0.0), score)
    return out


def _best_word(held: dict[int, list[str]], scores: dict[str, float]) -> dict[int, Sourced]:
    out: dict[int, Sourced] = {}
    if not scores:
        return out
    for rowid, numbers in held.items():
        best = max(numbers, key=lambda n: (scores.get(n, 0.0), n))
        if scores.get(best, 0.0) > 0:
            out[rowid] = Sourced(scores[best], best)
    return out


def _passage(index: VerseIndex, ref: PassageRef) -> set[int]:
    start = ref.verse_start if ref.verse_start is not None else 1
    end = ref.verse_end if ref.verse_end is not None else ref.verse_start if ref.verse_start is not None else 10**6
    return {r for (book, chapter, verse), r in index.rowid_of.items()
            if book == ref.book_id and chapter == ref.chapter and start <= verse <= end}


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000
