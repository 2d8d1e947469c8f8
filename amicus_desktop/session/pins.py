"""Which of the reader's pins a question gets: the scopes of :mod:`amicus_desktop.pin_scopes` applied. No Qt.

The contract's pins (CONTRACT section 6, ``--pin``) are constant: each is in every answer of the call, and
that stays so on the command line, the service and the MCP server. In the app a pin is the reader's, kept in
the settings file (and held by each workspace), and a reader pins a result *for* something:

``always``     every question (a constant entry, as the contract's ``--pin``; what every older pin is);
``passage``    while the chapter it was pinned in is the one the question is ranked for ("pinned for John 3");
``question``   questions like the one it was pinned for (:func:`alike`: "pinned for questions like
               “born again”") — the default, the narrow one.

A pin that does not apply to a question is not asked for (:func:`applying`, through the session's one
``context``): it is neither in the results nor in the copied context.

**Questions like this one.** Two questions are alike when at least half of the pinned question's content
words, and at least two of them (one, for a question of one), are in the new one: the keyword search's words,
stop-words out, accents folded, compared on their first five letters so that "baptism" meets "baptized" and
"government" meets "governing". A pinned question with no content words is alike only to itself. Measured on
the demo golden set (``research/measure/pin_scopes.py``, docs/UI.md "Pins"): a pin follows 8 of 27 rephrasings
of its question and 26 of 17,988 ordered pairs of questions that share no relevant passage (0.14 %); one
shared word was enough for 10 of 27 but carried pins to 1.5 % of the unrelated pairs ("Is the law itself sin?"
to every question about sin). Words cannot bridge "original sin" and "Are people born sinful?": such a pin is
pinned for the passage, or always.
"""

from __future__ import annotations

import re

from ..core.references import ChapterRef
from ..pin_scopes import PinScope, scope_of
from ..understand.query import fold, keywords

#: The share of the pinned question's content words a new question must hold to be "like" it, and how many.
ALIKE_SHARE = 0.5
ALIKE_WORDS = 2
_PREFIX = 5
_WORDS = re.compile(r"[^\W_]+")


def content_words(text: str) -> frozenset[str]:
    """The words of ``text`` that say what it is about, folded and cut to their first five letters."""
    return frozenset(fold(w)[:_PREFIX] for w in keywords(text) if len(w) >= 3 and not w.isdigit())


def alike(pinned: str, question: str) -> bool:
    """Whether ``question`` is like ``pinned`` (the question a pin was made for): see the module's text."""
    ours = content_words(pinned)
    if not ours:
        return _WORDS.findall(fold(pinned)) == _WORDS.findall(fold(question))
    shared = len(ours & content_words(question))
    return shared / len(ours) >= ALIKE_SHARE and shared >= min(ALIKE_WORDS, len(ours))


def applies(pin: PinScope, question: str, chapter: ChapterRef | None) -> bool:
    """Whether ``pin`` belongs in the answer to ``question`` ranked for ``chapter`` (``None``: none)."""
    if pin.scope == "always":
        return True
    if pin.scope == "passage":
        return chapter is not None and str(chapter) == pin.anchor
    return alike(pin.anchor, question)


def applying(pins: tuple[str, ...], scopes: tuple[PinScope, ...], question: str,
             chapter: ChapterRef | None) -> tuple[str, ...]:
    """The pins (in pin order) that belong in the answer to ``question`` ranked for ``chapter``."""
    return tuple(p for p in pins if applies(scope_of(scopes, p), question, chapter))


__all__ = ["ALIKE_SHARE", "ALIKE_WORDS", "alike", "applies", "applying", "content_words"]
