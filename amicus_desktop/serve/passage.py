"""A reference ("Romans 9:6-13", "John 3") as its verses, from the library's ``verses`` (or another translation it
holds, named by id or abbreviation): ``GET /passage`` and the MCP tool ``read_passage``.

Pure but for the store it is handed; errors are :class:`~.errors.ServiceError`
(``BAD_REQUEST`` for what is not a reference, ``PASSAGE_NOT_FOUND`` when the library holds no verse of it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.references import PassageRef
from ..store.library import LibraryStore
from ..store.verse_reader import Translation
from ..understand import PassageError, parse_passage
from .errors import ServiceCode, ServiceError, bad_request
from .library import Facts

#: characters of a reference accepted (a reference is short; anything longer is not one)
MAX_REFERENCE = 200


@dataclass(frozen=True)
class Passage:
    """The verses of one reference, headed by the reference as the library names it."""

    ref: PassageRef
    heading: str
    verses: tuple[tuple[int, str], ...]
    translation: Translation | None = None

    @property
    def text(self) -> str:
        return "\n".join([self.heading, "", *(f"{n} {t}" for n, t in self.verses)])

    def to_json(self) -> dict[str, Any]:
        t = self.translation
        return {"reference": self.heading, "book_id": self.ref.book_id, "chapter_num": self.ref.chapter,
                "verse_start": self.ref.verse_start, "verse_end": self.ref.verse_end,
                "translation": None if t is None else {"id": t.translation_id, "name": t.name,
                                                       "abbreviation": t.abbreviation},
                "verses": [{"verse": n, "text": t} for n, t in self.verses]}


def parse_reference(reference: str, facts: Facts) -> PassageRef:
    if not isinstance(reference, str) or not reference.strip():
        raise bad_request("Give a reference such as 'Romans 9:6-13' or 'John 3'.")
    if len(reference) > MAX_REFERENCE:
        raise bad_request(f"A reference is at most {MAX_REFERENCE} characters.")
    try:
        return parse_passage(reference, facts.book_ids, check_bounds=True)
    except PassageError as exc:
        raise bad_request(str(exc)) from None


def translation_of(store: LibraryStore, name: str | None) -> Translation | None:
    """(DB thread) The translation ``name`` (id or abbreviation, any case; ``None``: the default) — a 400 for
    one the library does not hold."""
    index = store.verse_index()
    if name is None:
        return index.default
    wanted = name.strip().lower()
    for t in index.translations.values():
        if wanted in (t.translation_id.lower(), t.abbreviation.lower()):
            return t
    held = ", ".join(t.translation_id for t in index.translations.values()) or "none"
    raise bad_request(f"This library holds no translation called {name[:40]!r} (it holds: {held}).")


def read_passage(store: LibraryStore, facts: Facts, reference: str, translation: str | None = None) -> Passage:
    """(DB thread) The verses ``reference`` names, in ``translation`` (the default translation's otherwise)."""
    ref = parse_reference(reference, facts)
    chosen = translation_of(store, translation)
    heading = ref.label(facts.names.book(ref.book_id))
    rows = store.chapter(ref.book_id, ref.chapter)
    if chosen is not None and chosen.verse_table != "verses":  # another translation: its own text
        held = dict(store.verse_index().chapter(chosen, ref.book_id, ref.chapter))
        rows = [(n, held[n]) for n, _ in rows if n in held]
    if ref.verse_start is not None:
        end = ref.verse_end if ref.verse_end is not None else ref.verse_start
        rows = [(n, t) for n, t in rows if ref.verse_start <= n <= end]
    if not rows:
        raise ServiceError(ServiceCode.PASSAGE_NOT_FOUND,
                           f"This library holds no verses of {heading}." if store.info.has_verses
                           else "This library holds no Bible text (its database has no verses table).")
    return Passage(ref, heading, tuple(rows), chosen)
