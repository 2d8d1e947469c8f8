"""The chunk behind the selected row of any workbench table, readable before it is graded: its title,
place (a link that opens it in the reader), kind, author, tradition and id, its whole text and the Bible
text of its verses — the results' own passage pane (:class:`~..passage.PassagePanel`), or a sentence for a
row that is not a chunk (a question, a run)."""

from __future__ import annotations

import html

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from ...core.results import Candidate
from ...session.workbench import Workbench
from ..passage import PassagePanel
from ..theme import muted_text, scaled_font

EMPTY = "Select a row in any table above to read its chunk here."


class ChunkPreview(QWidget):
    """``show_chunk(candidate)`` or ``show_note(title, lines)``; the passage link and the verses go through the
    window."""

    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bench = bench
        self.heading = QLabel("Selected")
        self.heading.setFont(scaled_font(self.font(), 1.0, bold=True))
        self.passage = PassagePanel()
        self.passage.view.setAccessibleName("Workbench preview of the selected chunk")
        self.passage.versesWanted.connect(bench.session.read_passage)
        self.passage.clear(EMPTY)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(self.heading)
        layout.addWidget(self.passage, 1)
        self.setMinimumHeight(self.fontMetrics().lineSpacing() * 5)

    def show_chunk(self, candidate: Candidate | None) -> None:
        """The chunk (``None``: the selected chunk id is not in the open database)."""
        if candidate is None:
            missing = self._bench.preview.chunk_id
            self.passage.clear(f"{missing} is not in the open database: its text cannot be shown." if missing
                               else EMPTY)
            return
        library = self._bench.session.library
        self.passage.show_candidate(candidate, library.names)

    def show_note(self, title: str, lines: list[str]) -> None:
        """A row that is not a chunk: its title and what it holds, in words."""
        muted = muted_text(self.palette()).name()
        body = "".join(f"<p style='color:{muted}; margin-top:2px'>{html.escape(line)}</p>" for line in lines)
        self.passage.clear("")  # no chunk: verses arriving late are not drawn over this
        self.passage.view.setHtml(f"<p style='font-weight:600'>{html.escape(title)}</p>{body}")
