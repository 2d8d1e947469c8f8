"""Chunks that cover a passage the question names (CONTRACT section 6).

A chunk covers a reference when its book and chapter are the reference's and its verses overlap the
referenced ones (a whole-chapter reference, or a chunk without verses, overlaps any verse). Covering
chunks join the pool even when the searches did not return them: the ``REFERENCE_POOL`` (20) nearest
to the question's vector per reference — or, in ``keyword`` mode, where there is no vector, the 20
best by keyword score — that also pass the filters.
"""

from __future__ import annotations

from ..core.query import Filters
from ..core.references import PassageRef
from ..store.scripture import ScriptureStore
from .filters import where_sql


def _covering_sql(ref: PassageRef) -> tuple[str, list[object]]:
    sql = "m.book_id = ? AND m.chapter_num = ?"
    params: list[object] = [ref.book_id, ref.chapter]
    if ref.verse_start is not None:
        end = ref.verse_end if ref.verse_end is not None else ref.verse_start
        sql += " AND (m.verse_start IS NULL OR (m.verse_start <= ? AND coalesce(m.verse_end, m.verse_start) >= ?))"
        params += [end, ref.verse_start]
    return sql, params


def covering(store: ScriptureStore, ref: PassageRef, filters: Filters = Filters()) -> list[int]:
    """Rowids of the chunks covering ``ref`` that ``filters`` allow, ascending."""
    cover, cparams = _covering_sql(ref)
    where, fparams = where_sql(filters)
    rows = store.rows(
        "SELECT t.rowid FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid "
        f"WHERE {cover} AND {where} ORDER BY t.rowid",
        [*cparams, *fparams],
    )
    return [int(r[0]) for r in rows]


def in_corpus(store: ScriptureStore, ref: PassageRef) -> bool:
    """Whether any chunk in the database covers ``ref`` (filters aside)."""
    cover, params = _covering_sql(ref)
    return bool(store.rows(f"SELECT 1 FROM chunk_metadata m WHERE {cover} LIMIT 1", params))
