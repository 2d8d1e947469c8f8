"""The chapters a question quotes: where the Bible's own words, as the question puts them, stand.

"all things work together for good" asked with Romans 8 open is about Romans 8 (the verse search's first verse
is Romans 8:28), though the library's commentary on the question may centre elsewhere and the app's ranking
would set the open chapter aside (:func:`amicus_desktop.rerank.focus.chapter_relation`). A question *quotes* a
verse when most of its consecutive word pairs (the verse search's phrase pairs, :func:`word_pairs`) stand in
the verse as phrases, weighed by their rarity (:meth:`~amicus_desktop.store.verses.VerseIndex.phrase_scores`),
and the quote is distinctive — a few verses at most hold it, not "the love of God" everywhere. The chapters of
those verses count as related to the question whatever the commentary says (docs/RELEVANCE.md, *The open
chapter*). So does an open chapter whose verses hold a *rare* word of the question (:func:`named_in_chapter`):
"Who was Melchizedek?" asked with Hebrews 7 open is about Hebrews 7 too, though the commentary on the name centres
on Genesis 14. Run on the database thread; nothing when the library holds no verses.
"""

from __future__ import annotations

import itertools
import re
import sys
from collections.abc import Sequence

from ..core.references import ChapterRef, PassageRef
from ..store.library import LibraryStore
from ..understand.query import STOP_WORDS, QueryPlan
from .lexical import RARE_CHUNKS, KeywordIndex

_WORD = re.compile(r"[^\W_]+")
#: a question's first this many word pairs are looked for as phrases
PHRASE_PAIRS = 16
#: the share of the pairs' weight a verse must hold as phrases to be quoted
QUOTE_SHARE = 0.6
#: a quote held by more verses than this is a common phrase, not a place
QUOTE_VERSES = 3
#: the fewest word pairs a quote has (three words): one pair ("the sabbath", "born again") is a topic's name
QUOTE_PAIRS = 2
#: the fewest words of a question a verse holds word for word, stop-words and all, to be quoted by a question with
#: fewer pairs than :data:`QUOTE_PAIRS` of other words ("Who is my neighbor?", "What is truth?" is too short)
QUOTE_WORDS = 4
#: how many of the chunks covering a quoted verse, nearest the question, join the pool
QUOTE_POOL = 5
#: a word of the question that stands in at most this many verses of the Bible names someone or something
#: (Melchizedek, Nicodemus, Bethesda), where a common word ("faith", "law") names a topic of many chapters
RARE_VERSES = 40
#: the most verses of the open chapter holding such a word whose notes join the pool (a name recurs in its chapter)
NAMED_VERSES = 6


def _words(plan: QueryPlan) -> list[str]:
    """The question's words in order, lower-cased, references left out."""
    text = plan.text
    for ref in plan.references:
        if ref.text:
            text = text.replace(ref.text, " ")
    return _WORD.findall(text.lower())


def word_pairs(plan: QueryPlan, most: int = PHRASE_PAIRS) -> list[tuple[str, str]]:
    """The question's consecutive word pairs with at least one word that is not a stop-word ("so loved",
    "the world"; not "of the", which says little and which thousands of verses hold), references left out."""
    pairs = [(a, b) for a, b in itertools.pairwise(_words(plan)) if a not in STOP_WORDS or b not in STOP_WORDS]
    return list(dict.fromkeys(pairs))[:most]


def whole_question_pairs(plan: QueryPlan, fewest: int = QUOTE_WORDS,
                         most: int = PHRASE_PAIRS) -> list[tuple[str, str]]:
    """Every consecutive word pair of a short question of ``fewest`` words or more, stop-words and all ("who is",
    "is my", "my neighbor"): a verse holding all of them holds the question word for word; none when the
    question is shorter or longer than ``most`` pairs."""
    words = _words(plan)
    pairs = list(itertools.pairwise(words))
    return pairs if fewest <= len(words) and len(pairs) <= most and any(w not in STOP_WORDS for w in words) else []


def quoted_verses(store: LibraryStore, plan: QueryPlan, *, share: float = QUOTE_SHARE,
                  most: int = QUOTE_VERSES) -> tuple[PassageRef, ...]:
    """(DB thread) The verses ``plan``'s question quotes, in Bible order; none when no verse, or more than
    ``most`` verses, hold ``share`` of its word pairs as phrases — or, for a question of mostly stop-words ("Who
    is my neighbor?"), all of its pairs (:func:`whole_question_pairs`)."""
    pairs = word_pairs(plan)
    if len(pairs) < QUOTE_PAIRS:
        pairs, share = whole_question_pairs(plan), 1.0 - 1e-9
    if not pairs or not store.info.has_verses:
        return ()
    index = store.verse_index()
    translation = index.default
    if translation is None:
        return ()
    held = sorted(r for r, s in index.phrase_scores(translation, pairs).items() if s >= share)
    if not held or len(held) > most:
        return ()
    return tuple(PassageRef(b, c, v, v) for b, c, v in (index.keys[r] for r in held))  # rowids: the Bible's order


def chapters_of(verses: Sequence[PassageRef]) -> tuple[ChapterRef, ...]:
    """The chapters of ``verses``, each once, in their order."""
    return tuple(dict.fromkeys(v.chapter_ref for v in verses))


def rare_words(store: LibraryStore, words: Sequence[str], *, rare: int = RARE_VERSES,
               rare_chunks: int = RARE_CHUNKS) -> tuple[str, ...]:
    """(DB thread) The words of ``words`` that name someone or something rather than a topic: in at most ``rare``
    verses of the Bible (none counts: "hesed", a misspelt name) — or, in a library without the Bible's text, in at
    most ``rare_chunks`` of its chunks."""
    index = store.verse_index() if store.info.has_verses else None
    translation = index.default if index is not None else None
    if index is None or translation is None:
        keywords = KeywordIndex.for_store(store)
        return tuple(w for w in words if keywords.doc_freq(w) <= rare_chunks)
    return tuple(w for w in words if index.doc_count(translation, w) <= rare)


def named_in_chapter(store: LibraryStore, plan: QueryPlan, chapter: ChapterRef | None, *, rare: int = RARE_VERSES,
                     most: int = NAMED_VERSES) -> tuple[PassageRef, ...]:
    """(DB thread) The verses of ``chapter`` (at most ``most``, best first by the words' score) holding a rare
    word of ``plan``'s question — one in at most ``rare`` verses of the Bible; none when no such word is there."""
    if chapter is None or not plan.keywords or not store.info.has_verses:
        return ()
    index = store.verse_index()
    translation = index.default
    if translation is None:
        return ()
    words = [w for w in plan.keywords if 0 < index.doc_count(translation, w) <= rare]
    if not words:
        return ()
    rowids = index.rowid_of.span(chapter.book_id, chapter.chapter, 1, sys.maxsize)
    scores = index.keyword_scores(translation, words, rowids) if rowids else {}
    best = sorted(scores, key=lambda r: (-scores[r], r))[:most]
    return tuple(PassageRef(b, c, v, v) for b, c, v in (index.keys[r] for r in sorted(best)))
