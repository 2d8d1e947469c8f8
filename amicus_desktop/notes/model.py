"""A note as plain data, and the rules its parts follow: workspace ids, note ids, text, references.

No I/O here. The store (:mod:`.store`) checks everything through these functions before writing,
so a note that is in the store is always one these rules allow.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from ..core.books import BY_ID
from ..core.query import USER_NOTE
from ..core.references import PassageRef
from ..core.results import ChunkMetadata
from ..understand import PassageError, parse_passage
from .errors import NotesCode, NotesError

#: CONTRACT section 11: a workspace id is 1–64 characters of ``[a-z0-9-]``.
WORKSPACE_ID = re.compile(r"[a-z0-9-]{1,64}")
#: A note id: ``note:`` and 1–64 characters of ``[A-Za-z0-9._-]`` (the store makes ``note:`` + 16 hex
#: digits; an imported note keeps its own id when it has this form and is free in the workspace).
NOTE_ID = re.compile(r"note:[A-Za-z0-9._-]{1,64}")
#: The most text one note may hold (a long sermon outline fits; a book does not).
MAX_NOTE_CHARS = 100_000
#: How much of a note is embedded: its opening, as much as a question may be (the model reads
#: about 256 word pieces of it anyway, and every proxy accepts this much).
EMBED_CHARS = 2000
#: ``source_type`` and ``source_id`` of a note among the candidates (CONTRACT section 11).
NOTE_SOURCE_TYPE = USER_NOTE
NOTE_SOURCE_ID = "note"
#: a book id of a note's reference (the canon's ids, or another library's own of the same form)
_BOOK_ID = re.compile(r"[a-z0-9-]{1,64}")


def check_workspace(workspace: object) -> str:
    """``workspace`` when it is a valid workspace id, else ``WORKSPACE_INVALID``."""
    if not isinstance(workspace, str) or not WORKSPACE_ID.fullmatch(workspace):
        raise NotesError(NotesCode.WORKSPACE_INVALID,
                         "A workspace id is 1–64 characters of lower-case letters a-z, digits and '-'.")
    return workspace


def new_note_id() -> str:
    """A fresh note id: ``note:`` and 16 random hex digits (64 bits: a clash is re-drawn anyway)."""
    return f"note:{secrets.token_hex(8)}"


def is_note_id(text: object) -> bool:
    return isinstance(text, str) and NOTE_ID.fullmatch(text) is not None


def now() -> str:
    """The time of a change as ISO 8601 UTC with milliseconds: ``2026-11-26T14:56:07.123Z``."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def check_time(value: object) -> str | None:
    """``value`` as the store writes times, when it is an ISO 8601 time (a date alone is midnight UTC);
    ``None`` when it is not one."""
    if not isinstance(value, str) or len(value) > 64:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return when.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def check_text(text: object) -> str:
    """A note's text as it will be stored, or ``NOTE_INVALID`` (empty, too long, not valid text)."""
    if not isinstance(text, str) or not text.strip():
        raise NotesError(NotesCode.NOTE_INVALID, "A note needs some text.")
    if len(text) > MAX_NOTE_CHARS:
        raise NotesError(NotesCode.NOTE_INVALID,
                         f"The note is {len(text):,} characters long; a note holds at most {MAX_NOTE_CHARS:,}.")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        raise NotesError(NotesCode.NOTE_INVALID, "The note holds characters that are not valid text.") from None
    if "\x00" in text:
        raise NotesError(NotesCode.NOTE_INVALID, "The note holds a NUL character.")
    return text


def parse_ref(text: str) -> PassageRef:
    """A reference as a reader types it (``"Rom 9:11"``, ``"John 3"``, ``"1 Cor 13:4-7"``) — the
    project's one reference parser — or ``NOTE_INVALID`` saying why not."""
    try:
        ref = parse_passage(text, check_bounds=True)
    except PassageError as exc:
        raise NotesError(NotesCode.NOTE_INVALID, str(exc)) from None
    return replace(ref, text="")


def check_ref(book_id: object, chapter: object, verse_start: object = None, verse_end: object = None) -> PassageRef:
    """A reference from its parts (an imported note's ``ref``), or ``NOTE_INVALID`` naming the part.

    A verse range without its end is one verse; a canonical book's chapter must exist.
    """
    if not isinstance(book_id, str) or not _BOOK_ID.fullmatch(book_id):
        raise NotesError(NotesCode.NOTE_INVALID, "ref.book_id is not a book id such as 'romans' or '1-corinthians'.")
    for name, value in (("chapter_num", chapter), ("verse_start", verse_start), ("verse_end", verse_end)):
        if value is None and name != "chapter_num":
            continue
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 10_000:
            raise NotesError(NotesCode.NOTE_INVALID, f"ref.{name} must be a whole number from 1.")
    assert isinstance(chapter, int)
    start = verse_start if isinstance(verse_start, int) else None
    end = verse_end if isinstance(verse_end, int) else None
    if start is None and end is not None:
        raise NotesError(NotesCode.NOTE_INVALID, "ref.verse_end needs a verse_start.")
    if start is not None and end is None:
        end = start
    if start is not None and end is not None and end < start:
        raise NotesError(NotesCode.NOTE_INVALID, "ref.verse_end is before ref.verse_start.")
    book = BY_ID.get(book_id)
    if book is not None and chapter > book.chapters:
        raise NotesError(NotesCode.NOTE_INVALID, f"{book.name} has {book.chapters} chapters.")
    return PassageRef(book_id, chapter, start, end)


def ref_json(ref: PassageRef | None) -> dict[str, Any] | None:
    """The contract's ``ref`` object: ``{"book_id", "chapter_num", "verse_start", "verse_end"}`` or ``None``."""
    if ref is None:
        return None
    return {"book_id": ref.book_id, "chapter_num": ref.chapter, "verse_start": ref.verse_start,
            "verse_end": ref.verse_end}


@dataclass(frozen=True)
class Note:
    """One note of one workspace, as stored.

    ``created`` and ``updated`` are ISO 8601 UTC (see :func:`now`); ``ref`` is the passage the note is
    on (``None`` for a note on no passage); ``models`` the embedding models it has a vector of.
    """

    id: str
    workspace: str
    text: str
    ref: PassageRef | None
    created: str
    updated: str
    models: tuple[str, ...] = ()

    def embedded_with(self, model_id: str) -> bool:
        return model_id in self.models

    @property
    def metadata(self) -> ChunkMetadata:
        """The note as a chunk's metadata: its reference, no scholar, no tradition."""
        ref = self.ref
        if ref is None:
            return ChunkMetadata()
        return ChunkMetadata(book_id=ref.book_id, chapter_num=ref.chapter, verse_start=ref.verse_start,
                             verse_end=ref.verse_end)

    def to_json(self) -> dict[str, Any]:
        """The export format's note (CONTRACT section 11): ``{"id", "text", "ref", "created", "updated"}``."""
        return {"id": self.id, "text": self.text, "ref": ref_json(self.ref), "created": self.created,
                "updated": self.updated}
