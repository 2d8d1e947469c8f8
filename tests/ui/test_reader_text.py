"""The reader's page as HTML (``ui/reader_text.py``): verses with their anchors, a translation beside."""

from __future__ import annotations

from typing import Any

from amicus_desktop.ui.reader_text import Page, page_html


def test_a_verse_only_one_translation_has_is_shown_as_missing_in_the_other(qapp: Any) -> None:
    page = Page("3 John 1", "", [(14, "I hope to see you soon. Peace be to you.")], "WEB",
                [(14, "But I trust I shall shortly see thee"), (15, "Peace be to thee.")], "KJV")
    document = page_html(page, qapp.palette())
    assert "(not in the WEB)" in document and "name='v15'" in document and "name='b15'" in document


def _orphaned_numbers(qapp: Any, page: Page, width: int) -> list[int]:
    """The verses whose number ends a line while the verse's first word begins the next, at ``width`` px."""
    from PySide6.QtGui import QTextDocument

    doc = QTextDocument()
    doc.setDefaultFont(qapp.font())
    doc.setHtml(page_html(page, qapp.palette()))
    doc.setTextWidth(width)
    doc.size()  # lays the document out
    text = doc.toPlainText()

    def line(position: int) -> tuple[int, int]:
        block = doc.findBlock(position)
        return block.blockNumber(), block.layout().lineForTextPosition(position - block.position()).lineNumber()

    out = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            for name in fragment.charFormat().anchorNames():
                if name[:1] in "vb" and name[1:].isdigit():
                    number = fragment.position()
                    first = number + len(name) - 1
                    while first < len(text) and not text[first].isalpha():
                        first += 1
                    if line(number) != line(first):
                        out.append(int(name[1:]))
            it += 1
        block = block.next()
    return out


def test_a_verse_number_never_ends_a_line_without_its_verse(qapp: Any) -> None:
    """In Genesis 1 and 1 John 4 the small number of the next verse was left at the end of a line ("…of the
    waters. ³" / "God said…"): the number and the verse's first word are one unit, in one column and two, at
    every width."""
    verses = [(n, ("Word " * (3 + (n * 7) % 11)) + f"end of verse {n}.") for n in range(1, 40)]
    page = Page("Genesis 1", "", verses, "WEB")
    assert sum(1 for w in range(180, 700, 9) for _n in _orphaned_numbers(qapp, page, w)) == 0
    beside = Page("Genesis 1", "", verses, "WEB", verses, "KJV")
    assert sum(1 for w in range(300, 700, 23) for _n in _orphaned_numbers(qapp, beside, w)) == 0
