"""Citation lines for context assembly: what a chunk is, whose, and where.

Interim: the names of sources and scholars are derived from the chunk's own ids here; the corpus
work brings display names from the database.
"""

from __future__ import annotations

from ..core.books import BY_ID
from ..core.types import RetrievedChunk

KIND = {
    "section_panel": "Section note",
    "chapter_panel": "Chapter introduction",
    "word_study": "Word study",
    "lexicon_entry": "Lexicon entry",
    "debate_topic": "Debate topic",
    "cross_ref_thread_note": "Cross-reference note",
    "journey_stop": "Journey stop",
    "meta_faq": "About Amicus",
}


def citation(r: RetrievedChunk) -> str:
    c = r.candidate
    m = c.metadata
    book = BY_ID.get(m.book_id or "")
    where = m.reference(book.name if book else None)
    who = (m.scholar_id or "").replace("-", " ").title()
    parts = [KIND.get(c.source_type, c.source_type.replace("_", " ").capitalize())]
    tail = " — ".join(p for p in (who, where) if p)
    return parts[0] + (f" · {tail}" if tail else "")
