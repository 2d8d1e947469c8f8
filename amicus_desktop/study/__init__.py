"""Study aids every Bible app has, from the library's own material: cross-references and Strong's numbers.

- :mod:`.xrefs` — :func:`cross_references`: a verse's cross-references, ranked, each with its sources;
- :mod:`.xref_index` — the references the notes cite, read once per library into a cache file;
- :mod:`.strongs` — :func:`strongs_study` (a number's entries, word studies and KJV concordance) and
  :func:`verse_words` (which words of a verse carry which numbers);
- :mod:`.model` — the answers as plain dataclasses with ``to_json``.

Functions of a :class:`~amicus_desktop.store.library.LibraryStore`, run on its thread. No Qt.
"""

from .model import (
    ConcordanceLine,
    CrossReference,
    CrossReferences,
    LexiconText,
    StrongsStudy,
    VerseWord,
    XrefEvidence,
    XrefSource,
)
from .strongs import has_word_table, numbers_at, parse_number, strongs_study, verse_words
from .xrefs import cross_references, parse_sources

__all__ = [
    "ConcordanceLine",
    "CrossReference",
    "CrossReferences",
    "LexiconText",
    "StrongsStudy",
    "VerseWord",
    "XrefEvidence",
    "XrefSource",
    "cross_references",
    "has_word_table",
    "numbers_at",
    "parse_number",
    "parse_sources",
    "strongs_study",
    "verse_words",
]
