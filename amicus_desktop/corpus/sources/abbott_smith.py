"""G. Abbott-Smith's *Manual Greek Lexicon of the New Testament* (1922) → ``lexicon_entry`` chunks.

The lexicon is public domain; its TEI edition (the translatable-exegetical-tools project, also
declared public domain) keys each entry by Strong's number and is shipped by Debian's
``bibledit-data`` (see :data:`~amicus_desktop.corpus.library.DATA_FILES`).

One chunk per entry that has a Strong's number, credited to ``g-abbott-smith`` with no tradition
(a lexicon, not a theological voice) and no book, like Strong's own entries. A scoped build keeps
the entries whose number the WEB uses in the chosen books; a full build keeps all. Entries that
only point to another entry ("βαθέως, v.s. βαθύς") are skipped, and so are the 700 or so entries
without a Strong's number (mostly variant spellings). Transcribers' notes in the TEI are dropped.
Long entries (the prepositions run to 700 words) are split like any long note; every part repeats
the head line, so a part still says which word it is about.
"""

from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ...store.writer import ChunkRecord
from ..chunking import MAX_WORDS, split_text, word_count
from ..library import Library
from .common import mark_parts, meta, record

log = logging.getLogger("amicus.corpus")

SCHOLAR = "g-abbott-smith"
WORK = "G. Abbott-Smith, Manual Greek Lexicon of the New Testament"
#: Glosses listed on an entry's head line.
MAX_GLOSSES = 6

_NS = "{http://www.crosswire.org/2013/TEIOSIS/namespace}"
_NUMBER = re.compile(r"^([GH])0*(\d+)([a-z]?)$")
_EDITOR_NOTE = re.compile(r"\{\s*Editor note:[^}]*\}", re.IGNORECASE)
_SPACE_BEFORE_PUNCT = re.compile(r"\s+([,;:.)\]])")
_SPACE_AFTER_OPEN = re.compile(r"([(\[])\s+")


def normalise_number(raw: str) -> str | None:
    """``G0901a`` → ``G901a``; ``None`` for anything that is not a Strong's number."""
    m = _NUMBER.match(raw.strip())
    return f"{m.group(1)}{int(m.group(2))}{m.group(3)}" if m else None


def base_number(number: str) -> str:
    """``G901a`` → ``G901`` (the lexicon's extra entries share their Strong's number)."""
    return number.rstrip("abcdefghijklmnopqrstuvwxyz")


def _clean(text: str) -> str:
    text = _EDITOR_NOTE.sub(" ", text)
    text = " ".join(text.split())
    text = _SPACE_BEFORE_PUNCT.sub(r"\1", text)
    return _SPACE_AFTER_OPEN.sub(r"\1", text)


def _render(el: ET.Element, out: list[str]) -> None:
    """The readable text of ``el`` into ``out``: sense numbers kept inline, notes dropped."""
    tag = el.tag.removeprefix(_NS)
    if tag != "note":
        n = el.get("n") if tag == "sense" else None
        if n:
            out.append(f" {n} ")
        if el.text:
            out.append(el.text)
        for child in el:
            _render(child, out)
        if tag in ("sense", "cell", "row", "form", "etym"):
            out.append(" ")
    if el.tail:
        out.append(el.tail)


@dataclass(frozen=True)
class Entry:
    """One entry of the lexicon."""

    numbers: tuple[str, ...]   # ("G1344",); a few entries name several numbers
    lemma: str                 # δικαιόω
    occurrences: int | None    # times in the NT, as the edition counts them
    glosses: tuple[str, ...]   # the English glosses, in order
    body: str                  # the entry's text

    @property
    def number(self) -> str:
        return self.numbers[0]

    @property
    def is_pointer(self) -> bool:
        """An entry that only sends the reader elsewhere ("v.s. βαθύς")."""
        return not self.glosses and word_count(self.body) < 10 and "v.s." in self.body

    def head(self) -> str:
        """``δικαιόω (Strong's G1344) — G. Abbott-Smith, Manual Greek Lexicon of the New Testament``."""
        return f"{self.lemma} (Strong's {', '.join(self.numbers)}) — {WORK}"

    def parts(self) -> list[str]:
        """The chunk texts: the head line (with the count and glosses on the first) and the entry."""
        head = self.head()
        first_head = head + "."
        if self.occurrences:
            first_head += " Once in the NT." if self.occurrences == 1 else f" {self.occurrences} times in the NT."
        if self.glosses:
            first_head += f" Glosses: {'; '.join(self.glosses[:MAX_GLOSSES])}."
        budget = MAX_WORDS - word_count(first_head)
        pieces = split_text(self.body, target=min(170, budget), maximum=budget) or [""]
        out = [f"{first_head}\n{pieces[0]}".strip()]
        out.extend(f"{head}, continued.\n{piece}" for piece in pieces[1:])
        return out


def parse_entry(el: ET.Element) -> Entry | None:
    """An ``<entry>`` element → :class:`Entry` (``None`` without a Strong's number)."""
    numbers = tuple(n for n in (normalise_number(x) for x in (el.get("strong") or "").split("|")) if n)
    if not numbers:
        return None
    occurrences = None
    for note in el.iter(f"{_NS}note"):
        if note.get("type") == "occurrencesNT" and (note.text or "").strip().isdigit():
            occurrences = int((note.text or "").strip())
            break
    glosses: list[str] = []
    for g in el.iter(f"{_NS}gloss"):
        gloss = _clean("".join(g.itertext())).strip(" ,;:.")
        if gloss and gloss not in glosses:
            glosses.append(gloss)
    out: list[str] = []
    if el.text:
        out.append(el.text)
    for child in el:
        _render(child, out)
    body = _clean("".join(out)).lstrip("*†‡ ")
    lemma = (el.get("lemma") or "").strip() or body.split(",", 1)[0]
    return Entry(numbers, lemma, occurrences, tuple(glosses), body)


def read_entries(path: Path) -> list[Entry]:
    """Every entry with a Strong's number, in the lexicon's order."""
    root = ET.parse(path).getroot()
    entries = [e for e in (parse_entry(el) for el in root.iter(f"{_NS}entry")) if e is not None]
    log.info("read the Abbott-Smith lexicon", extra={"entries": len(entries)})
    return entries


def abbott_smith_chunks(library: Library, numbers: Iterable[str] | None) -> Iterator[ChunkRecord]:
    """Chunks of the entries whose (base) number is in ``numbers`` (``None``: every entry)."""
    wanted = None if numbers is None else {base_number(n) for n in numbers}
    seen: dict[str, int] = {}
    for entry in read_entries(library.data_file("abbott-smith")):
        # ids come from the whole lexicon, so a scope never renumbers an entry
        seen[entry.number] = seen.get(entry.number, 0) + 1
        key = entry.number if seen[entry.number] == 1 else f"{entry.number}.{seen[entry.number]}"
        if entry.is_pointer:
            continue
        if wanted is not None and not any(base_number(n) in wanted for n in entry.numbers):
            continue
        parts = entry.parts()
        yield from mark_parts(
            record(f"abbott-smith:{key}{f'#{i}' if len(parts) > 1 else ''}", "lexicon_entry",
                   f"AbbottSmith:{key}", part, meta(SCHOLAR))
            for i, part in enumerate(parts, start=1)
        )


__all__ = ["Entry", "abbott_smith_chunks", "normalise_number", "parse_entry", "read_entries"]
