"""Who wrote what: the scholars (authors) a chunk can be credited to, and their display names.

A chunk's ``scholar_id`` (``chunk_metadata.scholar_id``) names the author whose work the chunk comes
from; the re-ranker caps results per ``scholar_id`` and the profile boosts by it. People read names,
not ids, so every place that shows a scholar asks :func:`resolve` for a :class:`Scholar`:

1. the database's own optional ``scholars`` table (written by ``build-db``), when it has the id;
2. else :data:`KNOWN_SCHOLARS`, the authors this project's builder credits;
3. else a readable form of the id itself (``c-i-scofield`` → ``C. I. Scofield``).

So a database built by someone else, or one with only the contract's minimal schema, still shows
sensible names. No Qt, no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Scholar:
    """An author chunks are credited to.

    ``tradition`` is the theological tradition the re-ranker's tradition boost reads (``None`` for
    works that are not a theological voice: lexicons, concordances, topical indexes). ``work`` is
    the short title of the work the chunks come from, as titles and citations show it.
    """

    scholar_id: str
    name: str
    tradition: str | None = None
    work: str | None = None

    @property
    def surname(self) -> str:
        """The last word of the name without punctuation (``Abbott-Smith``, ``Scofield``)."""
        words = self.name.replace(",", " ").split()
        return words[-1].strip(".") if words else ""

    def work_names_author(self) -> bool:
        """True when the work's title already names its author ("Nave's Topical Bible")."""
        return bool(self.work and self.surname and self.surname.lower() in self.work.lower())


#: The authors this project's builder credits (docs/DATA.md, "Attribution", says why each
#: tradition is what it is). Commentators carry their tradition; lexicons, the concordance and the
#: topical index carry none; writers quoted inside a commentator's notes carry none either (a
#: sentence chosen by Scofield is not offered as their tradition's voice).
KNOWN_SCHOLARS: dict[str, Scholar] = {
    s.scholar_id: s
    for s in (
        Scholar("matthew-henry", "Matthew Henry", "reformed", "Concise Commentary"),
        Scholar("c-i-scofield", "C. I. Scofield", "dispensational", "Scofield Reference Notes"),
        Scholar("charles-spurgeon", "Charles H. Spurgeon", "baptist", "The Treasury of David"),
        Scholar("orville-nave", "Orville J. Nave", None, "Nave's Topical Bible"),
        Scholar("james-strong", "James Strong", None, "Strong's Exhaustive Concordance"),
        Scholar("g-abbott-smith", "G. Abbott-Smith", None, "Manual Greek Lexicon of the New Testament"),
        # Writers Scofield quotes in his notes ("…"--Bunyan), by the name the note gives.
        Scholar("john-bunyan", "John Bunyan"),
        Scholar("j-a-bengel", "J. A. Bengel"),
        Scholar("franz-delitzsch", "Franz Delitzsch"),
        Scholar("h-a-w-meyer", "H. A. W. Meyer"),
        Scholar("j-h-thayer", "J. H. Thayer"),
        Scholar("j-b-lightfoot", "J. B. Lightfoot"),
        Scholar("w-g-moorehead", "W. G. Moorehead"),
        Scholar("h-g-weston", "H. G. Weston"),
    )
}

_LOWER_PARTICLES = frozenset({"de", "da", "del", "der", "du", "la", "le", "van", "von", "of"})


def readable_id(scholar_id: str) -> str:
    """A person's name guessed from an id: ``c-i-scofield`` → ``C. I. Scofield``,
    ``john_calvin`` → ``John Calvin``; an id that is not lower-case words is returned as it is."""
    text = scholar_id.strip()
    parts = [p for p in re.split(r"[-_\s]+", text) if p]
    if not parts or not all(p.islower() or p.isdigit() for p in parts):
        return text
    words = []
    for i, part in enumerate(parts):
        if len(part) == 1 and part.isalpha():
            words.append(part.upper() + ".")
        elif i and part in _LOWER_PARTICLES:
            words.append(part)
        else:
            words.append(part[:1].upper() + part[1:])
    return " ".join(words)


def resolve(scholar_id: str, table: Mapping[str, Scholar] | None = None) -> Scholar:
    """The :class:`Scholar` for ``scholar_id``: ``table`` (a database's own), then
    :data:`KNOWN_SCHOLARS`, then a readable form of the id with no tradition or work."""
    if table and scholar_id in table:
        return table[scholar_id]
    known = KNOWN_SCHOLARS.get(scholar_id)
    if known is not None:
        return known
    return Scholar(scholar_id, readable_id(scholar_id) or scholar_id)


def display_name(scholar_id: str | None, table: Mapping[str, Scholar] | None = None) -> str:
    """The name to show for ``scholar_id`` (empty for ``None``)."""
    return resolve(scholar_id, table).name if scholar_id else ""


__all__ = ["KNOWN_SCHOLARS", "Scholar", "display_name", "readable_id", "resolve"]
