"""The full-text index's definition and the checks before a database's own is trusted (store/fts.py)."""

from __future__ import annotations

from pathlib import Path

from amicus_desktop.store import fts
from amicus_desktop.store.scripture import ScriptureStore
from tests.support.dbs import build_db, demo_like_chunks


def test_the_declaration_is_read_as_fts5_reads_it() -> None:
    builder = fts.create_sql(schema="main")
    assert fts.recognised(builder)
    assert fts.recognised(builder.replace("'porter unicode61 remove_diacritics 2'",
                                          "\"porter 'unicode61' remove_diacritics 2\""))
    assert not fts.recognised(builder.replace("content='chunk_text'", "content='other' /* content='chunk_text' */"))
    assert not fts.recognised(builder.replace("text,", "text, extra,"))
    assert not fts.recognised(builder.replace("text,", "text, detail=none,"))
    assert not fts.recognised(builder.replace("tokenize='porter unicode61 remove_diacritics 2'", "tokenize='porter'"))
    assert not fts.recognised("CREATE TABLE chunk_fts (text)")


def test_a_sound_index_and_no_index(tmp_path: Path) -> None:
    full = build_db(tmp_path / "full.db", demo_like_chunks())
    minimal = build_db(tmp_path / "min.db", demo_like_chunks(), full_schema=False)
    before = (full.read_bytes(), minimal.read_bytes())
    with ScriptureStore(full) as f, ScriptureStore(minimal) as m:
        assert f.keyword_index_problem() is None
        assert m.keyword_index_problem() == fts.NO_INDEX
    assert (full.read_bytes(), minimal.read_bytes()) == before


def test_token_counts_are_read_as_fts5_writes_them() -> None:
    """FTS5 stores a row's token count as an SQLite varint (one byte up to 127, then 7 bits a byte)."""
    assert [fts._varint(b) for b in (b"\x05", b"\x81\x08", b"\x81\x80\x00", b"")] == [5, 136, 16384, 0]
