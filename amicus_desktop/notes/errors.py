"""The notes store's own failures: :class:`NotesError` with a :class:`NotesCode`, in the one error tree.

``NotesError`` is an :class:`~amicus_desktop.core.errors.AmicusError` (see the tree there): a command that
works on notes prints it in the same ``{"error": {"code", "message"}}`` shape, the service answers its
status, and the window, asked a question scoped to a workspace whose store cannot be read, answers from
the library and says in a banner that the notes are unavailable and why. A store another process is
writing is ``NOTES_STORE_BUSY`` ("try again"), not ``NOTES_STORE_INVALID`` ("move it aside"): that advice
would make a reader set aside a healthy store. Messages never hold a note's text.
"""

from __future__ import annotations

import enum

from ..core.errors import AmicusError


class NotesCode(enum.StrEnum):
    """Why a notes operation failed."""

    #: a workspace id that is not 1–64 characters of ``[a-z0-9-]`` (a usage error where typed)
    WORKSPACE_INVALID = "WORKSPACE_INVALID"
    #: no note with that id in *this* workspace (a note of another workspace is never found)
    NOTE_NOT_FOUND = "NOTE_NOT_FOUND"
    #: empty or too long text, a reference that is not one, a field of the wrong type
    NOTE_INVALID = "NOTE_INVALID"
    #: a save that expected another version of the note (the UI's autosave met an edit elsewhere)
    NOTE_CONFLICT = "NOTE_CONFLICT"
    #: the store file cannot be opened, is not a notes store, or was written by a newer version
    NOTES_STORE_INVALID = "NOTES_STORE_INVALID"
    #: another process holds the store's write lock longer than a write waits: try again
    NOTES_STORE_BUSY = "NOTES_STORE_BUSY"


#: the codes that mean the store itself cannot be used now (not this note or this request)
STORE_CODES = frozenset({NotesCode.NOTES_STORE_INVALID, NotesCode.NOTES_STORE_BUSY})


class NotesError(AmicusError):
    """A notes operation that could not be done, with a code and a sentence for a person."""

    code: NotesCode

    def __init__(self, code: NotesCode, message: str) -> None:
        super().__init__(NotesCode(code), message)

    @property
    def notes_only(self) -> bool:
        """The store cannot be used (damaged, busy): the library can still answer without the notes."""
        return self.code in STORE_CODES
