"""The results header's chapter toggle: "Rank for Romans 8", at the right end of the tab bar.

Checked unless the reader asked the question of the whole library; shown while a chapter is open (or the
answer is the whole library's), since only then is there a choice. The pane turns its click into
``wholeLibraryRequested``.
"""

from __future__ import annotations

from PySide6.QtWidgets import QCheckBox, QWidget

from ...core.names import Names
from ...present import describe
from ...session import ResultView
from .. import shortcuts


class ChapterToggle(QCheckBox):
    """Whether this answer is ranked for the open chapter (see the module)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chapterToggle")
        self.setAccessibleName("Rank this question for the open chapter")
        self.hide()

    def show_answer(self, view: ResultView, names: Names, open_chapter: str | None) -> None:
        """Show what ``view`` was ranked for; ``open_chapter`` is the reader's ("Romans 8"; ``None``: none)."""
        ctx = view.result.context
        ranked = names.chapter(ctx.chapter) if ctx is not None and ctx.chapter is not None else None
        chapter = open_chapter if view.whole_library or ranked is None else ranked
        self.setVisible(chapter is not None or view.whole_library)
        self.setText(describe.chapter_toggle_text(chapter))
        self.setChecked(not view.whole_library)
        self.setToolTip(describe.chapter_toggle_help(chapter, view.whole_library, shortcuts.keys_of("whole_library")))
