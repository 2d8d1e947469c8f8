"""The reading history (back and forward through what was read) and the verse alignment of two translations.
Qt-free, in memory."""

from __future__ import annotations

from amicus_desktop.core.references import PassageRef
from amicus_desktop.session.reader import aligned
from amicus_desktop.session.reading_history import ReadingHistory

ROM9 = PassageRef("romans", 9)
ROM9_13 = PassageRef("romans", 9, 13, 13)
JOHN3_16 = PassageRef("john", 3, 16, 16, text="Jn 3:16")


def test_back_and_forward_walk_the_places_read_as_a_browser_does() -> None:
    h = ReadingHistory()
    seen: list[bool] = []
    h.changed.connect(lambda hist: seen.append(hist.can_back))
    assert h.back() is None and h.forward() is None and h.current is None
    for place in (ROM9, ROM9_13, ROM9_13, JOHN3_16):
        h.visit(place)
    assert h.places == (ROM9, ROM9_13, PassageRef("john", 3, 16, 16))  # the same place twice is one visit
    assert h.back() == ROM9_13 and h.back() == ROM9 and h.back() is None
    assert not h.can_back and h.can_forward
    assert h.forward() == ROM9_13
    assert h.peek(1) == PassageRef("john", 3, 16, 16) and h.peek(-1) == ROM9 and h.peek(5) is None
    h.visit(PassageRef("romans", 8, 28, 28))  # a new place after going back drops the places ahead
    assert h.places == (ROM9, ROM9_13, PassageRef("romans", 8, 28, 28)) and not h.can_forward
    assert seen and seen[-1] is True


def test_the_history_keeps_its_newest_places() -> None:
    h = ReadingHistory(limit=3)
    for chapter in range(1, 6):
        h.visit(PassageRef("john", chapter))
    assert [p.chapter for p in h.places] == [3, 4, 5]
    assert h.current == PassageRef("john", 5)


def test_two_translations_are_aligned_verse_by_verse_with_gaps_where_one_has_no_verse() -> None:
    web = ((13, "Beloved, I pray"), (14, "but I hope to see you soon. Peace be to you."))
    kjv = ((13, "I had many things to write"), (14, "But I trust I shall shortly see thee"), (15, "Peace be to thee."))
    rows = aligned(web, kjv)
    assert [n for n, _l, _r in rows] == [13, 14, 15]
    assert rows[2] == (15, None, "Peace be to thee.")
    assert aligned((), ((1, "a"),)) == [(1, None, "a")]
