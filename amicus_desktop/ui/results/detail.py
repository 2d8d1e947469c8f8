"""Under the results: the note that they are from before the proxy went away, then the selected
chunk's passage and score breakdown — or two results' breakdowns side by side.

The panes are filled one event-loop turn after the tables (:meth:`DetailArea.show_item`), so a new
result set costs two short UI-thread slices instead of one long one (``tests/ui/test_stall.py``);
repeated selections coalesce.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSplitter, QStackedWidget, QVBoxLayout, QWidget

from ...core.names import NamesSource
from ...core.results import RejectedChunk, RetrievedChunk
from ...present import describe
from ...session import ResultView
from ..banner import Banner
from ..breakdown import BreakdownPanel
from ..compare import ComparePanel
from ..passage import PassagePanel
from ..theme import scaled_font
from .splitter import splitter

Item = RetrievedChunk | RejectedChunk


class DetailArea(QWidget):
    """The stale note over the passage and breakdown panes (or the comparison of two results).

    ``view`` and ``reason`` read the results pane's current answer and a rejected candidate's reason
    in words; ``names`` names things as the open database does.
    """

    def __init__(self, names: NamesSource,
                 view: Callable[[], ResultView | None], reason: Callable[[RejectedChunk], str],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._names, self._view, self._reason = names, view, reason
        self._pending: Item | None = None
        self._shown: tuple[Item, ResultView] | None = None  # what the panes hold
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._render)

        self.stale_note = Banner()
        self.passage = PassagePanel()
        self.breakdown = BreakdownPanel()
        self.breakdown.keep_numbers_whole()  # at 1000 px the passage pane gives way, not the numbers
        passage_box = QWidget()
        pl = QVBoxLayout(passage_box)
        pl.setContentsMargins(12, 6, 0, 6)
        pl.setSpacing(4)
        passage_title = QLabel("Passage")
        passage_title.setFont(scaled_font(self.font(), 1.0, bold=True))
        pl.addWidget(passage_title)
        pl.addWidget(self.passage, 1)
        self.detail_split = splitter(Qt.Orientation.Horizontal, "detailSplit", passage_box, self.breakdown,
                                     stretch=(3, 2), sizes=[540, 420])
        self.compare = ComparePanel()
        # They scroll, so a short window with a banner under the pane may leave them two lines.
        for area in (self.passage.view, self.breakdown.scroll_area, self.compare.left.scroll_area,
                     self.compare.right.scroll_area):
            area.setMinimumHeight(self.fontMetrics().lineSpacing())
        self.detail_stack = QStackedWidget()  # the selected result's detail, or two results compared
        self.detail_stack.addWidget(self.detail_split)
        self.detail_stack.addWidget(self.compare)
        # The note is here, not over the table, so it appearing or going never moves the results.
        low = QVBoxLayout(self)
        low.setContentsMargins(0, 0, 0, 0)
        low.setSpacing(0)
        note_row = QHBoxLayout()  # (empty, and so without its margins, while the note is hidden)
        note_row.setContentsMargins(12, 2, 12, 0)
        note_row.addWidget(self.stale_note)
        low.addLayout(note_row)
        low.addWidget(self.detail_stack, 1)

    @property
    def splitters(self) -> tuple[QSplitter, ...]:
        return (self.detail_split,)

    def show_pair(self, a: RetrievedChunk, b: RetrievedChunk, view: ResultView) -> None:
        """Two results' breakdowns side by side instead of the passage and breakdown panes."""
        self.compare.show_pair(a, b, view.result.context, self._names(), len(view.result.results))
        self.detail_stack.setCurrentWidget(self.compare)

    def show_single(self) -> None:
        self.detail_stack.setCurrentWidget(self.detail_split)

    def show_item(self, item: Item | None) -> None:
        """Show ``item`` in the passage and breakdown panes on the next turn of the event loop."""
        self._pending = item
        self._timer.start()

    def clear(self, message: str | None = None) -> None:
        if message is None:
            self.passage.clear()
            self.breakdown.clear()
        else:
            self.passage.clear(message)
            self.breakdown.clear("")
        self._shown = None

    def stop(self) -> None:
        """The window is closing: no deferred render."""
        self._timer.stop()

    def _render(self) -> None:
        item, self._pending = self._pending, None
        view = self._view()
        if item is None or view is None:
            return
        if self._shown is not None and self._shown[0] is item and self._shown[1] is view:
            return
        self._shown = (item, view)
        ctx = view.result.context
        names = self._names()
        if isinstance(item, RetrievedChunk):
            self.passage.show_candidate(item.candidate, names)
            self.breakdown.show_chunk(item, ctx, names, total=len(view.result.results),
                                      references=view.result.trace.references)
        else:
            reason = self._reason(item)
            self.passage.show_candidate(item.candidate, names, note=describe.not_shown(reason))
            self.breakdown.show_chunk(item, ctx, names, reason=reason,
                                      references=view.result.trace.references)
