"""The SQL form of two rules: which chunks a filter allows, and which chunks cover a passage.

Each is a ``WHERE`` condition over ``chunk_text t`` / ``chunk_metadata m`` with its parameters, and
this module is its only home: the store's searches (:mod:`.scripture`, :mod:`.keyword`) compose
them. Coverage has a Python form too, :meth:`PassageRef.covers
<amicus_desktop.core.references.PassageRef.covers>` (which chunks on screen a named passage
explains); ``tests/store/test_conditions.py`` checks on generated metadata, NULLs included, that
the two agree.

* **Filters** (CONTRACT section 6): OR within a kind, AND across kinds; NULL never matches a set
  kind. Values travel as one JSON parameter per kind (``IN (SELECT value FROM json_each(?))``), so
  a statement holds at most four parameters for them however many values a filter has. sqlite-vec
  pushes the same form into its scan on vec0 metadata columns.
* **Passages** (the reader's marked passages, :attr:`Filters.passages
  <amicus_desktop.core.query.Filters.passages>`): a chunk passes when it covers one of them, the passages
  travelling as one JSON parameter too; vec0 has no verse columns, so such a search runs over the rowids
  the condition allows.
* **Coverage**: same book and chapter, and verse ranges overlapping; a whole-chapter reference is
  covered by any chunk of the chapter, a chunk without verses covers any verse of its chapter.

A database from elsewhere may declare ``chunk_metadata`` without column types; SQLite then compares
the stored value as it is (``45 = '45'`` is false) where the reader coerces it
(:mod:`.values`). Columns without the affinity a comparison needs (``loose``, found by
:mod:`.validate`) are compared through ``CAST``, so the SQL agrees with what the reader hands out.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence

from ..core.query import Filters
from ..core.references import PassageRef
from .schema import INTEGER_METADATA

#: filter kind → (table alias, column); the vec0 metadata column has the same name.
FILTER_COLUMNS: dict[str, tuple[str, str]] = {
    "source_types": ("t", "source_type"),
    "books": ("m", "book_id"),
    "scholars": ("m", "scholar_id"),
    "traditions": ("m", "tradition"),
}
_AMONG = "IN (SELECT value FROM json_each(?))"


def json_list(values: Sequence[object]) -> str:
    """``values`` as the one parameter of :data:`_AMONG`."""
    return json.dumps(list(values))


def among(column: str) -> str:
    """``column IN`` the values of one JSON list parameter (see :func:`json_list`)."""
    return f"{column} {_AMONG}"


def column(alias: str, name: str, loose: Collection[str] = ()) -> str:
    """``alias.name``, through ``CAST`` when the column lacks the affinity its comparisons need."""
    if name not in loose:
        return f"{alias}.{name}"
    return f"CAST({alias}.{name} AS {'INTEGER' if name in INTEGER_METADATA else 'TEXT'})"


def _kinds(filters: Filters) -> list[tuple[str, tuple[str, ...]]]:
    return [(kind, values) for kind in FILTER_COLUMNS if (values := getattr(filters, kind))]


def filter_condition(filters: Filters, loose: Collection[str] = ()) -> tuple[str, list[object]]:
    """A condition over ``chunk_text t LEFT JOIN chunk_metadata m`` (``"1"`` without filters)."""
    clauses: list[str] = []
    params: list[object] = []
    for kind, values in _kinds(filters):
        alias, name = FILTER_COLUMNS[kind]
        clauses.append(among(column(alias, name, loose)))
        params.append(json_list(values))
    if filters.passages:
        sql, value = passages_condition(filters.passages, loose)
        clauses.append(sql)
        params.append(value)
    return (" AND ".join(clauses) or "1"), params


def passages_condition(passages: Sequence[PassageRef], loose: Collection[str] = ()) -> tuple[str, str]:
    """A condition over ``chunk_metadata m``: the chunk covers one of ``passages`` (:func:`covering_condition`
    for each, OR'ed), with the passages as one JSON parameter ``[[book, chapter, start, end], …]`` (a whole
    chapter's start and end ``null``)."""
    book, chapter = column("m", "book_id", loose), column("m", "chapter_num", loose)
    start, stop = column("m", "verse_start", loose), column("m", "verse_end", loose)
    p = "json_extract(p.value, '$[{}]')".format
    sql = (f"EXISTS (SELECT 1 FROM json_each(?) p WHERE {book} = {p(0)} AND {chapter} = {p(1)} AND ({p(2)} IS NULL "
           f"OR {start} IS NULL OR ({start} <= {p(3)} AND coalesce({stop}, {start}) >= {p(2)})))")
    rows = [[r.book_id, r.chapter, r.verse_start, None if r.verse_start is None else (r.verse_end or r.verse_start)]
            for r in passages]
    return sql, json.dumps(rows)


def vec0_filter_condition(filters: Filters, vec_columns: Collection[str]) -> tuple[str, list[object]] | None:
    """``filters`` as constraints sqlite-vec applies while it scans (``" AND …"``), or ``None`` when
    the vec0 table lacks a metadata column they need."""
    if filters.passages:  # vec0 holds no verses: the search runs over the rowids they allow
        return None
    clauses: list[str] = []
    params: list[object] = []
    for kind, values in _kinds(filters):
        name = FILTER_COLUMNS[kind][1]
        if name not in vec_columns:
            return None
        clauses.append(f" AND {among(name)}")
        params.append(json_list(values))
    return "".join(clauses), params


def covering_condition(ref: PassageRef, loose: Collection[str] = ()) -> tuple[str, list[object]]:
    """A condition over ``chunk_metadata m``: the chunk covers ``ref`` (see the module docstring)."""
    sql = f"{column('m', 'book_id', loose)} = ? AND {column('m', 'chapter_num', loose)} = ?"
    params: list[object] = [ref.book_id, ref.chapter]
    if ref.verse_start is not None:
        end = ref.verse_end if ref.verse_end is not None else ref.verse_start
        start, stop = column("m", "verse_start", loose), column("m", "verse_end", loose)
        sql += f" AND ({start} IS NULL OR ({start} <= ? AND coalesce({stop}, {start}) >= ?))"
        params += [end, ref.verse_start]
    return sql, params
