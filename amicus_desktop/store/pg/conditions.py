"""The two rules of :mod:`amicus_desktop.store.conditions` in PostgreSQL's SQL: which chunks a filter allows,
and which cover a passage — over ``chunk_text t`` / ``chunk_metadata m``, with ``%s`` parameters.

The same semantics, word for word (CONTRACT section 6): OR within a kind, AND across kinds, NULL never
matching a set kind; a whole-chapter passage covered by any chunk of the chapter, a chunk without verses
covering any verse of its chapter. Values travel as one array parameter per kind (``= ANY(%s)``), the
marked passages as four arrays unnested together. The exported columns are typed, so no ``CAST``.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core.query import Filters
from ...core.references import PassageRef
from ..conditions import FILTER_COLUMNS

#: The rows a filtered statement reads: every chunk, its metadata when it has some.
CHUNKS = "{s}.chunk_text t LEFT JOIN {s}.chunk_metadata m ON m.rowid = t.rowid"


def filter_condition(filters: Filters) -> tuple[str, list[object]]:
    """A condition over ``t`` and ``m`` (``TRUE`` without filters) and its parameters."""
    clauses: list[str] = []
    params: list[object] = []
    for kind, (alias, name) in FILTER_COLUMNS.items():
        values = getattr(filters, kind)
        if values:
            clauses.append(f"{alias}.{name} = ANY(%s::text[])")
            params.append(list(values))
    if filters.passages:
        sql, arrays = passages_condition(filters.passages)
        clauses.append(sql)
        params += arrays
    return (" AND ".join(clauses) or "TRUE"), params


def passages_condition(passages: Sequence[PassageRef]) -> tuple[str, list[object]]:
    """A condition over ``m``: the chunk covers one of ``passages`` (each as :func:`covering_condition`)."""
    books = [r.book_id for r in passages]
    chapters = [r.chapter for r in passages]
    starts = [r.verse_start for r in passages]
    ends = [None if r.verse_start is None else (r.verse_end or r.verse_start) for r in passages]
    sql = ("EXISTS (SELECT 1 FROM unnest(%s::text[], %s::int[], %s::int[], %s::int[]) AS p(b, c, vs, ve) "
           "WHERE m.book_id = p.b AND m.chapter_num = p.c AND (p.vs IS NULL OR m.verse_start IS NULL "
           "OR (m.verse_start <= p.ve AND coalesce(m.verse_end, m.verse_start) >= p.vs)))")
    return sql, [books, chapters, starts, ends]


def covering_condition(ref: PassageRef) -> tuple[str, list[object]]:
    """A condition over ``m``: the chunk covers ``ref``."""
    sql = "m.book_id = %s AND m.chapter_num = %s"
    params: list[object] = [ref.book_id, ref.chapter]
    if ref.verse_start is not None:
        end = ref.verse_end if ref.verse_end is not None else ref.verse_start
        sql += " AND (m.verse_start IS NULL OR (m.verse_start <= %s AND coalesce(m.verse_end, m.verse_start) >= %s))"
        params += [end, ref.verse_start]
    return sql, params
