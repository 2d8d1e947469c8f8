"""The reader's own notes in the app, without Qt: the workspace's notes on their own thread
(:mod:`.desk`), the note being written and its autosave (:mod:`.editor`), searching the note list
(:mod:`.find`), and the rules that tie them to the session (:mod:`.notebook`). The workspaces themselves
are :mod:`amicus_desktop.session.workspaces`; the store is :mod:`amicus_desktop.notes` (docs/NOTES.md).
"""

from .desk import NoteListing, NotesDesk, NotesOnChapter
from .editor import AUTOSAVE_SECONDS, EditorState, EditorStatus, NoteEditor
from .find import find_notes
from .notebook import Notebook, NotebookParts

__all__ = [
    "AUTOSAVE_SECONDS",
    "EditorState",
    "EditorStatus",
    "NoteEditor",
    "NoteListing",
    "Notebook",
    "NotebookParts",
    "NotesDesk",
    "NotesOnChapter",
    "find_notes",
]
