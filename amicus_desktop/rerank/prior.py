"""The source prior of the app's ranking: how much each kind of material counts for a question's intent.

The library is two-thirds dictionary: Strong's and Abbott-Smith's entries outnumber the commentary
sections eight to one, and on a question about a topic ("hope", "Jesus and Nicodemus") they win on a
shared name or gloss — "Sergius Paulus" for Paul, Jacob's well for "Jacob and Esau". A reader asking
about a topic wants commentary first; a reader asking what a word means ("agape", "what does
propitiation mean") wants the lexicon. So the prior is a multiplier by kind of material, chosen by the
question's intent (:func:`word_question`), with values measured on the golden set (docs/RELEVANCE.md).

Pure: the kind of a chunk is read from its source type and, for lexicon entries, its headword — a
capitalised Greek headword is a proper name, Strong's "primary numeral"/"ordinal" a number.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Mapping, Sequence

from ..candidates.bridge import names_someone
from ..core.query import USER_NOTE
from ..core.references import PassageRef
from ..core.results import Candidate, Origin
from ..understand.query import fold, keywords
from ..understand.references import reference_spans
from ..understand.spelling import same_word


class Material(enum.StrEnum):
    """What a chunk is, for the prior (finer than the source type for dictionary entries)."""

    COMMENTARY = "commentary"  # section and chapter panels
    WORD_STUDY = "word_study"
    LEXICON = "lexicon"  # a dictionary entry of a word
    NAME = "name"  # a dictionary entry of a proper name (person, place)
    NUMBER = "number"  # a dictionary entry of a numeral
    NAME_STUDY = "name_study"  # a word study of a proper name (where the book mentions Jacob, Lazarus)
    CROSS_REFERENCE = "cross_reference"  # chains and topical lists
    FAQ = "faq"
    #: the reader's own notes (``user_note``): they count fully, as commentary does, whatever the intent
    NOTE = "note"
    OTHER = "other"


#: kind of material → multiplier, by intent. Commentary is the unit; values from the golden set's
#: training half (docs/RELEVANCE.md, "The source prior").
TOPIC_PRIORS: Mapping[Material, float] = {
    Material.COMMENTARY: 1.0,
    Material.WORD_STUDY: 0.8,
    Material.LEXICON: 0.5,
    Material.NAME: 0.3,
    Material.NUMBER: 0.3,
    Material.NAME_STUDY: 0.6,
    Material.CROSS_REFERENCE: 0.6,
    Material.FAQ: 0.8,
    Material.NOTE: 1.0,
    Material.OTHER: 1.0,
}
#: the same when no chapter applies (none open, the open one set aside, or another passage named): then the
#: whole library's dictionary competes with the commentary, and on a whole Bible it is two-thirds of the library
#: (docs/RELEVANCE.md, "Answers across the whole Bible")
WIDE_PRIORS: Mapping[Material, float] = {
    **TOPIC_PRIORS,
    Material.WORD_STUDY: 0.5,
    Material.LEXICON: 0.3,
}
WORD_PRIORS: Mapping[Material, float] = {
    Material.COMMENTARY: 1.0,
    Material.WORD_STUDY: 1.0,
    Material.LEXICON: 1.0,
    Material.NAME: 0.8,
    Material.NUMBER: 0.8,
    Material.NAME_STUDY: 1.0,
    Material.CROSS_REFERENCE: 0.9,
    Material.FAQ: 0.8,
    Material.NOTE: 1.0,
    Material.OTHER: 1.0,
}

#: the kinds that are about one word
_DICTIONARY = frozenset({Material.LEXICON, Material.NAME, Material.NUMBER, Material.WORD_STUDY, Material.NAME_STUDY})
#: "Word study: Ἰακώβ (Iakṓb), …": the headword after the label
_STUDY_HEAD = "Word study: "

_KIND = {
    "section_panel": Material.COMMENTARY,
    "chapter_panel": Material.COMMENTARY,
    "word_study": Material.WORD_STUDY,
    "lexicon_entry": Material.LEXICON,
    "cross_ref_thread_note": Material.CROSS_REFERENCE,
    "meta_faq": Material.FAQ,
    USER_NOTE: Material.NOTE,
}
_NUMERAL = re.compile(r"\b(?:primary numeral|ordinal from|cardinal number)\b", re.IGNORECASE)
#: "what does X mean", "the Greek word for love", "define grace" …
_WORD_CUES = re.compile(
    r"\b(?:mean|means|meaning|meant|define|definition|greek|hebrew|aramaic|word|words|translated|"
    r"translation|lexicon|etymology|strong'?s)\b",
    re.IGNORECASE,
)
#: what the cues above do not count: "what does it mean that the Word became flesh" asks about a statement,
#: "the Word" (John's title of Christ) is no question about a word, nor is "the meaning of life"
_NOT_CUES = re.compile(r"\bit\s+means?\s+(?:that|to|for|when|if)\b|\bthe Word\b"
                       r"|(?i:\bmeaning\s+of\s+(?:life|it\s+all)\b)")
#: "What is grace?", "What is the Logos?": a short definitional question
_DEFINITION = re.compile(r"^\s*what\s+(?:is|are|was)\s+(?:an?\s+|the\s+)?(?:[\w'’-]+\s*){1,3}\??\s*$", re.IGNORECASE)
#: "(Abbâ, ab-bah')" — a Strong's entry's transliteration, after its headword (Hebrew headwords may give two
#: spellings: "שׁלם שׁלום (shâlôm shâlôm, …")
_TRANSLITERATION = re.compile(r"^[^()]+?\s+\(([^,()]+),")
#: a word study's head: its first lines — the word, its meaning, how the WEB renders it; the verses it quotes follow
_HEAD_LINES = 3
_TOKEN = re.compile(r"\w+")
#: words compared by their first five letters, so that "forgiveness" meets "forgive" and "wrathful" meets "wrath"
_STEM = 5


#: a note on one verse expounds that verse (Spurgeon on the Psalms, Henry on Proverbs proverb by proverb) — unless
#: it is headed by its subject ("Comforter: …", "24:51 heaven: …") or continues such a note ("(2) As a dispensation")
_HEADED = re.compile(r"^\s*(?:\d+:\d+\s+)?[^\W\d][\w'’ ,-]{0,40}:\s")
_CONTINUED = re.compile(r"^\s*\(\d+\)")
#: what such a note weighs when no chapter applies to a topical question naming no passage (docs/RELEVANCE.md,
#: "Notes on one verse")
VERSE_NOTE_PRIOR = 0.8


def material(candidate: Candidate) -> Material:
    """The kind of material ``candidate`` is."""
    kind = _KIND.get(candidate.source_type, Material.OTHER)
    if kind is Material.WORD_STUDY:
        text = candidate.text.lstrip()
        if text.startswith(_STUDY_HEAD) and text[len(_STUDY_HEAD):][:1].isupper():
            return Material.NAME_STUDY
        return kind
    if kind is Material.LEXICON:
        text = candidate.text.lstrip()
        if text[:1].isupper() or names_someone(text):  # Greek and Latin headwords of names are capitalised
            return Material.NAME
        if _NUMERAL.search(text[:300]):
            return Material.NUMBER
    return kind


def transliterations(candidate: Candidate) -> frozenset[str]:
    """A dictionary entry's transliterated headword, folded (``agape``; both spellings of a Hebrew headword that
    gives two), when its text gives one."""
    if candidate.source_type != "lexicon_entry":
        return frozenset()
    m = _TRANSLITERATION.match(candidate.text.lstrip())
    return frozenset(fold(m.group(1)).replace("-", "").split()) if m else frozenset()


def word_question(question: str, references: Sequence[PassageRef], candidates: Iterable[Candidate]) -> bool:
    """Whether the question asks about a word: a cue ("mean", "Greek") or a question word that is a
    dictionary headword's transliteration in the pool ("agape", "logos"; spelt any way: "hesed" for "chêsêd",
    :func:`~amicus_desktop.understand.spelling.same_word`)."""
    if _WORD_CUES.search(_NOT_CUES.sub(" ", question)) or _DEFINITION.match(question):
        # "What does John 3:16 mean?" asks what a passage means: with the references cut out, no word is left
        return not references or bool(keywords(_without_references(question)))
    folded = {fold(k) for k in keywords(question, tuple(references))}
    # a proper name's transliteration is the English name itself ("Esau"): asking about Esau is not asking
    # what a Greek word means; a transliteration is compared as spelt any way ("hesed" is Strong's "chêsêd")
    return bool(folded) and any(
        material(c) is Material.LEXICON and any(same_word(t, k) for t in transliterations(c) for k in folded)
        for c in candidates
    )


def _stem(word: str) -> str:
    return fold(word)[:_STEM]


def word_stems(question: str, references: Sequence[PassageRef] = ()) -> frozenset[str]:
    """The question's keywords as :func:`about_another_word` compares them."""
    return frozenset(_stem(k) for k in keywords(question, tuple(references)))


