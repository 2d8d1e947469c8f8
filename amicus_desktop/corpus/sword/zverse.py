"""Reader of SWORD's compressed verse-keyed formats: zText (Bibles) and zCom/zCom4 (commentaries).

Per testament (``ot``/``nt``) a module has three files, named ``{t}.{x}zs``, ``{t}.{x}zv`` and
``{t}.{x}zz`` where ``x`` is ``b`` (BlockType=BOOK), ``c`` (CHAPTER) or ``v`` (VERSE):

* ``.?zs`` block index: 12 bytes per block, ``<III``: offset into ``.?zz``, compressed size,
  uncompressed size.
* ``.?zv`` verse index: one record per verse *slot* of the versification (see
  :mod:`.versification`): block number (u32), offset in the uncompressed block (u32) and size
  (u16 in the older 10-byte layout, u32 in the 12-byte "zText4/zCom4" layout).
* ``.?zz`` the zlib-compressed blocks, concatenated.

The record size is **inferred from the index file's size** (it must equal slots × record size),
never taken from the ``.conf``: Debian's mhcc and scofield declare ``ModDrv=zCom4`` but ship the
10-byte layout, which read as declared yields text from the wrong books.

A commentary note that covers several verses is stored once and *linked*: the following verse
slots carry the same (block, offset, size). :meth:`ZVerseModule.entries` groups such runs.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .versification import Versification

_RECORD_FORMATS = {10: "<IIH", 12: "<III"}


class SwordFormatError(ValueError):
    """A module's files do not have the layout they should."""


@dataclass(frozen=True)
class VerseEntry:
    """One stored text and the verse slots that share it (a linked run).

    ``chapter`` 0 is the book's heading slot, ``verse`` 0 a chapter's heading slot.
    ``verse_end`` is the last verse of the run (== ``verse`` when not linked).
    """

    osis: str
    chapter: int
    verse: int
    verse_end: int
    raw: str


def infer_record_size(index_size: int, slots: int, path: Path | str = "") -> int:
    """10 or 12: the record size for which ``slots`` records fill ``index_size`` bytes exactly."""
    for size in (10, 12):
        if index_size == slots * size:
            return size
    # Some modules end the index early (trailing empty slots omitted) — accept the size that divides
    # the file and gives no more records than slots, preferring an exact fit of whole records.
    candidates = [s for s in (10, 12) if index_size % s == 0 and index_size // s <= slots]
    if len(candidates) == 1:
        return candidates[0]
    raise SwordFormatError(
        f"cannot tell the verse index record size of {path}: {index_size} bytes for {slots} slots"
    )


@dataclass
class _Run:
    """Verses not yet yielded that share one text record (a linked run, e.g. "Rom 3:9-10")."""

    chapter: int
    verse: int
    verse_end: int
    rec: tuple[int, int, int]


class _Testament:
    """The three files of one testament, opened lazily; decompressed blocks are cached."""

    def __init__(self, directory: Path, testament: str, slots: int) -> None:
        self.directory = directory
        self.testament = testament
        prefix = None
        for letter in ("b", "c", "v"):
            if (directory / f"{testament}.{letter}zv").exists():
                prefix = letter
                break
        self.present = prefix is not None
        self.block_index: list[tuple[int, int, int]] = []
        self.index = b""
        self.data = b""
        self.record_size = 10
        if prefix is None:
            return
        zs = (directory / f"{testament}.{prefix}zs").read_bytes()
        self.index = (directory / f"{testament}.{prefix}zv").read_bytes()
        self.data = (directory / f"{testament}.{prefix}zz").read_bytes()
        if len(zs) % 12:
            raise SwordFormatError(f"{directory}/{testament}.{prefix}zs is not a whole number of blocks")
        self.block_index = [struct.unpack_from("<III", zs, i) for i in range(0, len(zs), 12)]
        if not self.index:
            self.present = False
            return
        self.record_size = infer_record_size(
            len(self.index), slots, directory / f"{testament}.{prefix}zv"
        )
        self._fmt = _RECORD_FORMATS[self.record_size]
        self._block = lru_cache(maxsize=8)(self._decompress)

    @property
    def records(self) -> int:
        return len(self.index) // self.record_size if self.present else 0

    def record(self, slot: int) -> tuple[int, int, int]:
        if not self.present or slot >= self.records:
            return (0, 0, 0)
        return struct.unpack_from(self._fmt, self.index, slot * self.record_size)

    def _decompress(self, block: int) -> bytes:
        offset, csize, _usize = self.block_index[block]
        return zlib.decompress(self.data[offset : offset + csize])

    def text(self, rec: tuple[int, int, int]) -> bytes:
        block, offset, size = rec
        if size == 0 or block >= len(self.block_index):
            return b""
        return self._block(block)[offset : offset + size]


class ZVerseModule:
    """A zText/zCom module: raw markup per verse slot, in the module's own versification."""

    def __init__(self, directory: str | Path, versification: Versification, *,
                 encoding: str = "utf-8") -> None:
        self.directory = Path(directory)
        self.v11n = versification
        self.encoding = encoding
        self._testaments = {
            t: _Testament(self.directory, t, versification.slots(t)) for t in ("ot", "nt")
        }
        if not any(t.present for t in self._testaments.values()):
            raise SwordFormatError(f"no zText/zCom files in {self.directory}")

    def record_size(self, testament: str) -> int:
        return self._testaments[testament].record_size

    def _decode(self, raw: bytes) -> str:
        return raw.decode(self.encoding, errors="replace").replace("\x00", "")

    def raw(self, osis: str, chapter: int, verse: int) -> str:
        """The markup stored at a verse slot ('' when empty)."""
        testament, slot = self.v11n.slot(osis, chapter, verse)
        t = self._testaments[testament]
        return self._decode(t.text(t.record(slot)))

    def entries(self, osis: str) -> Iterator[VerseEntry]:
        """Every non-empty stored text of a book in order, linked runs merged.

        Yields the book heading (chapter 0), chapter headings (verse 0) and verses.
        """
        testament = self.v11n.testament_of(osis)
        t = self._testaments[testament]
        if not t.present:
            return
        prev_rec: tuple[int, int, int] | None = None
        pending: _Run | None = None

        def flush(run: _Run | None) -> Iterator[VerseEntry]:
            if run is not None:
                raw = self._decode(t.text(run.rec))
                if raw.strip():
                    yield VerseEntry(osis, run.chapter, run.verse, run.verse_end, raw)

        for chapter, verse, slot in self.v11n.book_slots(osis):
            rec = t.record(slot)
            if rec[2] == 0:
                yield from flush(pending)
                pending = prev_rec = None
                continue
            # A linked run continues only across verses of one chapter (never over a heading slot).
            if rec == prev_rec and pending and pending.chapter == chapter and verse > 0 and pending.verse > 0:
                pending.verse_end = verse
                continue
            yield from flush(pending)
            pending = _Run(chapter, verse, verse, rec)
            prev_rec = rec
        yield from flush(pending)
