"""Verse keys held as arrays (store/verse_keys.py) answer as the list of tuples and the dict they replace."""

from __future__ import annotations

import numpy as np

from amicus_desktop.store.verse_keys import RowidOf, VerseKeys

KEYS = [("", 0, 0),
        ("romans", 1, 1), ("romans", 1, 2), ("romans", 1, 4),  # a missing verse 3
        ("romans", 2, 1), ("romans", 2, 2),
        ("john", 3, 16), ("john", 3, 15),  # out of order: an irregular chapter
        ("romans", 3, 1), ("john", 3, 17),  # john 3 again after another chapter
        ("john", 4, 1)]


def _reference() -> dict[tuple[str, int, int], int]:
    return {k: i for i, k in enumerate(KEYS) if i}


def test_keys_and_rowids_answer_as_the_tuples_and_dict() -> None:
    keys = VerseKeys.of(KEYS)
    assert len(keys) == len(KEYS) and list(keys) == KEYS and keys[1:] == KEYS[1:]
    assert [keys[i] for i in range(len(KEYS))] == KEYS
    rowid_of = RowidOf(keys)
    want = _reference()
    assert dict(rowid_of.items()) == want and len(rowid_of) == len(want)
    for k, r in want.items():
        assert rowid_of[k] == r and k in rowid_of
    for missing in [("romans", 1, 3), ("romans", 1, 5), ("romans", 9, 1), ("john", 3, 18), ("", 0, 0)]:
        assert missing not in rowid_of and rowid_of.get(missing) is None
    assert "romans" not in rowid_of and ("romans", "1", 1) not in rowid_of


def test_spans_masks_books_and_chapters() -> None:
    keys = VerseKeys.of(KEYS)
    rowid_of = RowidOf(keys)
    assert rowid_of.span("romans", 1, 1, 10**6) == [1, 2, 3]
    assert rowid_of.span("romans", 1, 2, 3) == [2]
    assert rowid_of.span("john", 3, 15, 17) == [7, 6, 9]  # in verse order, across the irregular runs
    assert rowid_of.span("john", 3, 16, 16) == [6]
    assert rowid_of.span("acts", 1, 1, 5) == []
    assert keys.books() == ["romans", "john"]
    assert list(np.flatnonzero(keys.in_books(["john"]))) == [6, 7, 9, 10]
    assert keys.chapter_of(4) == ("romans", 2) and keys.book_of(10) == "john"
    codes = keys.chapter_codes()
    assert codes[1] == codes[2] == codes[3] != codes[4] and codes[6] == codes[9] != codes[10]
