"""A reader's pin and where it applies in the app: always, for a passage, or for questions like one. No Qt.

The contract's pins (CONTRACT section 6, ``--pin``) are constant: each is in every answer of the call, and
that stays so on the command line, the service and the MCP server. In the app a pin is the reader's, kept in
the settings file (and held by each workspace), and a reader pins a result *for* something:

``always``     every question (a constant entry, as the contract's ``--pin``; what every older pin is);
``passage``    while the chapter it was pinned in is the one the question is ranked for ("pinned for John 3");
``question``   questions like the one it was pinned for ("pinned for questions like “born again”") — the
               default, the narrow one.

:class:`PinScope` holds the scope of one pin (how the settings file writes it: CONTRACT section 6, "the app's
pin scopes"); a pin without one is ``always``, so a settings file from before scopes loads unchanged. Which
pins a question gets is :mod:`amicus_desktop.session.pins` (the rule for "alike" lives there, with its
measurement).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .core.references import ChapterRef

Scope = Literal["always", "passage", "question"]
SCOPES: tuple[Scope, ...] = ("question", "passage", "always")
#: The scope of a pin made without choosing (Ctrl+B, or a pin's first menu entry): the narrow one.
DEFAULT_SCOPE: Scope = "question"
MAX_ANCHOR_CHARS = 500


@dataclass(frozen=True)
class PinScope:
    """A pin's scope: ``anchor`` is the chapter (``book:chapter``) for ``passage``, the question pinned for (at
    most :data:`MAX_ANCHOR_CHARS` characters) for ``question``, empty for ``always``."""

    chunk_id: str
    scope: Scope
    anchor: str

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


__all__ = ["DEFAULT_SCOPE", "MAX_ANCHOR_CHARS", "SCOPES", "PinScope", "Scope", "scope_of"]
