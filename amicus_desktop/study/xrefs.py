"""Cross-references of a verse from the library's own material, ranked, each saying where it comes from.

Sources (:class:`~.model.XrefSource`): the references Henry's and Scofield's notes on the verse cite,
Scofield's chains and Nave's topics that list the verse (all read by :mod:`.xref_index`), and the
verses nearest the verse in meaning (its vector among the verse vectors) — marked as such: similar,
not cited. A passage scores the number of kinds of source that name it or a passage of at most
:data:`SUPPORT_SPAN` verses holding it (meaning counting half: it is a guess, not a citation), then a
little for how many notes name it and how close it is in meaning, less a little for a long passage
or a whole chapter (a pointer to all of Romans 4 says less than one to Romans 4:7). No Qt.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..core.errors import AmicusError, ErrorCode
from ..core.references import PassageRef
from ..store.scripture import ScriptureStore
from ..store.study import first_verses, verse_vector
from ..store.verses import VerseIndex
from ..verses.memory import VerseMemory
from .model import CrossReference, CrossReferences, XrefEvidence, XrefSource
from .xref_index import XrefIndex

#: verses nearest in meaning looked at (the verse and its neighbours are left out of them)
MEANING_K = 10
#: the most cross-references returned
DEFAULT_LIMIT = 60
_WEIGHT = {XrefSource.MEANING: 0.5}
#: the widest passage whose sources count as agreeing with a verse or passage inside it
SUPPORT_SPAN = 12


@dataclass
class _Candidate:
    ref: PassageRef
    evidence: list[XrefEvidence] = field(default_factory=list)
    similarity: float = 0.0


def parse_sources(names: Iterable[str]) -> tuple[XrefSource, ...]:
    """``["henry", "nave"]`` → sources; ``QUERY_INVALID`` naming an unknown one."""
    out = []
    for name in names:
        try:
            out.append(XrefSource(name.strip().lower()))
        except ValueError:
            known = ", ".join(s.value for s in XrefSource)
            raise AmicusError(ErrorCode.QUERY_INVALID, f"{name[:40]!r} is not a source of cross-references "
                                                       f"(one of {known}).") from None
    return tuple(dict.fromkeys(out))


def _width(ref: PassageRef) -> int | None:
    """How many verses a reference spans (``None``: a whole chapter)."""
    if ref.verse_start is None:
        return None
    return (ref.verse_end or ref.verse_start) - ref.verse_start + 1


def _breadth(ref: PassageRef) -> float:
    """What a broad reference gives up: a pointer to a whole chapter or a long passage is less of one."""
    width = _width(ref)
    return 0.6 if width is None or width > 12 else 0.3 if width > 5 else 0.0


def _meaning(store: ScriptureStore, index: VerseIndex, book_id: str, chapter: int, verse: int) -> list[_Candidate]:
    """The verses nearest the verse in meaning: one product with every verse vector, held in memory with
    verse search's (:class:`~amicus_desktop.verses.memory.VerseMemory`: read once per library, shared) —
    at the whole Bible a few ms, where a nearest-neighbour search in the vec0 table takes tens."""
    rowid = index.rowid_of.get((book_id, chapter, verse))
    if rowid is None or not index.has_vectors:
        return []
    vector = verse_vector(store, rowid)
    memory = VerseMemory.for_store(store, vectors=True)
    verses = memory.verse_index
    if vector is None or verses is None or memory.vector_pos is None or not len(memory.vector_pos):
        return []
    sims = verses.similarities(store.query_vector(vector))
    skip = {rowid, *index.neighbours(rowid)}
    take = min(len(sims), MEANING_K + len(skip))
    best = np.argpartition(-sims, take - 1)[:take]
    out: list[_Candidate] = []
    for row in sorted(best, key=lambda r: -float(sims[r])):
        other = int(memory.vector_pos[row]) + 1
        if other in skip or len(out) >= MEANING_K:
            continue
        b, c, v = index.keys[other]
        similarity = float(sims[row])
        evidence = XrefEvidence(XrefSource.MEANING, f"similarity {similarity:.2f}")
        out.append(_Candidate(PassageRef(b, c, v, v), [evidence], similarity))
    return out


def _texts(store: ScriptureStore, refs: Sequence[PassageRef]) -> list[str]:
    """Each passage's first verse (`` …`` after it for a longer passage or a chapter)."""
    found = first_verses(store, [(r.book_id, r.chapter, r.verse_start or 1) for r in refs])
    return [found[i] + (" …" if (_width(r) or 2) > 1 else "") if i in found else "" for i, r in enumerate(refs)]


