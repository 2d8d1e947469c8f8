"""What the study aids (:mod:`amicus_desktop.study`) read from scripture.db.

Typed questions over the library (the study package holds no SQL): the KJV's words and Strong's
numbers (:mod:`.word_strongs`), a number's lexicon chunks, the notes whose references are read for
cross-references (their index file is :mod:`.xref_file`), a verse's vector and text.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import numpy as np

from ..core.errors import AmicusError, ErrorCode
from .library import LibraryStore
from .scripture import ScriptureStore
from .verse_tables import VERSE_EMBEDDINGS
from .word_strongs import WORD_STRONGS

#: ``(kind, detail, chunk_id, anchor or None, members)``, each place ``(book_id, chapter, vs, ve)``
Place = tuple[str, int, int | None, int | None]
GroupRow = tuple[str, str, str, Place | None, Sequence[Place]]
#: ``(chunk_id, source_type, source_id, text, scholar_id, book_id, chapter, verse_start, verse_end)``
NoteRow = tuple[str, str, str, str, str | None, str | None, int | None, int | None, int | None]


def tables_of(store: LibraryStore) -> ScriptureStore:
    """The scripture.db behind ``store``: the study aids read its own tables (a library on another engine
    has none of them yet: ``DB_INVALID`` with a sentence saying so)."""
    if not isinstance(store, ScriptureStore):
        raise AmicusError(ErrorCode.DB_INVALID, "The study aids read a scripture.db library's own tables; "
                                                "this library is not a scripture.db.")
    return store


def has_table(store: ScriptureStore, name: str) -> bool:
    return bool(store.rows("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [name]))


def verse_text(store: ScriptureStore, table: str, book_id: str, chapter: int, verse: int) -> str | None:
    """One verse of the translation whose text is ``table`` (a name from ``translations``)."""
    rows = store.rows(f"SELECT text FROM {table} WHERE book_id = ? AND chapter_num = ? AND verse_num = ?",
                      [book_id, chapter, verse])
    return str(rows[0][0]) if rows else None


def first_verses(store: ScriptureStore, places: Sequence[tuple[str, int, int]]) -> dict[int, str]:
    """The default translation's text of each ``(book_id, chapter, verse)``, by its index in ``places``
    (one statement; a verse the library lacks is left out)."""
    rows = store.rows(
        "SELECT CAST(j.key AS INTEGER), v.text FROM json_each(?) j JOIN verses v "
        "ON v.book_id = json_extract(j.value, '$[0]') AND v.chapter_num = json_extract(j.value, '$[1]') "
        "AND v.verse_num = json_extract(j.value, '$[2]')", [json.dumps([list(p) for p in places])])
    return {int(i): str(t) for i, t in rows}


def verse_word_rows(store: ScriptureStore, translation_id: str, verse_rowid: int) -> list[tuple[str, str]]:
    """``(strongs, words)`` of one verse (:mod:`.word_strongs`)."""
    return [(str(n), str(w)) for n, w in store.rows(
        f"SELECT strongs, words FROM {WORD_STRONGS} WHERE verse_rowid = ? AND translation_id = ?",
        [verse_rowid, translation_id])]


def concordance_rows(store: ScriptureStore, translation_id: str, table: str,
                     number: str) -> list[tuple[str, int, int, str, str]]:
    """``(book_id, chapter, verse, text, words)`` of every verse whose words carry ``number``, in Bible order."""
    return [(str(b), int(c), int(v), str(t), str(w)) for b, c, v, t, w in store.rows(
        f"SELECT k.book_id, k.chapter_num, k.verse_num, v.text, w.words FROM {WORD_STRONGS} w "
        f"JOIN verse_keys k ON k.rowid = w.verse_rowid JOIN {table} v ON v.book_id = k.book_id "
        "AND v.chapter_num = k.chapter_num AND v.verse_num = k.verse_num "
        "WHERE w.translation_id = ? AND w.strongs = ? ORDER BY w.verse_rowid", [translation_id, number])]


def lexicon_rows(store: ScriptureStore, number: str) -> list[tuple[str, str, str, str, str | None]]:
    """``(chunk_id, source_type, source_id, text, book_id)`` of the lexicon entries and word studies whose
    ``source_id`` names ``number`` (``G26``, ``G26:romans``, ``AbbottSmith:G26…``)."""
    return [(str(c), str(t), str(s), str(x), None if b is None else str(b)) for c, t, s, x, b in store.rows(
        "SELECT t.chunk_id, t.source_type, t.source_id, t.text, m.book_id FROM chunk_text t "
        "LEFT JOIN chunk_metadata m ON m.rowid = t.rowid WHERE t.source_type IN ('lexicon_entry', 'word_study') "
        "AND (t.source_id = ? OR t.source_id LIKE ? OR t.source_id LIKE ?) ORDER BY t.rowid",
        [number, f"{number}:%", f"AbbottSmith:{number}%"])]


def note_rows(store: ScriptureStore, scholars: Sequence[str]) -> list[NoteRow]:
    """The thread notes, and the commentary of ``scholars`` on a chapter or verses."""
    out: list[NoteRow] = []
    for c, t, s, x, sch, b, ch, vs, ve in store.rows(
            "SELECT t.chunk_id, t.source_type, t.source_id, t.text, m.scholar_id, m.book_id, m.chapter_num, "
            "m.verse_start, m.verse_end FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid "
            "WHERE t.source_type = 'cross_ref_thread_note' OR (t.source_type IN ('section_panel', 'chapter_panel') "
            f"AND m.scholar_id IN ({','.join('?' * len(scholars))}) AND m.chapter_num IS NOT NULL)", list(scholars)):
        out.append((str(c), str(t), str(s), str(x), None if sch is None else str(sch), None if b is None else str(b),
                    int_or_none(ch), int_or_none(vs), int_or_none(ve)))
    return out


def int_or_none(value: object) -> int | None:
    return int(value) if isinstance(value, (int, float)) else None


def verse_vector(store: ScriptureStore, verse_rowid: int) -> np.ndarray | None:
    rows = store.rows(f"SELECT embedding FROM {VERSE_EMBEDDINGS} WHERE rowid = ?", [verse_rowid])
    if not rows or not isinstance(rows[0][0], bytes) or len(rows[0][0]) != 4 * store.info.dims:
        return None
    return np.frombuffer(rows[0][0], dtype="<f4")
