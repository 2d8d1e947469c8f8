"""What one retrieval is asked: the question's settings as plain, frozen data. No Qt, no I/O.

The pipeline (``amicus_desktop.retrieval``) reads a :class:`RetrievalContext`; the limits and defaults
here are CONTRACT sections 3–8's.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from .governance import Governance
from .references import ChapterRef, PassageRef


class SourceType(enum.StrEnum):
    """What kind of study material a chunk is (``chunk_text.source_type``, CONTRACT section 1).

    A ``StrEnum``: each member is its plain string, so JSON, SQL and a database's own values compare
    and serialise as they always did; a database may hold a type not listed here.
    """

    SECTION_PANEL = "section_panel"
    CHAPTER_PANEL = "chapter_panel"
    WORD_STUDY = "word_study"
    LEXICON_ENTRY = "lexicon_entry"
    DEBATE_TOPIC = "debate_topic"
    CROSS_REF_THREAD_NOTE = "cross_ref_thread_note"
    JOURNEY_STOP = "journey_stop"
    META_FAQ = "meta_faq"


#: The contract's source types as plain strings, in its order (command-line choices, build counts).
SOURCE_TYPES: tuple[str, ...] = tuple(t.value for t in SourceType)

#: The source type of the reader's own notes among the candidates ("My notes", CONTRACT section 11):
#: never a library chunk's, and a filter value beside the library's types.
USER_NOTE = "user_note"
#: The notes' id space (CONTRACT section 11): every note id begins so, and no library chunk's may —
#: ``ingest`` and ``build-db`` refuse one, and a pin in this space names a note, never a library chunk.
NOTE_ID_PREFIX = "note:"


def is_note_id(chunk_id: str) -> bool:
    """Whether ``chunk_id`` is in the notes' id space (``note:…``)."""
    return chunk_id.startswith(NOTE_ID_PREFIX)


#: CONTRACT section 3/4 limits.
DEFAULT_K = 10


DEFAULT_CANDIDATES = 40


#: tokens a context block may use unless told otherwise (CONTRACT section 8)
DEFAULT_CONTEXT_BUDGET = 8000


MAX_K = 50


MAX_CANDIDATES = 4096


#: Values one filter kind may hold (the canon has 66 books; a library names some dozens of scholars).
#: More is a usage error: a filter of 40,000 scholars once took 35 s to parse and then failed in SQLite.
MAX_FILTER_VALUES = 1000


MAX_QUERY_CHARS = 2000


#: CONTRACT section 6: covering chunks that join the pool per detected reference.
REFERENCE_POOL = 20


class SearchMode(enum.StrEnum):
    """How candidates are found and what the ``base`` score is (CONTRACT section 6)."""

    SEMANTIC = "semantic"  # dense KNN; base = similarity
    HYBRID = "hybrid"  # dense and keyword candidates fused into one base
    KEYWORD = "keyword"  # full-text BM25 only; needs no embed proxy

    @property
    def embeds(self) -> bool:
        """Whether the question must be embedded (and so whether the proxy must be up)."""
        return self is not SearchMode.KEYWORD

    @property
    def label(self) -> str:
        return self.value.capitalize()


@dataclass(frozen=True)
class Profile:
    """A reader's preferences: boosted scholars and traditions (ids as stored in the DB)."""

    preferred_scholars: frozenset[str] = frozenset()
    preferred_traditions: frozenset[str] = frozenset()

    @classmethod
    def of(cls, scholars: Any = (), traditions: Any = ()) -> Profile:
        return cls(frozenset(scholars), frozenset(traditions))


#: The filter kinds, as their values are named in a sentence.
FILTER_KINDS = {"source_types": "source types", "books": "books", "scholars": "scholars", "traditions": "traditions",
                "passages": "passages"}


