"""What the searches look for in a question: its references, and the words for the keyword search.

:func:`plan` turns the question into a :class:`QueryPlan`. The keyword search gets the question's
words without stop-words and without the words of the references found in it (a reference is
searched as a passage, not as the words "Rom", "9", "11"). Each word becomes an FTS5 string
(``"word"``), joined with ``OR``: a chunk matches when it holds any of them, and characters that mean
something to FTS5 (``" * : ^ ( ) -``, ``AND``/``OR``/``NOT``/``NEAR``) are plain text. The index's
tokenizer stems and folds diacritics on both sides (see :mod:`amicus_desktop.store.fts`). An overlay's
boost terms (CONTRACT section 12) join the words, after the question's own.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from ..core.references import PassageRef
from .references import find_references, reference_spans

#: The Snowball English stop-word list (as used by NLTK and Lucene's English analyzer; BSD-licensed),
#: plus a few question words. God, Lord, Christ and the like are never stop-words here.
STOP_WORDS = frozenset(
    """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her
    hers herself it its itself they them their theirs themselves what which who whom this that these
    those am is are was were be been being have has had having do does did doing would should could
    ought i'm you're he's she's it's we're they're i've you've we've they've i'd you'd he'd she'd we'd
    they'd i'll you'll he'll she'll we'll they'll isn't aren't wasn't weren't hasn't haven't hadn't
    doesn't don't didn't won't wouldn't shan't shouldn't can't cannot couldn't mustn't let's that's
    who's what's here's there's when's where's why's how's a an the and but if or because as until
    while of at by for with about against between into through during before after above below to
    from up down in out on off over under again further then once here there when where why how all
    any both each few more most other some such no nor not only own same so than too very s t can
    will just don should now d ll m o re ve y ain aren couldn didn doesn hadn hasn haven isn ma
    mightn mustn needn shan shouldn wasn weren won wouldn
    tell say says mean means meaning explain does according
    """.split()
)

_WORD = re.compile(r"[^\W_]+")


def fold(word: str) -> str:
    """Lower-case without diacritics ("Agápē" → "agape"), as the index's tokenizer folds."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@dataclass(frozen=True)
class QueryPlan:
    """A question as the searches see it."""

    text: str
    references: tuple[PassageRef, ...]
    #: the words the keyword search looks for, in the order of the question, without repeats.
    keywords: tuple[str, ...]


def keywords(text: str, references: tuple[PassageRef, ...] = ()) -> tuple[str, ...]:
    """The words of ``text`` worth looking for: no stop-words, no words of the ``references``.

    A reference's words are taken out where the parser found them (by position, each span once), never
    by searching for its text: "John 3:1" occurs inside "John 3:16", and cutting it out there left "6".
    """
    if references:
        wanted = set(references)
        pieces: list[str] = []
        pos = 0
        for (start, end), passages in reference_spans(text):
            if wanted.intersection(passages):
                pieces.append(text[pos:start])
                pos = end
        pieces.append(text[pos:])
        text = " ".join(pieces)
    words: dict[str, None] = {}
    for m in _WORD.finditer(text):
        word = m.group(0)
        folded = fold(word)
        if folded in STOP_WORDS:
            continue
        words.setdefault(word.lower(), None)
    return tuple(words)


#: Words that frame a full question rather than name its topic — "What does the *Bible* say about…", "How should
#: *Christians*…", "What does repentance *look like*?", "Is it *ever right*…", "What can we *learn* from…". Under
#: the app's ranking (``RankingPolicy.topic_words``) the keyword search leaves them out when the question has other
#: words, so a full question's keyword half looks for its topic as a topic name's does (docs/RELEVANCE.md,
#: "Full questions across the whole Bible"). God and people are not among them: they name topics too.
FRAMING_WORDS = frozenset(
    """
    like look come make makes happen happens true ever right kind bible christians believers believer
    think learn find part play get getting called stay us
    """.split()
)


def topic_words(words: tuple[str, ...]) -> tuple[str, ...]:
    """``words`` without the question's framing words (:data:`FRAMING_WORDS`) — unless nothing else is left."""
    content = tuple(w for w in words if fold(w) not in FRAMING_WORDS)
    return content or words


def plan(text: str, boost_terms: tuple[str, ...] = (), *, framing: bool = True) -> QueryPlan:
    """References and keywords of a question (pure; the question is already validated). The words of an
    overlay's ``boost_terms`` are looked for too, after the question's own. ``framing=False`` (the app's
    ranking) leaves the question's framing words out (:func:`topic_words`)."""
    refs = tuple(find_references(text))
    words = keywords(text, refs)
    if not framing:
        words = topic_words(words)
    if boost_terms:
        words = tuple(dict.fromkeys((*words, *keywords(" ".join(boost_terms)))))
    return QueryPlan(text, refs, words)
