"""The SQL form of passage coverage agrees with ``PassageRef.covers`` (store/conditions.py).

Generated metadata, NULL verses and chapters included, in a table declared as the contract declares it
and in one declared without types (where SQLite keeps ``'2'`` and ``45`` as stored and the reader
coerces them): the rows the store's condition selects are exactly those ``covers`` accepts for what
the reader hands out.
"""

from __future__ import annotations

from pathlib import Path

import apsw
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amicus_desktop.core.references import PassageRef
from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.store import schema
from amicus_desktop.store.conditions import covering_condition, passages_condition
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.store.validate import affinity
from amicus_desktop.store.values import opt_int, opt_text
from tests.support.dbs import Chunk, build_db

UNTYPED = ("CREATE TABLE chunk_metadata (rowid INTEGER PRIMARY KEY, scholar_id, tradition, book_id, chapter_num, "
           "verse_start, verse_end, panel_type)")

# What a database may hold: NULLs, numbers stored as text or as floats, a numeric book id.
books = st.sampled_from([None, "romans", "john", 45, "45"])
chapters = st.sampled_from([None, 1, 2, "2", 2.0, " 2"])
verses = st.one_of(st.none(), st.integers(1, 8), st.integers(1, 8).map(str), st.integers(1, 8).map(float))
rows = st.lists(st.tuples(books, chapters, verses, verses), min_size=0, max_size=25)


@st.composite
def references(draw: st.DrawFn) -> PassageRef:
    start = draw(st.none() | st.integers(1, 8))
    end = None if start is None else draw(st.none() | st.integers(1, 8))
    return PassageRef(draw(st.sampled_from(["romans", "john", "45"])), draw(st.integers(1, 2)), start, end)


def _selected(declaration: str, stored: list[tuple[object, ...]], ref: PassageRef) -> tuple[list[int], list[int]]:
    """(rows the SQL selects, rows ``covers`` accepts) for ``stored`` in a table declared so."""
    con = apsw.Connection(":memory:")
    con.execute(declaration)
    con.executemany("INSERT INTO chunk_metadata (book_id, chapter_num, verse_start, verse_end) VALUES (?, ?, ?, ?)",
                    stored)
    declared = {str(r[1]): str(r[2] or "") for r in con.execute("PRAGMA table_info(chunk_metadata)")}
    loose = [c for c in schema.METADATA_COLUMNS
             if affinity(declared[c]) not in (("INTEGER", "REAL", "NUMERIC") if c in schema.INTEGER_METADATA
                                              else ("TEXT",))]
    cover, params = covering_condition(ref, loose)
    chosen = [int(r[0]) for r in con.execute(f"SELECT rowid FROM chunk_metadata m WHERE {cover} ORDER BY rowid",
                                             params)]
    here = Path("memory.db")
    expected = []
    for rowid, book, chapter, start, end in con.execute(
            "SELECT rowid, book_id, chapter_num, verse_start, verse_end FROM chunk_metadata ORDER BY rowid"):
        meta = ChunkMetadata(
            book_id=opt_text(here, book, "book_id"), chapter_num=opt_int(here, chapter, "chapter_num"),
            verse_start=opt_int(here, start, "verse_start"), verse_end=opt_int(here, end, "verse_end"),
        )
        if ref.covers(meta):
            expected.append(int(rowid))
    con.close()
    return chosen, expected


@settings(max_examples=300, deadline=None, derandomize=True)
@given(stored=rows, ref=references())
def test_coverage_sql_agrees_with_covers_in_a_typed_table(stored: list[tuple[object, ...]], ref: PassageRef) -> None:
    chosen, expected = _selected(schema.CREATE_CHUNK_METADATA, stored, ref)
    assert chosen == expected


@settings(max_examples=300, deadline=None, derandomize=True)
@given(stored=rows, ref=references())
def test_coverage_sql_agrees_with_covers_in_an_untyped_table(stored: list[tuple[object, ...]], ref: PassageRef) -> None:
    chosen, expected = _selected(UNTYPED, stored, ref)
    assert chosen == expected


@settings(max_examples=40, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(metas=st.lists(st.tuples(st.sampled_from([None, "romans", "john"]), st.none() | st.integers(1, 2),
                                st.none() | st.integers(1, 6), st.none() | st.integers(1, 6)), min_size=1, max_size=12),
       ref=references())
def test_the_store_covers_what_covers_says(
    tmp_path: Path, metas: list[tuple[str | None, int | None, int | None, int | None]], ref: PassageRef
) -> None:
    """Through ScriptureStore on a built file, both schemas (the builder's passage index, and none)."""
    chunks = [Chunk(f"c{i}", [1.0, i, 0.5], meta=ChunkMetadata(book_id=b, chapter_num=c, verse_start=s, verse_end=e))
              for i, (b, c, s, e) in enumerate(metas)]
    expected = [i + 1 for i, chunk in enumerate(chunks) if ref.covers(chunk.meta)]
    for full in (True, False):
        db = build_db(tmp_path / f"s-{full}.db", chunks, full_schema=full)
        before = db.read_bytes()
        with ScriptureStore(db) as store:
            assert store.covering(ref) == expected
            assert store.covers_any(ref) is bool(expected)
        assert db.read_bytes() == before
        db.unlink()


def _selected_by_passages(declaration: str, stored: list[tuple[object, ...]],
                          refs: list[PassageRef]) -> tuple[list[int], list[int]]:
    """(rows the passages filter selects, rows ``covers`` accepts for one of ``refs``)."""
    con = apsw.Connection(":memory:")
    con.execute(declaration)
    con.executemany("INSERT INTO chunk_metadata (book_id, chapter_num, verse_start, verse_end) VALUES (?, ?, ?, ?)",
                    stored)
    declared = {str(r[1]): str(r[2] or "") for r in con.execute("PRAGMA table_info(chunk_metadata)")}
    loose = [c for c in schema.METADATA_COLUMNS
             if affinity(declared[c]) not in (("INTEGER", "REAL", "NUMERIC") if c in schema.INTEGER_METADATA
                                              else ("TEXT",))]
    where, param = passages_condition(refs, loose)
    chosen = [int(r[0]) for r in con.execute(f"SELECT rowid FROM chunk_metadata m WHERE {where} ORDER BY rowid",
                                             [param])]
    singly = set()
    for ref in refs:
        cover, params = covering_condition(ref, loose)
        singly |= {int(r[0]) for r in con.execute(f"SELECT rowid FROM chunk_metadata m WHERE {cover}", params)}
    con.close()
    return chosen, sorted(singly)


@settings(max_examples=200, deadline=None, derandomize=True)
@given(stored=rows, refs=st.lists(references(), min_size=1, max_size=4))
def test_the_passages_filter_is_coverage_of_any_passage(stored: list[tuple[object, ...]],
                                                       refs: list[PassageRef]) -> None:
    """The marked-passages filter (one JSON parameter) selects what the per-passage coverage does, OR'ed —
    in a typed table and in one declared without types."""
    for declaration in (schema.CREATE_CHUNK_METADATA, UNTYPED):
        chosen, expected = _selected_by_passages(declaration, stored, refs)
        assert chosen == expected
