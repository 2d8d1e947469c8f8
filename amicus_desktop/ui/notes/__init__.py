"""The reader's own notes in the window: the notes pane (:mod:`.pane`) over its item model
(:mod:`.models`), what the window does with them (:mod:`.control`), and choosing the workspace
(:mod:`.workspaces`). Their state is the session's (``session/notes/``, ``session/workspaces.py``)."""

from .control import NotesControl
from .models import NoteRole, NotesModel
from .pane import NotesPane
from .workspaces import WorkspaceMenu, WorkspaceSwitcher

__all__ = ["NoteRole", "NotesControl", "NotesModel", "NotesPane", "WorkspaceMenu", "WorkspaceSwitcher"]
