"""The two-stage index on real sqlite-vec files: exact distances, filters, fallbacks, bad tables."""

from __future__ import annotations

import json
import logging
import re
import shutil
import struct
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.store import ScriptureStore, codes, hamming, rescore, twostage
from amicus_desktop.store.sqlite import connect
from amicus_desktop.store.twostage import ShortLists, TwoStageIndex
from tests.support.coded import DIMS, N, chunks_for, questions
from tests.support.coded import coded_db as coded_db  # the fixture
from tests.support.coded import vectors as vectors  # the fixture
from tests.support.corpora import sha256
from tests.support.dbs import build_db

#: Short lists small enough that a 3,000-row corpus takes every stage (coarse → refine → exact).
SMALL = ShortLists(coarse_min=600, coarse_per_row=0, refine_min=150, refine_per_row=0)


@pytest.fixture
def store(coded_db: Path):
    with ScriptureStore(coded_db) as s:
        yield s


def brute(vectors: np.ndarray, q: np.ndarray, rowids: np.ndarray | None = None) -> list[tuple[int, float]]:
    """Exact cosine distances from numpy, nearest first (rowid i + 1 is row i)."""
    ids = np.arange(1, len(vectors) + 1) if rowids is None else np.asarray(rowids)
    rows = vectors[ids - 1].astype(np.float64)
    d = 1 - rows @ q.astype(np.float64) / (np.linalg.norm(rows, axis=1) * np.linalg.norm(q))
    order = np.lexsort((ids, d))
    return [(int(ids[i]), float(d[i])) for i in order]


def test_open_follows_mode_and_policy(store: ScriptureStore, monkeypatch: pytest.MonkeyPatch) -> None:
    assert TwoStageIndex.open(store, mode="off") is None
    assert TwoStageIndex.open(store, mode="auto") is None  # 3,000 × 64 is small
    assert isinstance(TwoStageIndex.open(store, mode="on"), TwoStageIndex)
    monkeypatch.setattr(codes, "MIN_FLOATS", N * DIMS)
    assert isinstance(TwoStageIndex.open(store), TwoStageIndex)  # auto, now big enough
    monkeypatch.setenv(twostage.MODE_ENV, "off")
    assert TwoStageIndex.open(store) is None
    monkeypatch.setenv(twostage.MODE_ENV, "nonsense")  # unknown values mean auto
    assert twostage.configured_mode() == "auto"


@pytest.mark.parametrize("full_schema", [True, False])
def test_database_without_codes_gets_the_exact_path(tmp_path: Path, vectors: np.ndarray, full_schema: bool) -> None:
    db = build_db(tmp_path / "plain.db", chunks_for(vectors[:200]), full_schema=full_schema)
    with ScriptureStore(db) as s:
        assert TwoStageIndex.open(s, mode="on") is None


