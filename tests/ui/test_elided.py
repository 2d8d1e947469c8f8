"""ui/elided.py: a chunk title shortened to a column keeps its passage and elides the author first."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QFont, QFontMetrics

from amicus_desktop.ui.elided import elide_title

TITLE = "Matthew Henry, Concise Commentary — Romans 9:6-13 (part 6 of 6)"


def test_a_title_keeps_its_passage_and_loses_the_author_first(qapp: Any) -> None:
    fm = QFontMetrics(QFont())
    full = fm.horizontalAdvance(TITLE)
    assert elide_title(TITLE, fm, full) == TITLE  # it fits: nothing cut
    tail = " — Romans 9:6-13 (part 6 of 6)"
    narrow = elide_title(TITLE, fm, fm.horizontalAdvance("Matthew He…" + tail))
    assert narrow.endswith(tail) and narrow.startswith("Matthew") and "…" in narrow
    assert fm.horizontalAdvance(narrow) <= fm.horizontalAdvance("Matthew He…" + tail)
    # narrower: "(part 6 of 6)" goes before the reference does
    short = elide_title(TITLE, fm, fm.horizontalAdvance("Matthew He… — Romans 9:6-13"))
    assert short.startswith("Matthew") and short.endswith(" — Romans 9:6-13") and "part" not in short
    # narrower still: the author shrinks to its first letter, and the reference stays whole
    tiny = elide_title(TITLE, fm, fm.horizontalAdvance("Matthew H… — Romans 9"))
    assert tiny.startswith("M") and tiny.endswith(" — Romans 9:6-13") and "…" in tiny
    # narrower than that: the bare passage, and only then its end
    bare = elide_title(TITLE, fm, fm.horizontalAdvance("Romans 9:6-13"))
    assert bare == "Romans 9:6-13"
    cut = elide_title(TITLE, fm, fm.horizontalAdvance("Romans 9:"))
    assert cut.startswith("Mat") and cut.endswith("…") and len(cut) < len("Romans 9:6-13")
    word = elide_title("ἀγαπάω (agapáō, G25) — word study in Romans", fm, fm.horizontalAdvance("ἀγαπάω (a… — word"))
    assert word.startswith("ἀγαπάω") and " — w" in word  # a word study keeps its word
    # a title without an author part elides at its end, as any text
    plain = elide_title("What is a word study and how is it made?", fm, fm.horizontalAdvance("What is a"))
    assert plain.startswith("What") and plain.endswith("…")
