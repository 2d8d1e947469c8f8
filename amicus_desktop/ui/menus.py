"""The window's actions and menu bar: File, Edit, Go, View (with the colour schemes), Search (the
modes, the filters, the pins), Notes (writing and finding the reader's notes, the workspaces),
Connection and Help.

Every action with keys comes from the shortcut table (``shortcuts.py``), which maps its id to a
handler here; the few without keys (build the demo, add documents, about, the golden sets) are made here too. The
menus show the session's state (the checked mode, the pins' count, whether there are filters to
clear, the checked scheme) through the ``render_*`` methods the window calls.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu, QMenuBar

from ..core.query import Filters, SearchMode
from ..present import bounds, describe, states
from ..session import MODES
from . import shortcuts
from .notes import WorkspaceMenu

if TYPE_CHECKING:
    from .main_window import MainWindow

SCHEMES = (("system", "Follow the &system"), ("light", "&Light"), ("dark", "&Dark"))


def handlers(w: MainWindow) -> dict[str, Callable[[], object]]:
    """What each shortcut of the table does in ``w``."""
    s = w.session
    return {
        "focus_ask": w.ask_control.focus,
        "goto": w.reader.focus_goto,
        "prev_chapter": lambda: s.step_chapter(-1),
        "next_chapter": lambda: s.step_chapter(1),
        "focus_results": w.results.focus_results,
        "focus_reader": lambda: w.reader.text.setFocus(Qt.FocusReason.ShortcutFocusReason),
        "show_rejected": w.results.focus_rejected,
        "focus_breakdown": w.results.focus_breakdown,
        "commentary": w.toggle_commentary,
        "compare": w.results.compare_next,
        "undo_rerank": w.undo_rerank,
        "zoom_in": lambda: w.appearance.step_font_size(1),
        "zoom_out": lambda: w.appearance.step_font_size(-1),
        "zoom_reset": lambda: s.prefs.set_font_size(None),
        "profile": w.profile_dock.toggle,
        "workbench": w.workbench_dock.toggle,
        "retry": w.ask_control.retry_now,
        "history_prev": lambda: w.ask_control.walk_history(-1),
        "history_next": lambda: w.ask_control.walk_history(1),
        "ask_again": w.ask_control.ask_again,
        "copy_result": w.results.menu.copy_current,
        "copy_context": w.exporter.copy_context,
        "searched": w.results.searched.toggle_expanded,
        "export": w.exporter.export_results,
        "open_db": w.dialogs.open_database,
        "settings": w.dialogs.open_settings,
        "help": w.dialogs.show_shortcuts,
        "quit": w.close,
        "cycle_mode": s.cycle_mode,
        "filters": w.filter_bar.toggle_open,
        "toggle_pin": w.toggle_pin,
        "whole_library": lambda: toggle_whole_library(w),
        "add_note": w.notes_control.add_note,
        "focus_notes": w.notes_control.focus,
        "find_notes": w.notes_control.find,
        "workspace": w.workspace_switcher.open,
    }


def toggle_whole_library(w: MainWindow) -> None:
    """The ``whole_library`` shortcut: the open chapter off (or on again) for the question on screen."""
    if not w.session.toggle_whole_library():
        w.show_status(states.NO_WHOLE_LIBRARY)


class WindowMenus:
    """The actions (:attr:`actions_by_id`, one per shortcut) and the menus of ``window``."""

    def __init__(self, window: MainWindow) -> None:
        self._window = window
        self.actions_by_id = shortcuts.make_actions(window, handlers(window))
        window.removeAction(self.actions_by_id["copy_result"])  # the results table's own, not window-wide
        window.results.menu.use_copy_action(self.actions_by_id["copy_result"])
        self.build_action = QAction("Build the demo database…", window)
        self.build_action.triggered.connect(window.dialogs.build_demo)
        self.ingest_action = QAction("&Add documents to a library…", window)
        self.ingest_action.triggered.connect(window.dialogs.ingest_corpus)
        self.about_action = QAction("About Amicus Desktop", window)
        self.about_action.triggered.connect(window.dialogs.show_about)
        self.new_golden_action = QAction("&New golden set…", window)
        self.new_golden_action.triggered.connect(lambda: window.workbench_dock.new_golden_set())
        self.open_golden_action = QAction("Open &golden set…", window)
        self.open_golden_action.triggered.connect(lambda: window.workbench_dock.open_golden_set())
        self._build(window.menuBar())

    def _build(self, bar: QMenuBar) -> None:
        a = self.actions_by_id
        file_menu = bar.addMenu("&File")
        file_menu.addAction(a["open_db"])
        file_menu.addAction(self.build_action)
        file_menu.addAction(self.ingest_action)
        file_menu.addSeparator()
        file_menu.addAction(a["export"])
        file_menu.addAction(self.new_golden_action)
        file_menu.addAction(self.open_golden_action)
        file_menu.addSeparator()
        file_menu.addAction(a["settings"])
        file_menu.addSeparator()
        file_menu.addAction(a["quit"])
        self.edit_menu = bar.addMenu("&Edit")
        self.edit_menu.addAction(a["undo_rerank"])
        self.edit_menu.addAction(a["copy_context"])
        go = bar.addMenu("&Go")
        for key in ("focus_ask", "goto", "prev_chapter", "next_chapter"):
            go.addAction(a[key])
        view = bar.addMenu("&View")
        for key in ("focus_reader", "focus_results", "show_rejected", "searched", "whole_library", "focus_breakdown",
                    "compare",
                    "commentary", "profile", "workbench"):
            view.addAction(a[key])
        a["commentary"].setCheckable(True)
        a["commentary"].setChecked(True)
        view.addSeparator()
        for key in ("zoom_in", "zoom_out", "zoom_reset"):
            view.addAction(a[key])
        self._build_scheme_menu(view.addMenu("Colour &scheme"))
        self._build_search_menu(bar.addMenu("&Search"))
        notes = bar.addMenu("&Notes")
        for key in ("add_note", "focus_notes", "find_notes"):
            notes.addAction(a[key])
        notes.addSeparator()
        notes.addAction(a["workspace"])
        self.workspace_menu = WorkspaceMenu(notes.addMenu("Wor&kspaces"), self._window.session.notebook.workspaces,
                                            self._window.session.notebook.switch, self._window)
        conn = bar.addMenu("&Connection")
        conn.addAction(a["retry"])
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(a["help"])
        help_menu.addAction(self.about_action)

    def _build_scheme_menu(self, menu: QMenu) -> None:
        """View ▸ Colour scheme: follow the system, light or dark (one checked, saved)."""
        window, prefs = self._window, self._window.session.prefs
        group = QActionGroup(window)
        self.scheme_actions: dict[str, QAction] = {}
        for scheme, label in SCHEMES:
            action = QAction(label, window)
            action.setCheckable(True)
            action.setChecked(prefs.settings.color_scheme == scheme)
            action.triggered.connect(lambda _checked=False, choice=scheme: prefs.set_color_scheme(choice))
            group.addAction(action)
            menu.addAction(action)
            self.scheme_actions[scheme] = action

    def _build_search_menu(self, menu: QMenu) -> None:
        """Search: the three modes (one checked), the filters, and the pins with *Unpin all*."""
        a, window, session = self.actions_by_id, self._window, self._window.session
        self.mode_group = QActionGroup(window)
        self.mode_actions: dict[SearchMode, QAction] = {}
        for mode in MODES:
            action = QAction(describe.mode_title(mode), self.mode_group)
            action.setCheckable(True)
            action.setToolTip(describe.MODE_HELP[mode])
            action.triggered.connect(lambda _checked=False, m=mode: session.set_mode(m))
            menu.addAction(action)
            self.mode_actions[mode] = action
        menu.addAction(a["cycle_mode"])
        menu.addSeparator()
        menu.addAction(a["filters"])
        self.clear_filters_action = menu.addAction("Clear filters")
        self.clear_filters_action.triggered.connect(lambda: session.set_filters(Filters()))
        menu.addSeparator()
        menu.addAction(a["toggle_pin"])
        self.pins_menu = menu.addMenu("Pins")
        self.pins_menu.aboutToShow.connect(self.fill_pins_menu)

    def fill_pins_menu(self) -> None:
        """The pins, by title where the results on screen name them, and *Unpin all*."""
        session = self._window.session
        self.pins_menu.clear()
        pins = session.search.pins
        view = session.question.view
        shown = {r.chunk_id: r for r in view.result.results} if view is not None else {}
        names = session.library.names
        for chunk_id in pins[: bounds.MAX_PIN_ITEMS]:
            r = shown.get(chunk_id)
            label = (names.reference(r.candidate.metadata) or chunk_id) if r else chunk_id
            where = describe.pin_scope_text(session.search.scope_of(chunk_id), names)
            action = self.pins_menu.addAction(f"Unpin {label} (pinned {where})")
            action.setToolTip(chunk_id)
            action.triggered.connect(lambda _checked=False, c=chunk_id: session.toggle_pin(c))
        if len(pins) > bounds.MAX_PIN_ITEMS:  # a menu of ten thousand items is no menu
            self.pins_menu.addAction(bounds.more(len(pins) - bounds.MAX_PIN_ITEMS, "pins")).setEnabled(False)
        if not pins:
            self.pins_menu.addAction("No pins: right-click a result to pin it").setEnabled(False)
        self.pins_menu.addSeparator()
        clear = self.pins_menu.addAction("Unpin all")
        clear.setEnabled(bool(pins))
        clear.triggered.connect(session.clear_pins)

    # -- the session's state ---------------------------------------------------------------
    def render_mode(self, mode: SearchMode) -> None:
        self.mode_actions[mode].setChecked(True)

    def render_filters(self, filters: Filters) -> None:
        self.clear_filters_action.setEnabled(filters.active)

    def render_pins(self, pins: tuple[str, ...]) -> None:
        self.pins_menu.setTitle(f"Pins ({len(pins)})")

    def render_scheme(self, scheme: str) -> None:
        for name, action in self.scheme_actions.items():
            action.setChecked(name == scheme)
