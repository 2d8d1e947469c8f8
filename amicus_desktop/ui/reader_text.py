"""The chapter as the reader shows it, in HTML: one translation as running text, or two side by side.

:func:`page_html` turns a :class:`Page` (the chapter's verses, the verses in focus, the margin marks) into
the document :class:`~.reader.ReaderPane` shows. Every verse number carries an anchor ``v<n>`` (the pane
finds verses by it); in two translations the rows of a table keep each verse beside its counterpart
(``study.versification.aligned_rows``: by number, and by where one translation moved words — the WEB's
Romans 16:25–27 at 14:23), a verse one translation lacks shown as such, and the right-hand column's
verses carry ``b<n>``. A margin mark is a link ``mark:<kind>:<verse>`` (0: the chapter's title) with its
tooltip; the reader's notes are the kind ``note`` (✎), and ``ui/study/`` may add its own kinds.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtGui import QPalette

from ..core.references import ChapterRef
from ..study.versification import aligned_rows
from .theme import blend, muted_text

#: a margin mark: its symbol and its tooltip
Mark = tuple[str, str]


@dataclass
class Page:
    """What the reader shows: ``verses`` in ``translation``, ``beside`` in ``beside_translation`` when two."""

    title: str = ""
    note: str = ""
    verses: list[tuple[int, str]] = field(default_factory=list)
    translation: str = ""
    beside: list[tuple[int, str]] = field(default_factory=list)
    beside_translation: str = ""
    #: the verses highlighted (first, last); (0, -1): none
    focus: tuple[int, int] = (0, -1)
    #: kind → verse → mark
    marks: dict[str, dict[int, Mark]] = field(default_factory=dict)
    #: the chapter (where the translations number it differently, :mod:`~amicus_desktop.study.versification`)
    ref: ChapterRef | None = None

    @property
    def parallel(self) -> bool:
        return bool(self.beside_translation) and bool(self.verses)


def page_html(page: Page, pal: QPalette) -> str:
    muted = muted_text(pal).name()
    shade = blend(pal.color(QPalette.ColorRole.Base), pal.color(QPalette.ColorRole.Highlight), 0.22).name()
    pen = pal.color(QPalette.ColorRole.Highlight).name()

    def marks(verse: int) -> str:  # the margin marks: links with their tooltips
        out = []
        for kind, by_verse in page.marks.items():
            mark = by_verse.get(verse)
            if mark is not None and page.verses:
                out.append(f"<a href='mark:{kind}:{verse}' title='{html.escape(mark[1], quote=True)}' "
                           f"style='text-decoration:none; color:{pen}; font-weight:600'>{html.escape(mark[0])}</a>"
                           "&nbsp;")
        return "".join(out)

    def verse(n: int, text: str, anchor: str) -> str:
        body = html.escape(text)
        if page.focus[0] <= n <= page.focus[1]:
            body = f"<span style='background-color:{shade}'>{body}</span>"
        return f"{marks(n) if anchor == 'v' else ''}<a name='{anchor}{n}'></a>" \
               f"<sup style='color:{muted}; font-size:small'>{n}</sup>&nbsp;{body}"

    parts = [f"<h2 style='font-weight:600; margin-bottom:14px'>{marks(0)}{html.escape(page.title)}</h2>"]
    if page.note:
        parts.append(f"<p style='color:{muted}; font-style:italic'>{html.escape(page.note)}</p>")
    if page.parallel:
        parts.append(_table(page, verse, muted))
    elif page.verses:
        parts.append("<p style='line-height:160%'>" + "&nbsp; ".join(verse(n, t, "v") for n, t in page.verses) + "</p>")
    return "".join(parts)


def _table(page: Page, verse: Callable[[int, str, str], str], muted: str) -> str:
    """Two translations, a row per verse: the left column's verse anchors ``v<n>``, the right's ``b<n>``."""
    head = (f"<tr><td width='50%' style='color:{muted}; font-weight:600; padding-bottom:6px'>"
            f"{html.escape(page.translation)}</td><td width='50%' style='color:{muted}; font-weight:600; "
            f"padding-bottom:6px'>{html.escape(page.beside_translation)}</td></tr>")
    rows = []
    for row in aligned_rows(page.ref, page.verses, page.translation, page.beside, page.beside_translation):
        n = row.verse
        cells = []
        for text, note, anchor, name in ((row.left, row.left_note, "v", page.translation),
                                         (row.right, row.right_note, "b", page.beside_translation)):
            said = html.escape(note or f"(not in the {name})")
            if text is None:
                number = "" if row.moved else f"<a name='{anchor}{n}'></a><sup style='color:{muted}; " \
                                               f"font-size:small'>{n}</sup>&nbsp;"
                cells.append(f"{number}<span style='color:{muted}; font-style:italic'>{said}</span>")
            elif row.moved:  # the words of verse n the other translation has elsewhere: no anchor of their own
                cells.append(f"<sup style='color:{muted}; font-size:small'>{n}</sup>&nbsp;{html.escape(text)}")
            else:
                cells.append(verse(n, text, anchor))
        rows.append(f"<tr><td valign='top' style='padding:4px 10px 4px 0; line-height:150%'>{cells[0]}</td>"
                    f"<td valign='top' style='padding:4px 0 4px 10px; line-height:150%'>{cells[1]}</td></tr>")
    return f"<table width='100%' cellspacing='0' cellpadding='0'>{head}{''.join(rows)}</table>"
