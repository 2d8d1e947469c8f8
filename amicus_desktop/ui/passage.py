"""The selected chunk: its title, its full text with its verse range as a link that opens it in
the reader, and under the note the Bible text of that range (read from the ``verses`` table on the
DB thread and delivered by :meth:`PassagePanel.show_verses`). The words the question's keyword search looked
for (:meth:`PassagePanel.set_words`) are marked in both, as in a browser's find."""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QUrl, Signal
from PySide6.QtGui import QPalette, QShowEvent, QTextCursor
from PySide6.QtWidgets import QTextBrowser, QVBoxLayout, QWidget

from ..core.names import DEFAULT_NAMES, Names
from ..core.references import PassageRef
from ..core.results import Candidate
from ..present import describe
from ..present.titles import title
from ..session import PassageText
from .highlight import marked
from .theme import blend, muted_text, reading_size, serif_font

SCHEME = "amicus"


def passage_url(c: Candidate) -> QUrl | None:
    m = c.metadata
    if not m.book_id or m.chapter_num is None:
        return None
    url = QUrl()
    url.setScheme(SCHEME)
    url.setHost("passage")
    path = f"/{m.book_id}/{m.chapter_num}"
    if m.verse_start is not None:
        path += f"/{m.verse_start}/{m.verse_end if m.verse_end is not None else m.verse_start}"
    url.setPath(path)
    return url


def candidate_passage(c: Candidate) -> PassageRef | None:
    """The verses a chunk is about, or ``None`` when it names none (a note on a whole chapter or
    book: its Bible text would be the whole chapter, which the reader already shows)."""
    m = c.metadata
    if not m.book_id or m.chapter_num is None or m.verse_start is None:
        return None
    end = m.verse_end if m.verse_end is not None else m.verse_start
    return PassageRef(m.book_id, m.chapter_num, m.verse_start, end)


def parse_passage_url(url: QUrl) -> tuple[str, int, int | None, int | None] | None:
    if url.scheme() != SCHEME or url.host() != "passage":
        return None
    parts = [p for p in url.path().split("/") if p]
    try:
        book, chapter = parts[0], int(parts[1])
        start = int(parts[2]) if len(parts) > 2 else None
        end = int(parts[3]) if len(parts) > 3 else start
    except (IndexError, ValueError):
        return None
    return book, chapter, start, end


