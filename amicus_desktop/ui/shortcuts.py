"""Every keyboard shortcut in one table: it creates the window's actions and feeds the help window."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

Key = QKeySequence.StandardKey | str


@dataclass(frozen=True)
class Shortcut:
    """``keys``: standard keys first (platform conventions), then explicit fallbacks."""

    id: str
    title: str
    keys: tuple[Key, ...]
    group: str
    #: keys a widget handles itself while it has the focus (listed in help; no window action)
    local: bool = False


SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("focus_ask", "Focus the question box", (QKeySequence.StandardKey.Find, "Ctrl+K"), "Ask"),
    Shortcut("ask", "Ask the question (in the question box)", ("Return",), "Ask", local=True),
    Shortcut("cycle_mode", "Next search mode (semantic, hybrid, keyword)", ("Ctrl+M",), "Ask"),
    Shortcut("filters", "Show or hide the filters", ("Ctrl+Shift+F",), "Ask"),
    Shortcut("goto", "Go to a reference (Rom 9, John 3:16)", ("Ctrl+L", "Ctrl+G"), "Read"),
    Shortcut("back", "Back to the place read before (go-to, results, verses opened)",
             (QKeySequence.StandardKey.Back, "Alt+Left"), "Read"),
    Shortcut("forward", "Forward again", (QKeySequence.StandardKey.Forward, "Alt+Right"), "Read"),
    Shortcut("prev_chapter", "Previous chapter", ("Ctrl+PgUp", "Alt+PgUp"), "Read"),
    Shortcut("next_chapter", "Next chapter", ("Ctrl+PgDown", "Alt+PgDown"), "Read"),
    Shortcut("reading_mode", "Reading mode: the text alone (again: everything back)", ("F11",), "Read"),
    Shortcut("parallel", "Show a second translation beside the text (WEB and KJV)", ("Ctrl+Shift+T",), "Read"),
    Shortcut("focus_reader", "Focus the chapter text", ("Ctrl+1",), "Read"),
    Shortcut("history_prev", "Earlier question (in this session)", ("Alt+Up",), "Ask"),
    Shortcut("history_next", "Later question (in this session)", ("Alt+Down",), "Ask"),
    Shortcut("ask_again", "Ask the last question again (after a failure, or to refresh)", ("Ctrl+R",), "Ask"),
    Shortcut("focus_results", "Focus the results", ("Ctrl+2",), "Results"),
    Shortcut("show_rejected", "Show the rejected candidates", ("Ctrl+3",), "Results"),
    Shortcut("copy_result", "Copy the selected result with its citation (in the results)",
             (QKeySequence.StandardKey.Copy,), "Results"),
    Shortcut("whole_library", "Rank this question for the whole library, or for the open chapter again",
             ("Ctrl+Shift+A",), "Results"),
    Shortcut("copy_context", "Copy the results as Amicus context", ("Ctrl+Shift+C",), "Results"),
    Shortcut("searched", "Show or hide how this was searched", ("Ctrl+Shift+H",), "Results"),
    Shortcut("export", "Export results…", ("Ctrl+Shift+E",), "File"),
    Shortcut("focus_breakdown", "Focus “Why this rank” (arrow keys scroll it)", ("Ctrl+4",), "Results"),
    Shortcut("compare", "Compare this result with the next, side by side", ("Ctrl+D",), "Results"),
    Shortcut("undo_rerank", "Undo the last re-rank (back to the ranking before the move or change)",
             (QKeySequence.StandardKey.Undo, "Ctrl+Z"), "Results"),
    Shortcut("commentary", "Show or hide the commentary on the verse (under the text)", ("Ctrl+Shift+N",), "Read"),
    Shortcut("add_note", "Write a note on the selected verses (or the chapter)", ("Ctrl+N",), "Notes"),
    Shortcut("focus_notes", "Focus my notes on this chapter", ("Ctrl+5",), "Notes"),
    Shortcut("find_notes", "Search all my notes", ("Ctrl+Shift+L",), "Notes"),
    Shortcut("note_keys", "Edit / delete the selected note (in my notes); end editing (in a note)",
             ("F2", "Delete", "Esc", "Ctrl+Return"), "Notes", local=True),
    Shortcut("workspace", "Switch workspace", ("Ctrl+Alt+W",), "Notes"),
    # the Study dock's keys (window shortcuts made by ui/study/control.py)
    Shortcut("study_xrefs", "Cross-references of the selected verse (the Study dock)", ("Ctrl+Shift+X",), "Read",
             local=True),
    Shortcut("study_next", "Open the next cross-reference", ("F8",), "Read", local=True),
    Shortcut("study_previous", "Open the previous cross-reference", ("Shift+F8",), "Read", local=True),
    Shortcut("zoom_in", "Larger reading text", (QKeySequence.StandardKey.ZoomIn, "Ctrl+="), "View"),
    Shortcut("zoom_out", "Smaller reading text", (QKeySequence.StandardKey.ZoomOut, "Ctrl+-"), "View"),
    Shortcut("zoom_reset", "Default reading text size", ("Ctrl+0",), "View"),
    Shortcut("toggle_pin", "Pin or unpin the selected result", ("Ctrl+B",), "Results"),
    Shortcut("profile", "Show or hide the profile", ("Ctrl+Shift+P",), "Profile"),
    Shortcut("workbench", "Show or hide the curator workbench", ("Ctrl+Shift+W",), "Curate"),
    Shortcut("grade", "Grade the selected result 0–3 (in the workbench ranking; Delete removes)",
             ("0", "1", "2", "3"), "Curate", local=True),
    Shortcut("retry", "Check the proxy now", (QKeySequence.StandardKey.Refresh, "F5"), "Connection"),
    Shortcut("open_db", "Open a database…", (QKeySequence.StandardKey.Open,), "File"),
    Shortcut("settings", "Settings…", (QKeySequence.StandardKey.Preferences, "Ctrl+,"), "File"),
    Shortcut("quit", "Quit", (QKeySequence.StandardKey.Quit, "Ctrl+Q"), "File"),
    Shortcut("help", "Keyboard shortcuts", (QKeySequence.StandardKey.HelpContents, "Ctrl+/"), "Help"),
)

BY_ID = {s.id: s for s in SHORTCUTS}


def sequences(shortcut: Shortcut) -> list[QKeySequence]:
    """The key sequences of ``shortcut`` on this platform, without duplicates or empties."""
    out: list[QKeySequence] = []
    for key in shortcut.keys:
        seqs = QKeySequence.keyBindings(key) if isinstance(key, QKeySequence.StandardKey) else [QKeySequence(key)]
        for seq in seqs:
            if not seq.isEmpty() and all(seq != s for s in out):
                out.append(seq)
    return out


def _typeable(seq: QKeySequence) -> bool:
    """Keys a person can press on an ordinary keyboard (not dedicated "Find"/"Open" media keys)."""
    text = seq.toString(QKeySequence.SequenceFormat.PortableText)
    return "+" in text or len(text) <= 3 or text in ("Return", "Enter", "Esc", "Tab", "Space")


def key_text(shortcut: Shortcut) -> str:
    shown = [s for s in sequences(shortcut) if _typeable(s)] or sequences(shortcut)
    return ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in shown)


def keys_of(shortcut_id: str) -> str:
    """The keys of the shortcut ``shortcut_id`` as a sentence shows them ("Ctrl+R")."""
    return key_text(BY_ID[shortcut_id])


def make_actions(parent: QWidget, handlers: Mapping[str, Callable[[], object]]) -> dict[str, QAction]:
    """One QAction per shortcut with a handler; added to ``parent`` so they work window-wide."""
    actions: dict[str, QAction] = {}
    for sc in SHORTCUTS:
        handler = handlers.get(sc.id)
        if handler is None:
            continue
        action = QAction(sc.title, parent)
        action.setShortcuts(sequences(sc))
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        action.triggered.connect(handler)
        parent.addAction(action)
        actions[sc.id] = action
    return actions


class ShortcutsDialog(QDialog):
    """Lists every shortcut of :data:`SHORTCUTS`."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.setAccessibleName("Keyboard shortcuts")
        self.table = QTableWidget(len(SHORTCUTS), 3)
        self.table.setHorizontalHeaderLabels(["Area", "Action", "Keys"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.setShowGrid(False)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.verticalHeader().setDefaultSectionSize(max(24, self.table.fontMetrics().height() + 10))
        for row, sc in enumerate(SHORTCUTS):
            for col, text in enumerate((sc.group, sc.title, key_text(sc))):
                self.table.setItem(row, col, QTableWidgetItem(text))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        note = QLabel("In tables, the arrow keys move between rows; Enter on a result opens its passage in the "
                      "reader; Ctrl+click (or Shift+↓) a second result to compare the two.")
        note.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(note)
        layout.addWidget(buttons)
        self.resize(600, 480)
