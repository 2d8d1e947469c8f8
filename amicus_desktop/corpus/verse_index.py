"""The verse-search tables of a build: both translations' text and word indexes, the WEB's verse vectors
and Strong's numbers (CONTRACT section 14; the tables are described in :mod:`amicus_desktop.store.verse_tables`).

The World English Bible is the default translation (its text is section 1's ``verses``); the King James
Version gets a table of its own. Each WEB verse is embedded alone: measured against the verse golden
set, a verse embedded with its neighbours ranked worse (docs/RELEVANCE.md), and verse search already
lets a verse's neighbours count at query time.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Collection, Sequence

from ..core.books import BY_ID
from ..embedding.base import Embedder
from ..store.writer import ScriptureWriter
from .lanes import embed_in_lanes
from .library import Library
from .sources.common import BibleText
from .sources.lexicon import Lexicon

#: (translation id, module key, name, abbreviation); the first is the default translation.
TRANSLATIONS: tuple[tuple[str, str, str, str], ...] = (
    ("web", "web", "World English Bible", "WEB"),
    ("kjv", "kjv", "King James Version", "KJV"),
)


class Cancelled(Exception):
    """The build's cancel event was set while verses were being embedded."""


def load_translations(library: Library, web: BibleText) -> dict[str, BibleText]:
    """Every translation's verses of all 66 books (the WEB's, already read, is passed in)."""
    bibles = {"web": web}
    for translation_id, module, _name, _abbreviation in TRANSLATIONS[1:]:
        bibles[translation_id] = BibleText.whole(library, module)
    return bibles


def write_verse_search(
    writer: ScriptureWriter,
    bibles: dict[str, BibleText],
    embedder: Embedder,
    library: Library,
    *,
    batch: int,
    progress: Callable[[str, int, int, float, float | None], None] | None = None,
    cancel: threading.Event | None = None,
    embed_books: Collection[str] | None = None,
    lanes: Sequence[Embedder] | None = None,
) -> int:
    """Write every verse-search table for the verses of ``bibles`` (translation id → verses; the WEB's
    carry the Strong's tags and are embedded: those of ``embed_books``, or all); returns how many verses
    were embedded."""
    web = bibles["web"]
    keys = sorted({key for bible in bibles.values() for key in bible.verses},
                  key=lambda k: (BY_ID[k[0]].ordinal, k[1], k[2]))
    rowid = {key: i for i, key in enumerate(keys, start=1)}
    tables = writer.verse_tables()
    tables.add_keys((rowid[k], *k) for k in keys)
    for i, (translation_id, _module, name, abbreviation) in enumerate(TRANSLATIONS):
        bible = bibles[translation_id]
        rows = [(rowid[k], *k, bible.verses[k]) for k in keys if k in bible.verses]
        tables.add_translation(translation_id, name, abbreviation, default=i == 0, licence="Public Domain",
                               rows=rows)
        tables.add_word_strongs(translation_id, ((rowid[k], bible.verses[k], [(t.text, t.strongs) for t in
                                                  bible.tokens.get(k, ())]) for k in keys if k in bible.verses))
    lexicon = Lexicon(library)
    function_word: dict[str, bool] = {}

    def content_word(number: str) -> bool:
        if number not in function_word:
            entry = lexicon.get(number)
            function_word[number] = entry is None or entry.function_word
        return not function_word[number]

    tables.add_strongs(
        (number, rowid[key]) for key, tokens in web.tokens.items() if key in rowid
        for token in tokens for number in token.strongs if content_word(number)
    )
    embedded = [k for k in keys if k in web.verses and (embed_books is None or k[0] in embed_books)]
    started = time.monotonic()
    dims = int(embedder.dims)

    def check() -> None:
        if cancel is not None and cancel.is_set():
            raise Cancelled

    parts = ((embedded[s: s + batch], [web.verses[k] for k in embedded[s: s + batch]])
             for s in range(0, len(embedded), batch))
    done = 0
    for part, vectors in embed_in_lanes(lanes or [embedder], parts, before=check):
        if vectors.shape != (len(part), dims):
            raise ValueError(f"the embedder returned vectors shaped {vectors.shape}, expected ({len(part)}, {dims})")
        tables.add_vectors([rowid[k] for k in part], [k[0] for k in part], vectors)
        done += len(part)
        if progress:
            elapsed = time.monotonic() - started
            rate = done / elapsed if elapsed > 0 else 0.0
            progress("embedding verses", done, len(embedded), rate,
                     (len(embedded) - done) / rate if rate > 0 else None)
    tables.finish()
    return len(embedded)
