"""Reader of SWORD's compressed lexicon/dictionary format (zLD).

Files share a prefix (the ``.conf``'s ``DataPath``):

* ``.idx`` — 8 bytes per key, ``<II``: offset and size of the key's record in ``.dat``;
* ``.dat`` — the record: the key, ``\\n`` (often preceded by ``\\r``), then ``<II``: block number
  and entry number within the block;
* ``.zdx`` — 8 bytes per block, ``<II``: offset and compressed size in ``.zdt``;
* ``.zdt`` — zlib blocks; a decompressed block is ``<I`` count, ``count`` × ``<II`` (offset, size
  inside the block), then the entries' text.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path

from .zverse import SwordFormatError


def decode_text(raw: bytes, declared: str | None = None) -> str:
    """Decode an entry: UTF-8 when it is valid UTF-8 (some confs omit or misstate ``Encoding``),
    else the declared encoding (SWORD's default is Latin-1)."""
    raw = raw.replace(b"\x00", b"")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode(declared or "latin-1", errors="replace")


class ZLDModule:
    """A zLD dictionary: ``keys()`` in stored (sorted) order, ``raw(key)`` the entry's markup."""

    def __init__(self, prefix: str | Path, *, encoding: str | None = None) -> None:
        self.prefix = Path(prefix)
        self.encoding = encoding

        def read(ext: str) -> bytes:
            path = self.prefix.with_name(self.prefix.name + ext)
            if not path.exists():
                raise SwordFormatError(f"zLD file missing: {path}")
            return path.read_bytes()

        self._idx = read(".idx")
        self._dat = read(".dat")
        self._zdx = read(".zdx")
        self._zdt = read(".zdt")
        if len(self._idx) % 8 or len(self._zdx) % 8:
            raise SwordFormatError(f"{self.prefix}: index files are not whole 8-byte records")
        self._keys: list[str] = []
        # A few keys are stored twice (Nave's SIN and REVERENCE, Hebrew 2200): keep every part.
        self._where: dict[str, list[tuple[int, int]]] = {}
        for i in range(len(self._idx) // 8):
            offset, size = struct.unpack_from("<II", self._idx, i * 8)
            record = self._dat[offset : offset + size]
            nl = record.find(b"\n")
            if nl < 0 or len(record) < nl + 9:
                continue
            key = decode_text(record[:nl], encoding).strip()
            block, entry = struct.unpack_from("<II", record, nl + 1)
            if key not in self._where:
                self._keys.append(key)
                self._where[key] = []
            self._where[key].append((block, entry))
        self._block = lru_cache(maxsize=16)(self._decompress)

    def __len__(self) -> int:
        return len(self._keys)

    def __contains__(self, key: object) -> bool:
        return key in self._where

    def keys(self) -> list[str]:
        return list(self._keys)

    def _decompress(self, block: int) -> bytes:
        offset, csize = struct.unpack_from("<II", self._zdx, block * 8)
        return zlib.decompress(self._zdt[offset : offset + csize])

    def raw(self, key: str) -> str:
        """The entry's markup (parts of a key stored twice joined, duplicates dropped);
        ``KeyError`` when the key is absent."""
        parts: list[str] = []
        for block, entry in self._where[key]:
            text = self._entry(block, entry)
            if text not in parts:
                parts.append(text)
        return "\n".join(parts)

    def _entry(self, block: int, entry: int) -> str:
        data = self._block(block)
        count = struct.unpack_from("<I", data, 0)[0]
        if entry >= count:
            raise SwordFormatError(f"{self.prefix}: entry {entry} beyond block {block} ({count})")
        offset, size = struct.unpack_from("<II", data, 4 + entry * 8)
        return decode_text(data[offset : offset + size], self.encoding)

    def items(self) -> Iterator[tuple[str, str]]:
        for key in self._keys:
            yield key, self.raw(key)
