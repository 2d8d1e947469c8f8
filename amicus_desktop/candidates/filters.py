"""Filters inside candidate generation (CONTRACT section 6), never after a top-k cut.

Two ways to keep a filtered search exact, chosen by what the database has:

* the builder's databases carry vec0 metadata columns (``source_type``, ``book_id``, ``scholar_id``,
  ``tradition``): the filter becomes ``column IN (...)`` constraints that sqlite-vec applies while it
  scans, so the KNN returns ``k`` rows whenever ``k`` rows match;
* a database with the contract's minimal schema has none: the rows a filter allows are read from
  ``chunk_text``/``chunk_metadata`` first, and the KNN scans only those rowids (sqlite-vec's
  ``rowid IN (...)`` pre-filter). The keyword search always filters this way, inside its query.

Both read ``chunk_metadata`` semantics (NULL never matches a set filter); the vec0 columns store
absent values as ``''``, which no filter value equals.
"""

from __future__ import annotations

from typing import Any

from ..core.query import Filters
from ..store.scripture import ScriptureStore

#: filter kind → (vec0 metadata column, SQL column over chunk_text t / chunk_metadata m)
_COLUMNS: dict[str, tuple[str, str]] = {
    "source_types": ("source_type", "t.source_type"),
    "books": ("book_id", "m.book_id"),
    "scholars": ("scholar_id", "m.scholar_id"),
    "traditions": ("tradition", "m.tradition"),
}


def _kinds(filters: Filters) -> list[tuple[str, tuple[str, ...]]]:
    return [(kind, values) for kind in _COLUMNS if (values := getattr(filters, kind))]


def vec0_pushdown(store: ScriptureStore, filters: Filters) -> tuple[str, list[Any]] | None:
    """``AND column IN (?, …)`` constraints for a vec0 KNN, or ``None`` when the database lacks a column."""
    clauses: list[str] = []
    params: list[Any] = []
    for kind, values in _kinds(filters):
        column = _COLUMNS[kind][0]
        if column not in store.info.vec_filter_columns:
            return None
        clauses.append(f" AND {column} IN ({','.join('?' * len(values))})")
        params.extend(values)
    return "".join(clauses), params


def where_sql(filters: Filters) -> tuple[str, list[Any]]:
    """A ``WHERE`` condition over ``chunk_text t LEFT JOIN chunk_metadata m`` (``"1"`` without filters)."""
    clauses: list[str] = []
    params: list[Any] = []
    for kind, values in _kinds(filters):
        clauses.append(f"{_COLUMNS[kind][1]} IN ({','.join('?' * len(values))})")
        params.extend(values)
    return (" AND ".join(clauses) or "1"), params


def allowed_rowids(store: ScriptureStore, filters: Filters) -> list[int]:
    """Every rowid ``filters`` allow, ascending (read from ``chunk_text``/``chunk_metadata``)."""
    where, params = where_sql(filters)
    rows = store.rows(
        f"SELECT t.rowid FROM chunk_text t LEFT JOIN chunk_metadata m ON m.rowid = t.rowid WHERE {where} "
        "ORDER BY t.rowid",
        params,
    )
    return [int(r[0]) for r in rows]
