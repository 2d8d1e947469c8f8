"""The reader's marks laid on its text (``ui/study/margin.py``): it finds each verse by the anchors the reader's
page writes (``ui/reader_text.py``), in one translation and in the one beside."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QTextDocument

from amicus_desktop.ui.reader_text import Page, page_html
from amicus_desktop.ui.study.margin import anchor_positions


def test_each_verse_is_found_by_its_anchor_in_both_columns(qapp: Any) -> None:
    page = Page("3 John 1", "", [(13, "I had many things to write."), (14, "I hope to see you soon.")], "WEB",
                [(13, "I had many things to write, but I will not."), (14, "But I trust I shall shortly see thee"),
                 (15, "Peace be to thee.")], "KJV")
    doc = QTextDocument()
    doc.setHtml(page_html(page, qapp.palette()))
    text = doc.toPlainText()
    verses, beside = anchor_positions(doc), anchor_positions(doc, "b")
    assert set(verses) == {13, 14, 15} and set(beside) == {13, 14, 15}
    assert verses[13] < verses[14] < verses[15] and beside[13] < beside[14] < beside[15]
    assert text[beside[15]:].lstrip("0123456789 \u00a0").startswith("Peace be to thee")
    alone = QTextDocument()
    alone.setHtml(page_html(Page("3 John 1", "", [(14, "I hope to see you soon.")], "WEB"), qapp.palette()))
    assert list(anchor_positions(alone)) == [14] and anchor_positions(alone, "b") == {}