def about_another_word(candidate: Candidate, stems: frozenset[str]) -> bool:
    """Whether ``candidate`` is a word study whose head — the word, its meaning, how the WEB renders it — holds
    none of the question's ``stems`` (:func:`word_stems`): it matched through the verses it quotes, and is about
    another word (δύναμαι "to be able", quoting Ephesians 6:11, for "What is the armor of God?"). The book it is
    studied in ("… in Ecclesiastes") is no word of its head."""
    if not stems or material(candidate) is not Material.WORD_STUDY:
        return False
    head = candidate.text.lstrip().split("\n", _HEAD_LINES)[:_HEAD_LINES]
    book = candidate.metadata.book_id or ""  # "… in Ecclesiastes": the book it is studied in is no word of its own
    own = {t for line in head for t in _TOKEN.findall(line) if fold(t) not in book.split("-")}
    return not any(_stem(t) in stems for t in own)


def _without_references(question: str) -> str:
    """``question`` with the passages it names cut out (by position)."""
    out, end = [], 0
    for (start, stop), _refs in reference_spans(question):
        out.append(question[end:start])
        end = stop
    return " ".join([*out, question[end:]])


def source_prior(candidate: Candidate, about_a_word: bool, wide: bool = False,
                 stems: frozenset[str] = frozenset()) -> float:
    """The multiplier for ``candidate``'s kind of material under the question's intent (``wide``: no chapter
    applies to the question, :data:`WIDE_PRIORS`).

    A question about a word lifts the dictionary's penalty only for entries about *its* word: one that holds
    none of the question's words (a keyword score of 0 — hybrid and keyword modes measure it) is as
    unrelated as it would be to a topical question (φθάνω "to be beforehand" for "what does propitiation
    mean?", when the library has no entry for the word), and so is a word study whose head holds none of the
    question's ``stems`` (:func:`about_another_word`).
    """
    kind = material(candidate)
    holds_none = Origin.WORD not in candidate.origins and (  # the bridge: the word's own
        candidate.lexical == 0.0 or about_another_word(candidate, stems))
    if about_a_word and not (kind in _DICTIONARY and holds_none):
        return WORD_PRIORS[kind]
    return (WIDE_PRIORS if wide else TOPIC_PRIORS)[kind]


def verse_exposition(candidate: Candidate) -> bool:
    """Whether ``candidate`` is a commentary note on one verse that expounds it (:data:`VERSE_NOTE_PRIOR`): a
    ``note`` panel whose verses are one, not headed by a subject nor continuing a headed note."""
    meta = candidate.metadata
    if material(candidate) is not Material.COMMENTARY or meta.panel_type != "note" or meta.verse_start is None:
        return False
    if (meta.verse_end or meta.verse_start) != meta.verse_start:
        return False
    return not (_HEADED.match(candidate.text) or _CONTINUED.match(candidate.text))
