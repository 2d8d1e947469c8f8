"""A Strong's number on tap: its lemma (Greek or Hebrew, right-to-left where it is), lexicon entries and word
studies, and the KJV concordance — every verse using it, the words carrying it marked, filterable by book.

A verse of the concordance is a link (:attr:`StrongsPanel.passageRequested`). Fed by
:class:`~.control.StudyControl` with a :class:`~amicus_desktop.study.StrongsStudy` read off the UI thread;
choosing a book asks for it again (:attr:`StrongsPanel.bookChanged`).
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QSplitter, QTextBrowser, QVBoxLayout, QWidget

from ...core.books import BY_ID
from ...core.names import DEFAULT_NAMES, NamesSource
from ...core.references import PassageRef
from ...study import ConcordanceLine, StrongsStudy
from ..theme import blend, muted_text, scaled_font, serif_font

#: the most concordance lines drawn at once (the article ὁ is in thousands of verses: filter by book)
SHOWN = 400
ALL_BOOKS = ""


def marked(line: ConcordanceLine, background: str) -> str:
    """The verse as HTML with the words carrying the number marked."""
    out, at = [], 0
    for a, b in line.spans:
        out.append(html.escape(line.text[at:a]))
        out.append(f"<span style='background-color:{background}; font-weight:600'>{html.escape(line.text[a:b])}</span>")
        at = b
    out.append(html.escape(line.text[at:]))
    return "".join(out)


class StrongsPanel(QWidget):
    passageRequested = Signal(object)  # PassageRef
    bookChanged = Signal(str, str)  # number, book id ("" for every book)

    def __init__(self, parent: QWidget | None = None, names: NamesSource = lambda: DEFAULT_NAMES) -> None:
        super().__init__(parent)
        self._names = names  # the open library's: "Song of Solomon 2:1", not the id read as words
        self.study: StrongsStudy | None = None
        self.lemma = QLabel()
        self.lemma.setFont(scaled_font(serif_font(), 1.8))
        self.lemma.setTextFormat(Qt.TextFormat.PlainText)
        self.lemma.setAccessibleName("Lemma")
        self.heading = QLabel("Strong's numbers")
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.entry = QTextBrowser()
        self.entry.setAccessibleName("Lexicon entry and word studies")
        self.entry.setOpenLinks(False)
        self.book = QComboBox()
        self.book.setAccessibleName("Concordance book")
        # a long book name elides rather than widen the dock past a 1000-px window
        self.book.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.book.setMinimumContentsLength(8)
        self.book.activated.connect(self._book_chosen)
        self.count = QLabel()
        self.count.setWordWrap(True)
        self.concordance = QTextBrowser()
        self.concordance.setAccessibleName("Concordance")
        self.concordance.setOpenLinks(False)
        self.concordance.anchorClicked.connect(self._clicked)

        head = QHBoxLayout()
        head.addWidget(self.lemma)
        head.addWidget(self.heading, 1)
        lower = QWidget()
        low = QVBoxLayout(lower)
        low.setContentsMargins(0, 0, 0, 0)
        bar = QHBoxLayout()
        bar.addWidget(self.count, 1)
        bar.addWidget(self.book)
        low.addLayout(bar)
        low.addWidget(self.concordance, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.entry)
        split.addWidget(lower)
        split.setStretchFactor(1, 2)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(head)
        layout.addWidget(split, 1)
        self.show_message("Click a word of the KJV in the reader (with this tab open), or right-click it, to see "
                          "its Strong's number.")

    def show_message(self, text: str) -> None:
        self.study = None
        self.lemma.clear()
        self.heading.setText(text)
        self.entry.clear()
        self.concordance.clear()
        self.count.clear()
        self.book.clear()

    def show_loading(self, number: str) -> None:
        self.heading.setText(f"Strong's {number} — reading the library…")

    def show_study(self, study: StrongsStudy) -> None:
        self.study = study
        self.lemma.setText(study.lemma)
        self.lemma.setLayoutDirection(Qt.LayoutDirection.RightToLeft if study.language == "Hebrew"
                                      else Qt.LayoutDirection.LeftToRight)
        self.heading.setText(f"{study.number} · {study.translit} · Strong's {study.language}" if study.translit
                             else f"{study.number} · Strong's {study.language}")
        muted = muted_text(self.palette()).name()
        parts = []
        for e in (*study.entries, *study.studies):
            body = "<br>".join(html.escape(line) for line in e.text.splitlines())
            parts.append(f"<p><b>{html.escape(e.title)}</b><br>{body}</p>")
        if not parts:
            parts.append(f"<p style='color:{muted}'>The library holds no entry for {study.number}.</p>")
        self.entry.setHtml("".join(parts))
        self._fill_books(study)
        self._fill_concordance(study)

    def _fill_books(self, study: StrongsStudy) -> None:
        self.book.blockSignals(True)
        self.book.clear()
        self.book.addItem(f"Every book ({study.total})", ALL_BOOKS)
        for book_id, n in study.books.items():
            name = BY_ID[book_id].name if book_id in BY_ID else book_id
            self.book.addItem(f"{name} ({n})", book_id)
        at = self.book.findData(study.book or ALL_BOOKS)
        self.book.setCurrentIndex(max(at, 0))
        self.book.blockSignals(False)
        self.book.setEnabled(bool(study.books))

    def _fill_concordance(self, study: StrongsStudy) -> None:
        pal = self.palette()
        mark = blend(pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Highlight), 0.3).name()
        muted = muted_text(pal).name()
        shown = study.concordance[:SHOWN]
        rows = []
        for line in shown:
            r = line.ref
            link = f"passage:{r.book_id}/{r.chapter}/{r.verse_start}"
            rows.append(f"<p style='margin:2px 0'><a href='{link}' style='text-decoration:none'>"
                        f"<b>{html.escape(self._names().passage(r))}</b></a> {marked(line, mark)}</p>")
        if study.notice:
            rows.insert(0, f"<p style='color:{muted}; font-style:italic'>{html.escape(study.notice)}</p>")
        if len(study.concordance) > SHOWN:
            rows.append(f"<p style='color:{muted}'>… and {len(study.concordance) - SHOWN} more verses: "
                        "choose a book to see them.</p>")
        self.concordance.setHtml("".join(rows))
        where = f" in {BY_ID[study.book].name}" if study.book in BY_ID else ""
        self.count.setText(f"Concordance (KJV){where}: {len(study.concordance)} verses")

    def _book_chosen(self, _index: int) -> None:
        if self.study is not None:
            self.bookChanged.emit(self.study.number, self.book.currentData() or "")

    def _clicked(self, url: QUrl) -> None:
        text = url.toString()
        if not text.startswith("passage:"):
            return
        try:
            book, chapter, verse = text[len("passage:"):].split("/")
            self.passageRequested.emit(PassageRef(book, int(chapter), int(verse), int(verse)))
        except ValueError:
            return