@dataclass(frozen=True)
class Filters:
    """Which chunks may be candidates (CONTRACT section 6): OR within a kind, AND across kinds.

    An empty kind does not filter. Values are as stored (``book_id``s already resolved). ``passages``
    (**project extension**): only chunks covering one of them, as a reference covers (section 6) — the
    passages a reader marked (``query --marks``, the window's "My passages"), resolved in the question's
    workspace before the search.
    """

    source_types: tuple[str, ...] = ()
    books: tuple[str, ...] = ()
    scholars: tuple[str, ...] = ()
    traditions: tuple[str, ...] = ()
    passages: tuple[PassageRef, ...] = ()

    @classmethod
    def of(
        cls,
        source_types: Iterable[str] = (),
        books: Iterable[str] = (),
        scholars: Iterable[str] = (),
        traditions: Iterable[str] = (),
        passages: Iterable[PassageRef] = (),
    ) -> Filters:
        """Filters with duplicates dropped and the order of first mention kept."""
        def once(values: Iterable[str]) -> tuple[str, ...]:
            return tuple(dict.fromkeys(values))

        return cls(once(source_types), once(books), once(scholars), once(traditions), tuple(dict.fromkeys(passages)))

    @property
    def active(self) -> bool:
        return bool(self.source_types or self.books or self.scholars or self.traditions or self.passages)

    def too_many(self) -> str | None:
        """A sentence when a kind holds more than :data:`MAX_FILTER_VALUES` values, else ``None``."""
        for kind, label in FILTER_KINDS.items():
            count = len(getattr(self, kind))
            if count > MAX_FILTER_VALUES:
                return (
                    f"A search can be limited to at most {MAX_FILTER_VALUES:,} {label} at once; "
                    f"{count:,} were given."
                )
        return None

    def to_json(self) -> dict[str, list[Any]]:
        """The four kinds of section 6, and ``passage`` (``{"book_id", "chapter_num", "verse_start",
        "verse_end"}`` each) only when passages filter: a question without them echoes exactly section 6."""
        out: dict[str, list[Any]] = {
            "source_type": list(self.source_types),
            "book": list(self.books),
            "scholar": list(self.scholars),
            "tradition": list(self.traditions),
        }
        if self.passages:
            out["passage"] = [{"book_id": p.book_id, "chapter_num": p.chapter, "verse_start": p.verse_start,
                               "verse_end": p.verse_end} for p in self.passages]
        return out


#: The largest boost (CONTRACT section 6): four boosts multiply a base of at most 1, so a final score
#: stays below 1e8 — finite, and so valid JSON (1e308 × 1e308 was ``Infinity``).
MAX_BOOST = 100.0


@dataclass(frozen=True)
class BoostWeights:
    """Multipliers of CONTRACT sections 3 and 6, the per-scholar cap of section 3 step 6, and the vocabulary
    factor of an overlay (section 12: applied only when an overlay names terms)."""

    chapter: float = 1.5
    scholar: float = 1.1
    tradition: float = 1.05
    #: at most this many results per scholar; ``None``: no cap
    per_scholar_cap: int | None = 2
    reference: float = 1.25
    vocabulary: float = 1.1

    def check(self) -> None:
        """``ValueError`` naming the first weight out of its range: each boost in (0, :data:`MAX_BOOST`]
        and finite, the cap at least 1 (or ``None``). The one rule for flags, ``eval --compare`` and the API."""
        for name in ("chapter", "scholar", "tradition", "reference", "vocabulary"):
            value = getattr(self, name)
            if not (isinstance(value, (int, float)) and math.isfinite(value) and 0 < value <= MAX_BOOST):
                raise ValueError(f"{name}-boost must be greater than 0 and at most {MAX_BOOST:g}, not {value!r}")
        cap = self.per_scholar_cap
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap < 1):
            raise ValueError(f"scholar-cap must be at least 1 (or none), not {cap!r}")


#: Every boost at 1 and no cap: the ranking of the base score alone (``eval --no-boosts``, the
#: relevance benchmark's baselines, the workbench's "no boosts, no cap").
NO_BOOSTS = BoostWeights(chapter=1.0, scholar=1.0, tradition=1.0, per_scholar_cap=None, reference=1.0,
                         vocabulary=1.0)


