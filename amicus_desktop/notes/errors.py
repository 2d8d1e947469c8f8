"""The notes store's own failures: :class:`NotesError` with a :class:`NotesCode`.

They never cross the retrieval contract's error path (section 5): a command that works on notes
prints them in the same ``{"error": {"code", "message"}}`` shape, and a question scoped to a
workspace whose store cannot be read fails with the sentence, not a traceback. Messages never hold a
note's text.
"""

from __future__ import annotations

import enum


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


class NotesError(Exception):
    """A notes operation that could not be done, with a code and a sentence for a person."""

    def __init__(self, code: NotesCode, message: str) -> None:
        super().__init__(message)
        self.code = NotesCode(code)
        self.message = message

    def to_json(self) -> dict[str, dict[str, str]]:
        return {"error": {"code": self.code.value, "message": self.message}}

    def __repr__(self) -> str:
        return f"NotesError({self.code.value}, {self.message!r})"
