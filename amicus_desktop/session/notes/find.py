"""Searching the reader's note list: a passage, the words, or the letters typed so far. No Qt.

:func:`find_notes` runs on the notes worker over one :class:`~amicus_desktop.notes.Workspace`:

1. a query that is a reference ("Rom 9", "John 3:16") lists the notes on that passage first;
2. then the notes holding the query's words, best first, by the store's own word search — the BM25
   over this workspace's notes that a question's keyword search uses (stemmed: "graces" finds "grace");
3. then the notes whose text holds the query as typed (without accents or case), so a word still being
   typed ("justif") already finds them.

A blank query lists every note, the most recently changed first.
"""

from __future__ import annotations

from ...notes import Note, Workspace
from ...notes.search import keyword_search
from ...understand import PassageError, parse_passage
from ...understand.query import fold, keywords

#: The index the list's word search uses when the library's model is not known yet (words need no vectors).
WORDS_ONLY = "words-only"


def find_notes(ws: Workspace, query: str, limit: int, model_id: str | None = None) -> tuple[list[Note], int]:
    """The first ``limit`` notes of ``ws`` matching ``query`` (see the module docstring), and how many match."""
    notes = ws.notes()
    text = query.strip()
    if not text:
        newest = sorted(notes, key=lambda n: n.updated, reverse=True)
        return newest[:limit], len(newest)
    found: dict[str, Note] = {}
    try:
        ref = parse_passage(text)
    except PassageError:
        ref = None
    if ref is not None:
        found.update((n.id, n) for n in notes if n.ref is not None and ref.covers(n.metadata))
    words = keywords(text)
    if words:
        by_id = {n.id: n for n in notes}
        hits = keyword_search(ws.search().index(model_id or WORDS_ONLY), words, max(limit, 1))
        ranked = ws.by_rowid([rowid for rowid, _ in hits])  # (no order: the hits give it)
        for rowid, _score in hits:
            hit = ranked.get(rowid)
            if hit is not None and hit.id in by_id:
                found.setdefault(hit.id, by_id[hit.id])
    typed = fold(text)
    for n in sorted(notes, key=lambda n: n.updated, reverse=True):
        if n.id not in found and typed in fold(n.text):
            found[n.id] = n
    out = list(found.values())
    return out[:limit], len(out)

