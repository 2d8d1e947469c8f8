"""Moving a whole notes store: every workspace's notes and marks from one store into another (``notes copy``).

The way notes go from the desktop's SQLite file to a shared PostgreSQL store, and back (docs/DEPLOY.md).
Each workspace is read through its own :class:`~.workspace.Workspace` and written through the target's
(one transaction per workspace: a workspace is copied whole or not at all); notes and marks keep their
ids, times and passages. A note or mark whose id the target's workspace already holds is skipped, so a
copy that stopped half-way is simply run again. Vectors are not copied: the target embeds the notes the
next time a ``notes`` command or a question of the workspace reaches the proxy (they are *pending* until
then, searched by words).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .postgres import PgNotesStore
    from .store import NotesStore


@dataclass
class CopyReport:
    """What a copy did: workspaces read, notes and marks written, notes and marks already there."""

    workspaces: int = 0
    notes: int = 0
    marks: int = 0
    skipped: int = 0

    def to_json(self) -> dict[str, int]:
        return {"workspaces": self.workspaces, "notes": self.notes, "marks": self.marks, "skipped": self.skipped}


def copy_store(source: NotesStore | PgNotesStore, target: NotesStore | PgNotesStore) -> CopyReport:
    """Copy every workspace of ``source`` into ``target`` (see the module docstring)."""
    report = CopyReport()
    for workspace_id in source.workspace_ids():
        src, dst = source.workspace(workspace_id), target.workspace(workspace_id)
        report.workspaces += 1
        have = {n.id for n in dst.notes()}
        every = src.notes()
        notes = [n for n in every if n.id not in have]
        if notes:
            report.notes += len(dst.restore_all(notes))
        have_marks = {m.id for m in dst.marks().marks()}
        marks = [m for m in src.marks().marks() if m.id not in have_marks]
        if marks:
            report.marks += len(dst.marks().restore_all(marks))
        report.skipped += len(every) - len(notes)
    return report
