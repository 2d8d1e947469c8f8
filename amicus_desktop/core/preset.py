"""What a reader gets: the app's default configuration, in one place (``--preset app``, CONTRACT section 15).

The app's settings start from :data:`APP` on a fresh install, and ``query``/``context``/``eval``
``--preset app`` apply exactly the same values (flags given explicitly still win), so anyone can measure
from the command line what a reader sees. Without a preset the commands keep the contract's defaults
(sections 3–8): semantic search, the hard per-scholar cap, no ranking policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from .query import DEFAULT_CANDIDATES, DEFAULT_K, BoostWeights, Fusion, RankingPolicy, SearchMode


@dataclass(frozen=True)
class Preset:
    """A whole retrieval configuration (everything but the question, the chapter, profile, filters, pins)."""

    name: str
    mode: SearchMode
    fusion: Fusion
    weights: BoostWeights
    k: int
    candidates: int
    policy: RankingPolicy


#: The contract's defaults (CONTRACT section 3): what ``query`` does without a preset.
CONTRACT = Preset("contract", SearchMode.SEMANTIC, Fusion(), BoostWeights(), DEFAULT_K, DEFAULT_CANDIDATES,
                  RankingPolicy())

#: The desktop app on a fresh install. Hybrid search with convex fusion α 0.7, the contract's boosts, and
#: the reader-facing policy: lists spread over their sources instead of cut short (×0.85 past 3 chunks of
#: a source), a passage the question names before the open chapter, dictionary entries weighed by the
#: question's intent, with no chapter open the chapter the library's commentary centres on boosted ×1.2, and
#: the open chapter applied only to a question that relates to it (its commentary evidence at least 0.8 of the
#: best chapter's; otherwise ranked as with none open), and the keyword half looking for a full question's topic
#: words, not the words that frame it, and a rare word's other spellings, and a book named alone read as its
#: introductions. Every value is chosen by the relevance benchmark
#: (docs/RELEVANCE.md).
APP = Preset("app", SearchMode.HYBRID, Fusion(), BoostWeights(per_scholar_cap=3), DEFAULT_K, DEFAULT_CANDIDATES,
             RankingPolicy(spread=0.85, passage_first=True, source_priors=True, focus=1.2, chapter_relation=0.8,
                           word_bridge=True, topic_words=True, spelling_variants=True,
                           named_books=True))

PRESETS: dict[str, Preset] = {p.name: p for p in (APP, CONTRACT)}
