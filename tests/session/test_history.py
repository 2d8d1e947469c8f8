"""The questions asked in this session (``session/history.py``), walked like a shell's history."""

from __future__ import annotations

from amicus_desktop.session import History


def test_history_walks_back_and_forward_and_gives_the_draft_back() -> None:
    h = History(limit=3)
    assert h.older("draft") is None and h.newer() is None  # nothing asked yet
    for q in ("grace", "faith", "hope", "grace ", ""):
        h.add(q)
    assert h.items == ("faith", "hope", "grace")  # asked again: moved to the end; blanks ignored
    assert h.older("half-typed") == "grace"
    assert h.older("ignored") == "hope"
    assert h.older("ignored") == "faith"
    assert h.older("ignored") is None  # the oldest: stays
    assert h.newer() == "hope"
    assert h.newer() == "grace"
    assert h.newer() == "half-typed"  # past the newest: the draft comes back
    assert h.newer() is None  # not walking any more
    for q in ("a", "b", "c", "d"):
        h.add(q)
    assert h.items == ("b", "c", "d")  # the limit keeps the newest
    assert h.older("d") == "c"  # the box shows the question just asked: Up goes to the one before
