"""A small real library for verse-search tests, built through the builder's own verse code with the real model.

Chapters of John and Romans (:data:`CHAPTERS`): both translations' verses, Matthew Henry's and Scofield's
notes on them, and Strong's entries for the words their verses use — embedded in-process by the same
local model the real proxy serves, the verse tables written by
:func:`amicus_desktop.corpus.verse_index.write_verse_search`, exactly as ``build-db`` writes them.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from amicus_desktop.core.books import BY_ID
from amicus_desktop.corpus.library import Library
from amicus_desktop.corpus.sources.commentaries import read_scofield, scofield_chunks
from amicus_desktop.corpus.sources.common import BibleText, Scope, scholars_of
from amicus_desktop.corpus.sources.henry import mhcc_chunks
from amicus_desktop.corpus.sources.lexicon import Lexicon, lexicon_chunks
from amicus_desktop.corpus.verse_index import TRANSLATIONS, write_verse_search
from amicus_desktop.embedding.base import Embedder, embed_documents
from amicus_desktop.store.writer import ScriptureWriter

CHAPTERS: dict[str, tuple[int, ...]] = {"john": (1, 3, 11, 14, 15), "romans": (3, 8, 12)}


def _kept(key: tuple[str, int, int]) -> bool:
    return key[1] in CHAPTERS.get(key[0], ())


def build_verse_library(path: Path, embedder: Embedder) -> Path:
    library = Library()
    scope = Scope.of(list(CHAPTERS))
    bibles = {t: BibleText({k: v for k, v in b.verses.items() if _kept(k)},
                           {k: v for k, v in b.tokens.items() if _kept(k)})
              for t, b in ((t, BibleText.load(library, scope.books, module)) for t, module, *_ in TRANSLATIONS)}
    notes = [r for r in [*mhcc_chunks(library, scope), *scofield_chunks(read_scofield(library, scope))]
             if r.source_type == "section_panel" and r.metadata.book_id is not None
             and r.metadata.chapter_num in CHAPTERS.get(r.metadata.book_id, ())]
    numbers = {n for tokens in bibles["web"].tokens.values() for token in tokens for n in token.strongs}
    records = notes + list(lexicon_chunks(Lexicon(library), numbers))
    vectors = np.asarray(embed_documents(embedder, [r.text for r in records]), dtype=np.float32)
    with ScriptureWriter(path, model_id=embedder.model_id, dims=embedder.dims, corpus_name="verse tests") as w:
        w.add_books((b, BY_ID[b].name, BY_ID[b].ordinal, BY_ID[b].chapters) for b in CHAPTERS)
        w.add_verses((b, c, v, t) for (b, c, v), t in bibles["web"].verses.items())
        w.add_scholars(scholars_of(records))
        w.add_chunks(records, vectors)
        write_verse_search(w, bibles, embedder, library, batch=64)
    return path