def cross_references(store: ScriptureStore, verse: PassageRef, sources: Iterable[XrefSource] = (),
                     limit: int = DEFAULT_LIMIT) -> CrossReferences:
    """The cross-references of ``verse`` (its first verse when it is a range or a chapter), best first,
    from ``sources`` only when given."""
    v = verse.verse_start or 1
    wanted = tuple(dict.fromkeys(sources)) or tuple(XrefSource)
    vindex = VerseIndex.for_store(store)
    xindex = XrefIndex.for_store(store)
    available = xindex.kinds() | ({XrefSource.MEANING} if vindex.has_vectors else set())
    candidates: dict[PassageRef, _Candidate] = {}
    for hit in xindex.hits(verse.book_id, verse.chapter, v):
        if hit.kind in wanted:
            cand = candidates.setdefault(hit.ref, _Candidate(hit.ref))
            evidence = XrefEvidence(hit.kind, hit.detail, hit.chunk_id)
            if evidence not in cand.evidence:
                cand.evidence.append(evidence)
    if XrefSource.MEANING in wanted:
        for cand in _meaning(store, vindex, verse.book_id, verse.chapter, v):
            mine = candidates.setdefault(cand.ref, _Candidate(cand.ref))
            mine.evidence.extend(cand.evidence)
            mine.similarity = cand.similarity
    # a candidate's supporters: itself, and the short passages of its chapter holding it
    holders: dict[tuple[str, int], list[tuple[int, int, _Candidate]]] = defaultdict(list)
    for cand in candidates.values():
        width = _width(cand.ref)
        if width is not None and width <= SUPPORT_SPAN and cand.ref.verse_start is not None:
            first = cand.ref.verse_start
            holders[(cand.ref.book_id, cand.ref.chapter)].append((first, first + width - 1, cand))
    ranked = []
    near_of: dict[int, list[_Candidate]] = {}
    for cand in candidates.values():
        ref = cand.ref
        near = [cand]
        if ref.verse_start is not None:
            first, last = ref.verse_start, ref.verse_end or ref.verse_start
            near += [o for a, b, o in holders.get((ref.book_id, ref.chapter), ()) if a <= first and last <= b
                     and o is not cand]
        near_of[id(cand)] = near
        agreeing = {e.source for other in near for e in other.evidence}
        similarity = max(o.similarity for o in near)
        score = (sum(_WEIGHT.get(s, 1.0) for s in agreeing) + 0.2 * min(len(cand.evidence), 5) / 5
                 + 0.1 * similarity - _breadth(ref))
        ranked.append((score, cand))
    ranked.sort(key=lambda sc: (-sc[0], sc[1].ref.book_id, sc[1].ref.chapter, sc[1].ref.verse_start or 0))
    for _score, cand in ranked[:limit]:  # the sources that agree through a passage holding it say so
        cand.evidence.extend(XrefEvidence(e.source, f"{e.detail} · in {o.ref.label()}", e.chunk_id)
                             for o in near_of[id(cand)][1:] for e in o.evidence if e.source is not XrefSource.MEANING)
    top = ranked[:limit]
    texts = _texts(store, [c.ref for _, c in top])
    items = tuple(CrossReference(c.ref, t, s, tuple(c.evidence)) for (s, c), t in zip(top, texts, strict=True))
    missing = [s for s in wanted if s not in available]
    notice = ""
    if missing:
        notice = "This library has no " + ", ".join(s.label.lower() for s in missing) + " for cross-references."
        if XrefSource.MEANING in missing:
            notice += " (Nearest in meaning needs the verse vectors: rebuild with 'amicus-desktop build-db'.)"
    here = PassageRef(verse.book_id, verse.chapter, v, v)
    return CrossReferences(here, items, tuple(s for s in XrefSource if s in available), wanted, notice)
