"""The reader's own notes, in workspaces that never leak into each other (CONTRACT section 11).

- :mod:`.store` — :class:`NotesStore`, the SQLite file in the user's data folder; its only door to a
  note is :meth:`NotesStore.workspace`;
- :mod:`.workspace` — :class:`Workspace`: add, save (autosave), edit, remove, restore, list, the
  vectors of one workspace;
- :mod:`.model` — :class:`Note` and the rules for ids, text and references;
- :mod:`.schema` — the layout, its version and the upgrades (docs/NOTES.md);
- :mod:`.errors` — :class:`NotesError`.

No Qt, no HTTP: embedding goes through :mod:`amicus_desktop.embedding` from the callers.
"""

from .errors import NotesCode, NotesError
from .model import NOTE_SOURCE_ID, NOTE_SOURCE_TYPE, WORKSPACE_ID, Note, check_workspace, parse_ref
from .store import NotesStore
from .workspace import KEEP, Workspace

__all__ = [
    "KEEP",
    "NOTE_SOURCE_ID",
    "NOTE_SOURCE_TYPE",
    "WORKSPACE_ID",
    "Note",
    "NotesCode",
    "NotesError",
    "NotesStore",
    "Workspace",
    "check_workspace",
    "parse_ref",
]