@dataclass(frozen=True)
class RankingPolicy:
    """The reader-facing rules the app adds to the contract's ranking (docs/RELEVANCE.md, "The app's ranking").

    The default — every rule off — is CONTRACT sections 3 and 6 exactly, which ``query`` keeps without
    ``--preset``; the app's preset (:data:`amicus_desktop.core.preset.APP`) turns them on.
    """

    #: ``None``: the contract's cap — a scholar's chunks past ``per_scholar_cap`` are rejected. A factor in
    #: (0, 1): the cap counts per *source* (one author's one kind of material: Henry's section notes, Strong's
    #: lexicon) and, past it, each further chunk of that source is multiplied by the factor once more, so a
    #: list stays full while one voice still cannot fill it.
    spread: float | None = None
    #: a passage the question names replaces the open chapter as the chapter boost's context: the open
    #: chapter is boosted only when the question names it (or names nothing).
    passage_first: bool = False
    #: weigh each kind of material by how often it answers a question of the question's intent
    #: (:mod:`amicus_desktop.rerank.prior`): dictionary entries count less unless the question is about a word.
    source_priors: bool = False
    #: with no chapter open and no passage named, the chapter where the library's commentary on the question
    #: concentrates gets this boost (:mod:`amicus_desktop.rerank.focus`); ``None``: off.
    focus: float | None = None
    #: the open chapter boosts only where the question relates to it: its commentary evidence among the
    #: candidates (:func:`amicus_desktop.rerank.focus.chapter_relation`) must be at least this share of the best
    #: chapter's, or the chapter is set aside and the question ranked as with none open; ``None``: always.
    chapter_relation: float | None = None
    #: the open chapter's boost only for a candidate whose base is at least this share of the pool's best base
    #: (a passage of the chapter far from the question is not lifted over one on it); ``None``: every candidate.
    chapter_floor: float | None = None
    #: a question about a word also pools the commentary on the verses where the word is used, nearest the
    #: word's gloss (:mod:`amicus_desktop.candidates.bridge`)
    word_bridge: bool = False
    #: the keyword search looks for a full question's topic words, without the words that frame it ("What does the
    #: Bible say about", "How should Christians", "look like": :data:`amicus_desktop.understand.query.FRAMING_WORDS`)
    topic_words: bool = False
    #: the keyword search looks for a rare word's other spellings in the library too (Henry's "Melchizedec" for
    #: "Melchizedek", Strong's "chêsêd" for "hesed": :meth:`amicus_desktop.candidates.lexical.KeywordIndex.variants`)
    spelling_variants: bool = False
    #: a book named alone ("Who wrote Hebrews?") is read as a passage named: its introductions (its commentary tied
    #: to no chapter) get the reference boost, and the focus chapter is looked for in it
    #: (:func:`amicus_desktop.understand.books.named_books`)
    named_books: bool = False

    @property
    def is_contract(self) -> bool:
        return self == RankingPolicy()


class FusionMethod(enum.StrEnum):
    """How ``hybrid`` turns a chunk's similarity and keyword score into one ``base``."""

    CONVEX = "convex"  # alpha × similarity + (1 − alpha) × lexical
    RRF = "rrf"  # reciprocal rank fusion: 1/(k + rank by similarity) + 1/(k + rank by lexical)


@dataclass(frozen=True)
class Fusion:
    """The hybrid fusion and its constants (chosen by the relevance benchmark; docs/RELEVANCE.md)."""

    method: FusionMethod = FusionMethod.CONVEX
    alpha: float = 0.7
    rrf_k: int = 60


@dataclass(frozen=True)
class RetrievalContext:
    """Everything one retrieval depends on besides the database and the proxy.

    References are not here: they are read from ``query`` (see :mod:`amicus_desktop.understand`).
    """

    query: str
    profile: Profile = Profile()
    chapter: ChapterRef | None = None
    k: int = DEFAULT_K
    candidates: int = DEFAULT_CANDIDATES
    min_similarity: float | None = None
    weights: BoostWeights = BoostWeights()
    mode: SearchMode = SearchMode.SEMANTIC
    filters: Filters = Filters()
    #: chunk ids pinned by the reader, in the order given (CONTRACT section 6).
    pins: tuple[str, ...] = ()
    fusion: Fusion = Fusion()
    policy: RankingPolicy = RankingPolicy()
    #: the workspace whose notes join the candidates (CONTRACT section 11); ``None``: no note ever does.
    workspace: str | None = None
    #: the overlay's forbidden sources and vocabulary (CONTRACT section 12); ``None``: no overlay
    governance: Governance | None = None

    def replace(self, **changes: Any) -> RetrievalContext:
        return dataclasses.replace(self, **changes)