class PassagePanel(QWidget):
    """Shows one chunk; emits :attr:`passageRequested` (book, chapter, start, end) on its link and
    :attr:`versesWanted` (a :class:`PassageRef`) when it needs the Bible text of its verses."""

    passageRequested = Signal(str, int, int, int)
    versesWanted = Signal(object)  # PassageRef

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = QTextBrowser()
        self.view.setOpenLinks(False)
        self.view.setOpenExternalLinks(False)
        self.view.setAccessibleName("Selected passage")
        self.view.setFrameShape(QTextBrowser.Shape.NoFrame)
        self.view.document().setDocumentMargin(12)
        self.set_text_size(reading_size(None, self.font()))
        self.view.anchorClicked.connect(self._clicked)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.view)
        self._candidate: Candidate | None = None
        self._note = ""
        self._names: Names = DEFAULT_NAMES
        self._verses: PassageText | None = None
        self._words: tuple[str, ...] = ()
        self.clear()

    def set_words(self, words: tuple[str, ...]) -> None:
        """Mark these words (the keyword search's, after stop-words) in the note and its Bible text."""
        if words != self._words:
            self._words = tuple(words)
            self._render()

    @property
    def words(self) -> tuple[str, ...]:
        return self._words

    def _mark(self, text: str) -> str:
        """``text`` escaped, the searched words in it marked (bold on the highlight's tint)."""
        shade = blend(self.palette().color(QPalette.ColorRole.Base),
                      self.palette().color(QPalette.ColorRole.Highlight), 0.28).name()
        return marked(text, self._words, f"<span style='background-color:{shade}; font-weight:600'>", "</span>")

    def clear(self, message: str = "The selected result's full text appears here.") -> None:
        self._candidate = None
        muted = muted_text(self.palette()).name()
        self.view.setHtml(f"<p style='color:{muted}; font-style:italic'>{html.escape(message)}</p>")

    def show_candidate(self, c: Candidate, names: Names, note: str = "") -> None:
        self._candidate = c
        self._note = note
        self._names = names
        self._verses = None
        self._render()
        wanted = candidate_passage(c)
        if wanted is not None:
            self.versesWanted.emit(wanted)

    def show_verses(self, text: PassageText) -> None:
        """The Bible text of the shown chunk's verses arrived (ignored if another chunk is shown now)."""
        c = self._candidate
        if c is None or candidate_passage(c) != text.passage:
            return
        self._verses = text
        self._render()

    @property
    def verses(self) -> PassageText | None:
        """The Bible text on show under the note, if it has arrived."""
        return self._verses

    def set_text_size(self, reading: float) -> None:
        """Follow the reading size (``reading`` points for scripture; notes a little smaller)."""
        self.view.setFont(serif_font(max(8.0, reading * 0.9)))

    @property
    def link(self) -> QUrl | None:
        return passage_url(self._candidate) if self._candidate else None

    def _render(self) -> None:
        c = self._candidate
        if c is None:
            return
        pal = self.palette()
        muted = muted_text(pal).name()
        ref = self._names.reference(c.metadata)
        url = passage_url(c)
        if ref and url is not None:
            head = f"<a href='{url.toString()}' style='text-decoration:none; font-weight:600'>{html.escape(ref)}</a>"
            head += f" <span style='color:{muted}'>— open in reader</span>"
        elif ref:
            head = f"<b>{html.escape(ref)}</b>"
        else:
            head = "<b>Not tied to a passage</b>"
        m = c.metadata
        facts = [describe.source_label(c.source_type)]
        if m.scholar_id:
            facts.append(self._names.scholar(m.scholar_id).name)
        if m.tradition:
            facts.append(m.tradition)
        facts.append(c.chunk_id)
        heading = (f"<p style='font-size:large; font-weight:600; margin-bottom:4px'>"
                   f"{html.escape(title(c, self._names))}</p>")
        body = "".join(f"<p style='line-height:145%'>{self._mark(p)}</p>" for p in c.text.split("\n\n") if p.strip())
        note = f"<p style='color:{muted}'><i>{html.escape(self._note)}</i></p>" if self._note else ""
        self.view.setHtml(
            f"{heading}<p style='margin-bottom:2px; margin-top:0'>{head}</p>"
            f"<p style='color:{muted}; margin-top:0; font-size:small'>{html.escape(' · '.join(facts))}</p>"
            f"{note}{body}{self._scripture_html(ref, muted)}"
        )
        self._to_top()

    def _scripture_html(self, ref: str, muted: str) -> str:
        """The verses under the note, set apart by a rule; nothing until they arrive or without text."""
        if self._verses is None or not self._verses.verses:
            return ""
        lines = " ".join(
            f"<sup style='color:{muted}; font-size:small'>{n}</sup>&nbsp;{self._mark(t)}"
            for n, t in self._verses.verses
        )
        label = f"{ref} ({self._verses.translation})" if self._verses.translation else ref
        caption = f"<p style='color:{muted}; font-size:small; margin-bottom:2px'>{html.escape(label)} — Bible text</p>"
        return f"<hr/>{caption}<p style='line-height:150%'>{lines}</p>"

    def _to_top(self) -> None:
        self.view.moveCursor(QTextCursor.MoveOperation.Start)
        self.view.verticalScrollBar().setValue(0)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._to_top()  # a panel shown after being filled would otherwise keep a stale offset

    def _clicked(self, url: QUrl) -> None:
        parsed = parse_passage_url(url)
        if parsed is not None:
            book, chapter, start, end = parsed
            self.passageRequested.emit(book, chapter, start or 0, end or 0)

    def open_link(self) -> bool:
        """Activate the verse link (keyboard path); ``False`` when the chunk has none."""
        url = self.link
        if url is None:
            return False
        self._clicked(url)
        return True

    def changeEvent(self, event: QEvent) -> None:
        if event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange):
            self._render()
        super().changeEvent(event)