@pytest.mark.parametrize("prefilter", [False, True])
def test_distances_are_exact_and_recall_is_high(store: ScriptureStore, vectors: np.ndarray, prefilter: bool,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    if prefilter:  # 3,000 rows: the pre-filter keeps 2 × 600 on the first 512 bits
        monkeypatch.setattr(hamming, "PREFILTER_MIN", 0)
        monkeypatch.setattr(hamming, "PREFILTER_PER_ROW", 2)
        monkeypatch.setattr(hamming, "PREFILTER_FACTOR", 2)
    index = TwoStageIndex.open(store, mode="on", short_lists=SMALL)
    assert index is not None and index.bits == codes.code_bits(DIMS) == 1536
    index.prefilter = prefilter
    passes: list[int | str | None] = []  # the words each column pass ranked by (None: all; "rows": a row pass)
    kernel, rows_kernel = hamming.distances, hamming.row_distances
    monkeypatch.setattr(hamming, "distances", lambda c, q, words=None: passes.append(words) or kernel(c, q, words))
    monkeypatch.setattr(hamming, "row_distances", lambda c, q: passes.append("rows") or rows_kernel(c, q))
    recalls = []
    for q in questions():
        qwords = codes.encode(q[None, :].astype(np.float32), index.projection)[0].view(np.uint64)
        whole = set(hamming.smallest(kernel(index.codes_t, qwords), 600, 1536).tolist())
        passes.clear()
        coarse = set(index.coarse_list(qwords, None, 600).tolist())
        # pre-filtering, the index holds the first 512 bits by column and the rest by row
        assert passes == ([hamming.PREFILTER_WORDS, "rows"] if prefilter else [None])
        assert len(coarse) == 600 and (len(coarse & whole) >= 540 if prefilter else coarse == whole)
        got, trace = index.trace_search(q, 20)
        assert (trace.coarse, trace.refined) == (600, 150) and not trace.exact_only
        want = store.knn(q, 20)
        exact = dict(brute(vectors, q))
        # Every distance is the exact one (numpy and sqlite-vec agree to float32 rounding).
        assert all(abs(d - exact[r]) < 1e-6 for r, d in got)
        assert [d for _, d in got] == sorted(d for _, d in got) and len(got) == 20
        recalls.append(len({r for r, _ in got} & {r for r, _ in want}) / 20)
    assert np.mean(recalls) >= 0.95, recalls


def test_when_the_allowed_rows_fit_the_refine_list_the_answer_is_exact(
    store: ScriptureStore, vectors: np.ndarray
) -> None:
    index = TwoStageIndex.open(store, mode="on", short_lists=SMALL)
    assert index is not None
    allowed = np.arange(5, N + 1, 23, dtype=np.int64)  # 131 rows ≤ 150
    for q in questions(4):
        got, trace = index.trace_search(q, 40, allowed)
        assert trace.exact_only and trace.allowed == len(allowed)
        want = brute(vectors, q, allowed)[:40]
        assert [r for r, _ in got] == [r for r, _ in want]
        assert np.allclose([d for _, d in got], [d for _, d in want], atol=1e-6)


def test_a_filter_is_a_pre_filter(store: ScriptureStore, vectors: np.ndarray) -> None:
    """Large allowed sets go through every stage but only over allowed rows, and fill n."""
    index = TwoStageIndex.open(store, mode="on", short_lists=SMALL)
    assert index is not None
    for allowed in (np.arange(1, N + 1, 2, dtype=np.int64), np.arange(1, N + 1, 9, dtype=np.int64)):
        ok = set(allowed.tolist())
        for q in questions(4):
            got, trace = index.trace_search(q, 40, allowed)
            assert not trace.exact_only and trace.allowed == len(allowed)
            assert len(got) == 40 and {r for r, _ in got} <= ok
            want = {r for r, _ in brute(vectors, q, allowed)[:40]}
            assert len(want & {r for r, _ in got}) >= 36
    # Unknown rowids in the allowed list are ignored; an empty list allows nothing.
    assert index.search(questions(1)[0], 5, np.array([10**9], dtype=np.int64)) == []
    assert index.search(questions(1)[0], 5, np.array([], dtype=np.int64)) == []
    assert [r for r, _ in index.search(questions(1)[0], 5, np.array([7, 10**9], dtype=np.int64))] == [7]


def test_distances_for_given_rows(store: ScriptureStore, vectors: np.ndarray) -> None:
    index = TwoStageIndex.open(store, mode="on")
    assert index is not None
    q = questions(1)[0]
    exact = dict(brute(vectors, q))
    got = index.distances(q, [3, 3, 1, N, N + 50, -1])
    assert sorted(got) == [1, 3, N]
    assert all(abs(got[r] - exact[r]) < 1e-6 for r in got)
    assert index.distances(q, []) == {}


def test_bad_queries(store: ScriptureStore) -> None:
    index = TwoStageIndex.open(store, mode="on")
    assert index is not None
    with pytest.raises(AmicusError) as err:
        index.search(np.ones(DIMS + 1, dtype=np.float32), 5)
    assert err.value.code is ErrorCode.DIMENSION_MISMATCH
    assert index.search(np.zeros(DIMS), 5) == []  # a zero vector has no cosine distance
    assert len(index.search(np.ones(DIMS, dtype=np.float64), 5)) == 5  # float64 is converted
    assert index.search(np.ones(DIMS), 0) == []


def test_search_never_writes(coded_db: Path) -> None:
    files = (coded_db, codes.path_for(coded_db))
    before = [sha256(f) for f in files]
    with ScriptureStore(coded_db) as s:
        index = TwoStageIndex.open(s, mode="on")
        assert index is not None
        for q in questions(3):
            index.search(q, 10)
            index.distances(q, [1, 2])
    assert [sha256(f) for f in files] == before


def _damaged(src: Path, tmp_path: Path, change: Callable[[bytearray, codes.CodesFile], None]) -> Path:
    """A copy of ``src`` and its two-stage file, the file changed by ``change``."""
    db = tmp_path / "copy.db"
    shutil.copyfile(src, db)
    raw = bytearray(codes.path_for(src).read_bytes())
    change(raw, codes.CodesFile.open(codes.path_for(src)))
    codes.path_for(db).write_bytes(bytes(raw))
    return db


def _swap_first_two_codes(raw: bytearray, f: codes.CodesFile) -> None:
    at, width = f.sections["codes"][0], f.bits // 8
    first, second = raw[at : at + width], raw[at + width : at + 2 * width]
    raw[at : at + 2 * width] = second + first


def _change_first_float(raw: bytearray, f: codes.CodesFile) -> None:
    at = f.sections["floats"][0]
    raw[at : at + 4] = np.float32(0.5).tobytes()


def _set_header(key: str, value: object) -> Callable[[bytearray, codes.CodesFile], None]:
    def change(raw: bytearray, f: codes.CodesFile) -> None:
        (length,) = struct.unpack("<I", raw[8:12])
        header = json.loads(raw[12 : 12 + length])
        header[key] = value
        text = json.dumps(header).encode()
        raw[8 : codes.HEADER_BYTES] = struct.pack("<I", len(text)) + text + bytes(codes.HEADER_BYTES - 12 - len(text))

    return change


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (lambda raw, f: raw.__setitem__(slice(0, 8), b"NOTMAGIC"), "not a two-stage search file"),
        (lambda raw, f: raw.__delitem__(slice(len(raw) - 10, None)), "truncated"),
        (lambda raw, f: raw.__setitem__(slice(12, 20), b"\xff" * 8), "header is damaged"),
        (_set_header("format", "simhash-9"), "format"),
        (_set_header("db", {"built_at": "1999-01-01", "chunk_count": str(N), "embedding_dims": str(DIMS)}),
         "another build"),
        (_change_first_float, "float copy differs"),
        (_swap_first_two_codes, "stored code"),
    ],
    ids=["magic", "truncated", "header", "format", "another-build", "float", "code"],
)
def test_a_file_that_does_not_match_falls_back_to_exact(
    tmp_path: Path, coded_db: Path, change: Callable[[bytearray, codes.CodesFile], None], reason: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    db = _damaged(coded_db, tmp_path, change)
    with ScriptureStore(db) as s, caplog.at_level(logging.WARNING, logger="amicus.candidates"):
        assert TwoStageIndex.open(s, mode="on") is None
        assert len(s.knn(np.ones(DIMS), 5)) == 5  # the exact path still answers
    record = next(r for r in caplog.records if r.name == "amicus.candidates")
    assert reason in record.__dict__["reason"]


def _raw_header(edit: Callable[[str], str]) -> Callable[[bytearray, codes.CodesFile], None]:
    """A change that rewrites the header's JSON text (which need not stay valid JSON of the right shape)."""
    def change(raw: bytearray, f: codes.CodesFile) -> None:
        (length,) = struct.unpack("<I", raw[8:12])
        text = edit(bytes(raw[12 : 12 + length]).decode()).encode()
        raw[8 : codes.HEADER_BYTES] = struct.pack("<I", len(text)) + text + bytes(codes.HEADER_BYTES - 12 - len(text))

    return change


_NESTED = '{"format": "simhash-1", "dims": ' + "[" * 2000 + "]" * 2000 + "}"


@pytest.mark.parametrize(
    "change",
    [
        _set_header("db", []),
        _raw_header(lambda t: re.sub(r'"dims": \d+', '"dims": 1e999', t)),
        _raw_header(lambda t: _NESTED),
        _set_header("dims", "64"),
        _set_header("rows", True),
        _set_header("floats", [4096]),
        _set_header("db", {"built_at": 7}),
        _set_header("db_file", {"change_counter": "2"}),
        _raw_header(lambda t: "[1, 2, 3]"),
    ],
    ids=["db-list", "dims-1e999", "nested", "dims-text", "rows-true", "section-short", "db-number", "db-file",
         "not-an-object"],
)
def test_a_damaged_header_warns_and_searches_exactly(
    tmp_path: Path, coded_db: Path, change: Callable[[bytearray, codes.CodesFile], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A header of the wrong shape crashed the search (AttributeError, OverflowError, RecursionError)."""
    from amicus_desktop.candidates import dense

    db = _damaged(coded_db, tmp_path, change)
    before = (sha256(db), sha256(codes.path_for(db)))
    q = questions(1)[0]
    with ScriptureStore(db) as s, caplog.at_level(logging.WARNING, logger="amicus.candidates"):
        assert TwoStageIndex.open(s, mode="on") is None
        assert dense.nearest(s, q, 10, two_stage="on") == s.knn(q, 10)  # exact
    record = next(r for r in caplog.records if r.name == "amicus.candidates")
    assert "damaged" in record.__dict__["reason"] and "searching exactly" in record.getMessage()
    assert (sha256(db), sha256(codes.path_for(db))) == before


def _twin(path: Path, vectors: np.ndarray, built_at: str) -> Path:
    from amicus_desktop.store.writer import ChunkRecord, ScriptureWriter

    with ScriptureWriter(path, model_id="test-model", dims=DIMS, two_stage=True,
                         extra_meta={"built_at": built_at}) as w:
        w.add_chunks([ChunkRecord(f"c{i:05d}", "section_panel", f"c{i:05d}", "text") for i in range(len(vectors))],
                     vectors)
    return path


def test_a_file_of_another_build_that_differs_only_inside_is_refused(tmp_path: Path, vectors: np.ndarray) -> None:
    """Two builds in the same second with the same counts, one interior row apart: the file of one beside
    the other passed every check (its first, middle and last rows agree) and results silently differed."""
    other = vectors.copy()
    other[N // 3] = other[N // 3 + 1]
    stamp = "2026-01-01T00:00:00+00:00"
    mine, theirs = _twin(tmp_path / "a" / "s.db", vectors, stamp), _twin(tmp_path / "b" / "s.db", other, stamp)
    shutil.copyfile(codes.path_for(theirs), codes.path_for(mine))
    before = (sha256(mine), sha256(codes.path_for(mine)))
    with ScriptureStore(mine) as s:
        assert s.info.meta["built_at"] == stamp
        assert TwoStageIndex.open(s, mode="on") is None
    assert (sha256(mine), sha256(codes.path_for(mine))) == before


def test_a_database_written_to_after_its_file_was_made_is_searched_exactly(
    tmp_path: Path, coded_db: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """An interior vector rewritten in the database (through SQLite, as sqlite3 would): the change counter
    the file recorded no longer holds, so the file is not used and results stay exact."""
    db = _damaged(coded_db, tmp_path, lambda raw, f: None)
    con = connect(db, readonly=False)
    con.execute("UPDATE embeddings SET embedding = ? WHERE rowid = ?",
                (np.roll(questions(1)[0], 1).astype(np.float32).tobytes(), N // 3))
    con.close()
    q = np.roll(questions(1)[0], 1)
    before = (sha256(db), sha256(codes.path_for(db)))
    with ScriptureStore(db) as s, caplog.at_level(logging.WARNING, logger="amicus.candidates"):
        assert TwoStageIndex.open(s, mode="on") is None
        assert s.knn(q, 1)[0][0] == N // 3
    assert (sha256(db), sha256(codes.path_for(db))) == before
    record = next(r for r in caplog.records if r.name == "amicus.candidates")
    assert "made before the database was last changed" in record.__dict__["reason"]


def test_a_file_damaged_after_opening_is_db_invalid_when_read(tmp_path: Path, coded_db: Path) -> None:
    db = _damaged(coded_db, tmp_path, lambda raw, f: None)
    with ScriptureStore(db) as s:
        index = TwoStageIndex.open(s, mode="on")
        assert index is not None
        with open(codes.path_for(db), "r+b") as fh:  # e.g. a copy still in progress
            fh.truncate(codes.HEADER_BYTES + 10)
        with pytest.raises(AmicusError) as err:
            index.distances(np.ones(DIMS), [1500])
        assert err.value.code is ErrorCode.DB_INVALID and "two-stage" in err.value.message


def test_the_dense_search_uses_the_index_when_there_is_one(coded_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from amicus_desktop.candidates import dense

    q = questions(1)[0]
    monkeypatch.setenv(twostage.MODE_ENV, "on")
    with ScriptureStore(coded_db) as s:
        index = TwoStageIndex.for_store(s)
        assert index is not None and TwoStageIndex.for_store(s) is index  # opened once per store
        got = dense.nearest(s, q, 20)
        assert got == index.search(q, 20)
        assert dense.nearest_among(s, q, [9, 3, 3, 700], 2) == index.search(q, 2, np.array([3, 9, 700]))
        assert dense.distances(s, q, [1, 2]) == index.distances(q, [1, 2])
        with pytest.raises(AmicusError) as err:
            dense.distances(s, np.ones(DIMS + 1), [1])
        assert err.value.code is ErrorCode.DIMENSION_MISMATCH
    monkeypatch.setenv(twostage.MODE_ENV, "off")
    with ScriptureStore(coded_db) as s:
        assert TwoStageIndex.for_store(s) is None
        exact = dict(dense.nearest(s, q, 20))  # sqlite-vec's scan
    assert all(abs(exact[r] - d) < 1e-6 for r, d in got if r in exact)
    assert len(set(exact) & {r for r, _ in got}) >= 19


def test_the_row_layout_answers_as_the_column_layout(coded_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A corpus big enough to pre-filter holds its codes' first 512 bits by column and the rest by row
    (hamming.CodeMatrix): the same short lists and answers as every word by column, filtered or not."""
    with ScriptureStore(coded_db) as s:
        columns = TwoStageIndex.open(s, mode="on", short_lists=SMALL)
        # 3,000 rows: the pre-filter's layout, and it keeps 2 × 600 rows on the first 512 bits
        monkeypatch.setattr(hamming, "PREFILTER_MIN", 0)
        monkeypatch.setattr(hamming, "PREFILTER_PER_ROW", 2)
        monkeypatch.setattr(hamming, "PREFILTER_FACTOR", 2)
        rows = TwoStageIndex.open(s, mode="on", short_lists=SMALL)
    assert columns is not None and rows is not None
    assert (columns.codes.split, rows.codes.split) == (24, hamming.PREFILTER_WORDS)
    assert np.array_equal(columns.codes_t, rows.codes_t)
    picks = np.array([0, 5, 17, N - 1])
    assert np.array_equal(rows.codes.take(picks), columns.codes.take(picks))
    for prefilter in (False, True):
        columns.prefilter = rows.prefilter = prefilter
        for q in questions(6):
            qwords = codes.encode(q[None, :].astype(np.float32), rows.projection)[0].view(np.uint64)
            assert np.array_equal(rows.hamming(qwords, None), columns.hamming(qwords, None))
            assert np.array_equal(rows.coarse_list(qwords, None, 600), columns.coarse_list(qwords, None, 600))
            for allowed in (None, np.arange(1, N + 1, 2, dtype=np.int64), np.arange(1, N + 1, 9, dtype=np.int64)):
                assert rows.search(q, 20, allowed) == columns.search(q, 20, allowed)


def test_the_exact_stage_is_every_rows_float64_top(store: ScriptureStore, vectors: np.ndarray) -> None:
    """The float32 screen (store/rescore.py) leaves the exact stage's answer as scoring every row in float64
    (the exact stage before the screen), and that is numpy's brute force over those rows."""
    index = TwoStageIndex.open(store, mode="on")
    assert index is not None
    cols = np.arange(5, N, 7)  # 428 rows, as many as a refine list
    for n in (1, 10, 40):
        for q in questions(6).astype(np.float32):
            every = rescore.cosine_distances(q, index._read_columns(cols))
            order = np.lexsort((index.rowids[cols], every))[:n]
            got = index._exact(q, cols, n)
            assert [r for r, _ in got] == index.rowids[cols][order].tolist()
            assert np.allclose([d for _, d in got], every[order], rtol=0, atol=1e-15)
            assert [r for r, _ in got] == [r for r, _ in brute(vectors, q, index.rowids[cols])[:n]]


def test_sorted_unique_is_numpys_unique() -> None:
    """The index's dedupe (which spares the first search numpy.ma's import) gives np.unique's values."""
    from amicus_desktop.store.twostage import sorted_unique

    rng = np.random.default_rng(5)
    cases = [np.zeros(0, dtype=np.int64), np.array([7], dtype=np.int64), np.array([3, 3, 3], dtype=np.int64),
             rng.integers(-50, 50, 400).astype(np.int64), rng.integers(0, 10**12, 2000).astype(np.int64),
             np.array([[4, 1], [1, 9]], dtype=np.intp)]
    for values in cases:
        got = sorted_unique(values)
        assert got.dtype == values.dtype and np.array_equal(got, np.unique(values))
