"""The verses' keys ``(book_id, chapter, verse)`` by rowid, held as arrays, and the way back to a rowid.

At the whole Bible (31k verses) a list of tuples and a dict keyed by them took ≈ 4.5 MB of the app's
start-up memory; these arrays take ≈ 0.2 MB. :class:`VerseKeys` is the sequence (index ``i`` is the verse
with rowid ``i``; index 0 is unused and reads ``("", 0, 0)``), :class:`RowidOf` the mapping back
(``rowid_of[(book, chapter, verse)]``), answered from each chapter's run of rowids — a dict look-up and a
little arithmetic, as fast as the dict it replaces. A chapter whose verses are not one ascending run of
rowids (possible in a database built by hand) keeps its keys in a small dict instead.
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import overload

import numpy as np
import numpy.typing as npt

Key = tuple[str, int, int]


class VerseKeys(Sequence[Key]):
    """Index ``i`` is the key of the verse with rowid ``i``."""

    def __init__(self, keys: Iterable[tuple[int, str, int, int]], last: int) -> None:
        """``keys``: ``(rowid, book_id, chapter, verse)`` rows with ``0 < rowid <= last``."""
        self.book_ids: list[str] = [""]
        where: dict[str, int] = {"": 0}
        self._book = array("H", bytes(2 * (last + 1)))
        self._chapter = array("H", bytes(2 * (last + 1)))
        self._verse = array("H", bytes(2 * (last + 1)))
        for r, b, c, v in keys:
            i = where.get(b)
            if i is None:
                i = where[b] = len(self.book_ids)
                self.book_ids.append(b)
            self._book[r], self._chapter[r], self._verse[r] = i, c, v

    @classmethod
    def of(cls, keys: Sequence[Key]) -> VerseKeys:
        """From keys listed by rowid (``keys[0]`` unused)."""
        return cls(((r, *k) for r, k in enumerate(keys) if r), len(keys) - 1)

    def __len__(self) -> int:
        return len(self._book)

    @overload
    def __getitem__(self, i: int) -> Key: ...
    @overload
    def __getitem__(self, i: slice) -> list[Key]: ...
    def __getitem__(self, i: int | slice) -> Key | list[Key]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        return self.book_ids[self._book[i]], self._chapter[i], self._verse[i]

    def __iter__(self) -> Iterator[Key]:
        names = self.book_ids
        return ((names[b], c, v) for b, c, v in zip(self._book, self._chapter, self._verse, strict=True))

    def book_of(self, i: int) -> str:
        return self.book_ids[self._book[i]]

    def chapter_of(self, i: int) -> tuple[str, int]:
        return self.book_ids[self._book[i]], self._chapter[i]

    def books(self) -> list[str]:
        """The books in rowid order of their first verse."""
        seen = dict.fromkeys(self._book[1:])
        return [self.book_ids[b] for b in seen if b]

    def in_books(self, books: Iterable[str]) -> npt.NDArray[np.bool_]:
        """For each index (0 included), whether its verse is in ``books``."""
        names = set(books)
        wanted = [i for i, b in enumerate(self.book_ids) if i and b in names]
        return np.isin(np.frombuffer(self._book, dtype=np.uint16), wanted)

    def chapter_codes(self) -> npt.NDArray[np.int64]:
        """One number per index, equal for two indexes exactly when their verses share a chapter."""
        book = np.frombuffer(self._book, dtype=np.uint16).astype(np.int64)
        return (book << 16) | np.frombuffer(self._chapter, dtype=np.uint16)

    def verse_numbers(self) -> array[int]:
        return self._verse


class RowidOf(Mapping[Key, int]):
    """The rowid of each verse key of a :class:`VerseKeys` (the last rowid when a key repeats)."""

    def __init__(self, keys: VerseKeys) -> None:
        self._keys = keys
        #: (book_id, chapter) → (first rowid, rowid after the last) of a chapter with one ascending run
        self._runs: dict[tuple[str, int], tuple[int, int]] = {}
        self._odd: dict[Key, int] = {}
        verses = keys.verse_numbers()
        odd: set[tuple[str, int]] = set()
        start, n = 1, len(keys)
        while start < n:
            chapter = keys.chapter_of(start)
            end = start + 1
            while end < n and keys.chapter_of(end) == chapter and verses[end] > verses[end - 1]:
                end += 1
            if chapter in self._runs or chapter in odd or not chapter[0]:
                odd.add(chapter)
            else:
                self._runs[chapter] = (start, end)
            start = end
        for chapter in odd:
            self._runs.pop(chapter, None)
        if odd:
            for r in range(1, n):
                chapter = keys.chapter_of(r)
                if chapter in odd and chapter[0]:
                    self._odd[(chapter[0], chapter[1], verses[r])] = r

    def get(self, key: Key, default: int | None = None) -> int | None:  # type: ignore[override]
        run = self._runs.get((key[0], key[1]))
        if run is None:
            return self._odd.get(key, default) if self._odd else default
        lo, hi = run
        verses = self._keys.verse_numbers()
        v = key[2]
        guess = lo + v - verses[lo]
        if lo <= guess < hi and verses[guess] == v:
            return int(guess)
        at = bisect.bisect_left(verses, v, lo, hi)
        return at if at < hi and verses[at] == v else default

    def __getitem__(self, key: Key) -> int:
        r = self.get(key)
        if r is None:
            raise KeyError(key)
        return r

    def __contains__(self, key: object) -> bool:
        if not (isinstance(key, tuple) and len(key) == 3):
            return False
        b, c, v = key
        return isinstance(b, str) and isinstance(c, int) and isinstance(v, int) and self.get((b, c, v)) is not None

    def span(self, book_id: str, chapter: int, first: int, last: int) -> list[int]:
        """The rowids of the verses ``first``–``last`` of a chapter that the keys hold, in verse order."""
        run = self._runs.get((book_id, chapter))
        if run is None:
            found = sorted((k[2], r) for k, r in self._odd.items()
                           if k[0] == book_id and k[1] == chapter and first <= k[2] <= last)
            return [r for _, r in found]
        lo, hi = run
        verses = self._keys.verse_numbers()
        return list(range(bisect.bisect_left(verses, first, lo, hi), bisect.bisect_right(verses, last, lo, hi)))

    def __iter__(self) -> Iterator[Key]:
        seen: set[Key] = set()
        for r in range(1, len(self._keys)):
            key = self._keys[r]
            if key[0] and key not in seen and self.get(key) is not None:
                seen.add(key)
                yield key

    def __len__(self) -> int:
        return sum(1 for _ in self)
