"""Where a reader's pin applies in the app: always, for a passage, or for questions like one. No Qt.

The contract's pins (CONTRACT section 6, ``--pin``) are constant: each is in every answer of the call, and
that stays so on the command line, the service and the MCP server. In the app a pin is the reader's, kept in
the settings file (and held by each workspace), and a reader pins a result *for* something:

``always``     every question (a constant entry, as the contract's ``--pin``; what every older pin is);
``passage``    while the chapter it was pinned in is the one the question is ranked for ("pinned for John 3");
``question``   questions like the one it was pinned for (:func:`alike`: "pinned for questions like
               “born again”") — the default, the narrow one.

A pin that does not apply to a question is not asked for: it is neither in the results nor in the copied
context. :class:`PinScope` holds the scope of one pin; a pin without one is ``always`` (so a settings file
from before scopes loads unchanged).

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
from dataclasses import dataclass
from typing import Any, Literal

from .core.references import ChapterRef
from .understand.query import fold, keywords

Scope = Literal["always", "passage", "question"]
SCOPES: tuple[Scope, ...] = ("question", "passage", "always")
#: The scope of a pin made without choosing (Ctrl+B, or a pin's first menu entry): the narrow one.
DEFAULT_SCOPE: Scope = "question"
#: The share of the pinned question's content words a new question must hold to be "like" it, and how many.
ALIKE_SHARE = 0.5
ALIKE_WORDS = 2
_PREFIX = 5
_WORDS = re.compile(r"[^\W_]+")
MAX_ANCHOR_CHARS = 500


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


@dataclass(frozen=True)
class PinScope:
    """A pin's scope other than ``always``: ``anchor`` is the chapter (``book:chapter``) for ``passage``, the
    question pinned for (at most :data:`MAX_ANCHOR_CHARS` characters) for ``question``."""

    chunk_id: str
    scope: Scope
    anchor: str

    def applies(self, question: str, chapter: ChapterRef | None) -> bool:
        """Whether the pin belongs in the answer to ``question`` ranked for ``chapter`` (``None``: none)."""
        if self.scope == "always":
            return True
        if self.scope == "passage":
            return chapter is not None and str(chapter) == self.anchor
        return alike(self.anchor, question)

    @property
    def chapter(self) -> ChapterRef | None:
        """The chapter of a ``passage`` pin (``None`` for the other scopes)."""
        if self.scope != "passage":
            return None
        book, _, number = self.anchor.rpartition(":")
        return ChapterRef(book, int(number))

    def to_json(self) -> dict[str, str]:
        key = "chapter" if self.scope == "passage" else "question"
        return {"chunk_id": self.chunk_id, "scope": self.scope, key: self.anchor}

    @classmethod
    def from_json(cls, data: Any) -> PinScope:
        """One entry of the settings' ``pin_scopes`` (``ValueError``/``TypeError`` when it is not one)."""
        if not isinstance(data, dict):
            raise TypeError("not an object")
        chunk_id, scope = data.get("chunk_id"), data.get("scope")
        if not isinstance(chunk_id, str) or not chunk_id.strip():
            raise ValueError("no chunk_id")
        if scope == "passage":
            anchor = data.get("chapter")
            book, _, number = anchor.rpartition(":") if isinstance(anchor, str) else ("", "", "")
            if not book or not number.isdigit() or int(number) < 1:
                raise ValueError("a passage pin needs chapter BOOK:CHAPTER")
        elif scope == "question":
            anchor = data.get("question")
            if not isinstance(anchor, str) or not anchor.strip() or len(anchor) > MAX_ANCHOR_CHARS:
                raise ValueError("a question pin needs its question")
        elif scope == "always":
            anchor = ""
        else:
            raise ValueError(f"unknown scope {scope!r}")
        return cls(chunk_id, scope, str(anchor))


def scope_of(scopes: tuple[PinScope, ...], chunk_id: str) -> PinScope:
    """The scope of pin ``chunk_id`` among ``scopes`` (``always`` when it has none)."""
    return next((s for s in scopes if s.chunk_id == chunk_id), PinScope(chunk_id, "always", ""))


def applying(pins: tuple[str, ...], scopes: tuple[PinScope, ...], question: str,
             chapter: ChapterRef | None) -> tuple[str, ...]:
    """The pins (in pin order) that belong in the answer to ``question`` ranked for ``chapter``."""
    return tuple(p for p in pins if scope_of(scopes, p).applies(question, chapter))


__all__ = ["ALIKE_SHARE", "ALIKE_WORDS", "DEFAULT_SCOPE", "SCOPES", "PinScope", "Scope", "alike", "applying",
           "content_words", "scope_of"]
