"""The reader's page as HTML (``ui/reader_text.py``): verses with their anchors, a translation beside."""

from __future__ import annotations

from typing import Any

from amicus_desktop.ui.reader_text import Page, page_html


def test_a_verse_only_one_translation_has_is_shown_as_missing_in_the_other(qapp: Any) -> None:
    page = Page("3 John 1", "", [(14, "I hope to see you soon. Peace be to you.")], "WEB",
                [(14, "But I trust I shall shortly see thee"), (15, "Peace be to thee.")], "KJV")
    document = page_html(page, qapp.palette())
    assert "(not in the WEB)" in document and "name='v15'" in document and "name='b15'" in document
