"""What the library says about each verse, for one question: gathered on the database thread (no Qt).

Seven signals, each a number per verse (docs/RELEVANCE.md, "Verse search", measured them):

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

Every verse is scored, from the arrays of :class:`~.memory.VerseMemory` (a few matrix products) and the
word indexes (all matches); the best ``depth`` verses and their neighbours are then handed to
:mod:`.score` as plain values, which scores them again with the same formula for their breakdowns.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..candidates.lexical import KeywordIndex
from ..candidates.quoted import word_pairs
from ..core.references import PassageRef
from ..store.library import LibraryStore
from ..store.verse_reader import Translation, VerseReader
from ..understand.query import QueryPlan
from .memory import VerseMemory
from .model import VerseWeights

#: how many of the nearest notes and lexicon entries count (the rest score nothing)
NOTE_POOL = 100
LEXICON_POOL = 300
#: how many chunks the question's words are looked for in (notes and entries are taken from them); 150,
#: 300 and 1,000 ranked the verse golden set alike (nDCG@10 within 0.002), and fewer cost less
CHUNK_WORDS = 300
#: everything the words match (the word indexes return at most this many)
_ALL = 1_000_000


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


def gather(store: LibraryStore, plan: QueryPlan, translation: Translation, books: Sequence[str],
           weights: VerseWeights, vector: np.ndarray | None, *, depth: int = 30) -> VerseSignals:
    """Every verse scored for the question; the best ``depth`` and their neighbours as plain values."""
    index = store.verse_index()
    w = weights
    dense = vector is not None and index.has_vectors
    memory = VerseMemory.for_store(store, vectors=dense)
    n = memory.n
    words = plan.keywords
    out = VerseSignals()
    t0 = time.perf_counter()
    sim = np.zeros(n)
    verses = memory.verse_index
    if dense and w.similarity and verses is not None and memory.vector_pos is not None:
        assert vector is not None
        sim[memory.vector_pos] = verses.similarities(store.query_vector(vector))
    keyword = np.zeros(n)
    if words and w.keyword:
        for r, v in index.keyword(translation, words, _ALL):
            keyword[r - 1] = v
        out.keyword_index = index.fts_where.get(translation.translation_id)
    phrase = np.zeros(n)
    if w.phrase:
        for r, v in index.phrase_scores(translation, word_pairs(plan)).items():
            phrase[r - 1] = v
    out.timings["verses"] = _ms(t0)

    t0 = time.perf_counter()
    chunk_hits: list[tuple[int, float]] = []
    if words and (w.commentary_keyword or w.lexicon_keyword):
        chunk_hits = KeywordIndex.for_store(store).search(words, CHUNK_WORDS)
    comm, comm_src = np.zeros(n), np.full(n, -1)
    notes = memory.note_index
    if dense and w.commentary and notes is not None and len(notes):
        assert vector is not None
        note_sims = notes.similarities(vector)
        _spread(memory, _top(note_sims, NOTE_POOL), note_sims, w.span_power, comm, comm_src)
    comm_kw, comm_kw_src = np.zeros(n), np.full(n, -1)
    if chunk_hits and w.commentary_keyword:
        at = {int(r): i for i, r in enumerate(memory.note_rowids)}
        scores = np.zeros(len(memory.note_rowids))
        for r, v in chunk_hits:
            if r in at:
                scores[at[r]] = v
        _spread(memory, np.flatnonzero(scores), scores, w.span_power, comm_kw, comm_kw_src)
    out.timings["commentary"] = _ms(t0)

    t0 = time.perf_counter()
    rarity = _rarity(memory)
    number_score = np.zeros(len(memory.numbers))
    entries = memory.entry_index
    if dense and w.lexicon and entries is not None and len(entries):
        assert vector is not None
        entry_sims = entries.similarities(vector)
        top = _top(entry_sims, LEXICON_POOL)
        np.maximum.at(number_score, memory.entry_number[top], entry_sims[top])
    number_score *= rarity
    number_score_kw = np.zeros(len(memory.numbers))
    if chunk_hits and w.lexicon_keyword:
        at = {int(r): i for i, r in enumerate(memory.entry_rowids)}
        for r, v in chunk_hits:
            if r in at:
                k = memory.entry_number[at[r]]
                number_score_kw[k] = max(number_score_kw[k], v)
        number_score_kw *= rarity
    lexicon, lexicon_kw = _per_verse(memory, number_score), _per_verse(memory, number_score_kw)
    out.timings["lexicon"] = _ms(t0)

    t0 = time.perf_counter()
    for ref in plan.references:
        rowids = _passage(index, ref)
        if not rowids:
            out.missing_references.append(ref)
        out.referenced.update(rowids)
    base = (w.similarity * sim + w.keyword * keyword + w.phrase * phrase + w.commentary * comm
            + w.commentary_keyword * comm_kw + w.lexicon * lexicon + w.lexicon_keyword * lexicon_kw)
    near = np.maximum(np.where(memory.prev >= 0, base[memory.prev], 0.0), np.where(memory.next >= 0,
                                                                               base[memory.next], 0.0))
    boost = np.ones(n)
    referenced = np.asarray(sorted(out.referenced), dtype=np.int64) - 1
    boost[referenced] = w.reference
    final = (base + w.neighbour * near) * boost
    allowed = np.ones(n, dtype=bool)
    if books:
        allowed = index.keys.in_books(books)[1:]
    if out.referenced and not words:  # the question is only references: it names what it wants
        only = np.zeros(n, dtype=bool)
        only[referenced] = True
        allowed &= only
    touched = (sim != 0) | (keyword > 0) | (phrase > 0) | (comm > 0) | (comm_kw > 0) | (lexicon > 0) | (
        lexicon_kw > 0) | (boost != 1.0)
    final = np.where(allowed & touched, final, -np.inf)
    best = [int(i) for i in _top(final, depth) if np.isfinite(final[i])]
    candidates = {i + 1 for i in best}
    scored = candidates | {int(j) + 1 for i in best for j in (memory.prev[i], memory.next[i]) if j >= 0}
    out.candidates, out.scored = sorted(candidates), sorted(scored)
    for name, array in (("verses", sim), ("keyword", keyword), ("phrase", phrase), ("commentary", comm),
                        ("commentary_keyword", comm_kw), ("lexicon", lexicon), ("lexicon_keyword", lexicon_kw)):
        out.by_origin[name] = int(np.count_nonzero(array > 0))
    out.by_origin["reference"] = len(out.referenced)
    for r in out.scored:
        i = r - 1
        out.similarity[r] = float(sim[i])
        if keyword[i]:
            out.keyword[r] = float(keyword[i])
        if phrase[i]:
            out.phrase[r] = float(phrase[i])
        if comm_src[i] >= 0:
            out.commentary[r] = Sourced(float(comm[i]), memory.note_ids[comm_src[i]])
        if comm_kw_src[i] >= 0:
            out.commentary_keyword[r] = Sourced(float(comm_kw[i]), memory.note_ids[comm_kw_src[i]])
        if lexicon[i]:
            out.lexicon[r] = Sourced(float(lexicon[i]), _best_number(memory, i, number_score))
        if lexicon_kw[i]:
            out.lexicon_keyword[r] = Sourced(float(lexicon_kw[i]), _best_number(memory, i, number_score_kw))
    out.timings["score"] = _ms(t0)
    return out


def _top(values: np.ndarray, k: int) -> np.ndarray:
    """Indices of the ``k`` largest values, best first (ties: lower index first)."""
    if len(values) == 0 or k <= 0:
        return np.zeros(0, dtype=np.int64)
    k = min(k, len(values))
    part = np.argpartition(-values, k - 1)[:k]
    return part[np.lexsort((part, -values[part]))]


def _spread(memory: VerseMemory, notes: np.ndarray, scores: np.ndarray, span_power: float, into: np.ndarray,
            source: np.ndarray) -> None:
    """Each note's score ÷ span^p to the verses it covers, the best note per verse (written in rising
    order, so the last write — the best — stays)."""
    ptr, verses = memory.note_ptr, memory.note_verses
    values = [(scores[i] / (ptr[i + 1] - ptr[i]) ** span_power, int(i)) for i in notes if scores[i] > 0]
    for value, i in sorted(values):
        covered = verses[ptr[i]: ptr[i + 1]]
        better = covered[into[covered] < value]
        into[better] = value
        source[better] = i


def _rarity(memory: VerseMemory) -> np.ndarray:
    """Each Strong's number's rarity over the verses: ``log(N / verses holding it) / log N`` (0 when none)."""
    total = max(2, memory.n)
    counts = memory.number_count
    with np.errstate(divide="ignore"):
        out = np.where(counts > 0, np.log(total / np.maximum(counts, 1)) / math.log(total), 0.0)
    return np.clip(out, 0.0, None)


def _per_verse(memory: VerseMemory, number_score: np.ndarray) -> np.ndarray:
    """Each verse's best score over the Strong's numbers it holds (0 for a verse without any)."""
    out = np.zeros(memory.n)
    if not len(memory.verse_numbers) or not number_score.any():
        return out
    values = number_score[memory.verse_numbers]
    starts = memory.verse_ptr[:-1]
    has = memory.verse_ptr[1:] > starts
    out[has] = np.maximum.reduceat(values, starts[has])
    return out


def _best_number(memory: VerseMemory, position: int, number_score: np.ndarray) -> str:
    held = memory.verse_numbers[memory.verse_ptr[position]: memory.verse_ptr[position + 1]]
    best = max(held, key=lambda k: (number_score[k], memory.numbers[k]))
    return str(memory.numbers[int(best)])


def _passage(index: VerseReader, ref: PassageRef) -> set[int]:
    start = ref.verse_start if ref.verse_start is not None else 1
    end = ref.verse_end if ref.verse_end is not None else ref.verse_start if ref.verse_start is not None else 10**6
    return set(index.rowid_of.span(ref.book_id, ref.chapter, start, end))


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000
