"""The reference chips above the results (``ui/chips.py``): one per passage the question names, at most
MAX_CHIPS and then "and N more", each opening its passage; hidden when there is none."""

from __future__ import annotations

from typing import Any

from amicus_desktop.core.names import Names
from amicus_desktop.core.references import PassageRef
from amicus_desktop.present import bounds
from amicus_desktop.ui.chips import ReferenceChips


def test_each_named_passage_is_a_chip_that_opens_it(qapp: Any) -> None:
    chips = ReferenceChips()
    opened: list[tuple[str, int, int, int]] = []
    chips.passageRequested.connect(lambda *args: opened.append(args))
    chips.set_references((PassageRef("romans", 9, 6, 13, "Rom 9:6-13"), PassageRef("john", 3, text="John 3")),
                         Names())
    assert not chips.isHidden() and chips.more.isHidden()
    assert [c.text() for c in chips.chips] == ["Romans 9:6–13", "John 3"]
    assert chips.chips[0].accessibleName() == "Open Romans 9:6–13 in the reader"
    assert "Rom 9:6-13" in chips.chips[0].toolTip()
    for chip in chips.chips:
        chip.click()
    assert opened == [("romans", 9, 6, 13), ("john", 3, 0, 0)]
    chips.set_references((), Names())
    assert chips.isHidden() and chips.chips == []
    chips.deleteLater()


def test_past_the_most_chips_the_rest_are_named_in_and_n_more(qapp: Any) -> None:
    chips = ReferenceChips()
    refs = tuple(PassageRef("psalms", n, text=f"Ps {n}") for n in range(1, bounds.MAX_CHIPS + 4))
    chips.set_references(refs, Names())
    assert len(chips.chips) == bounds.MAX_CHIPS
    assert not chips.more.isHidden() and chips.more.text() == "and 3 more"
    assert f"Psalms {bounds.MAX_CHIPS + 1}" in chips.more.toolTip()
    chips.deleteLater()
