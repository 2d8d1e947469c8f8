"""The vector seam on real files: the library's index (exact and two-stage), a matrix in memory, a workspace's
notes — each answering the VectorIndex protocol's questions the same way numpy does."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.candidates import dense
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import Filters
from amicus_desktop.core.vectors import ALL_FILTER_KINDS, MatrixVectors, VectorIndex, applies
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.library import LibraryStore, open_library
from amicus_desktop.store.vector_search import LibraryVectors
from tests.support.coded import DIMS, N, questions
from tests.support.coded import coded_db as coded_db  # the fixture
from tests.support.coded import vectors as vectors  # the fixture


def brute(vectors: np.ndarray, q: np.ndarray, ids: np.ndarray) -> list[tuple[int, float]]:
    rows = vectors[ids - 1].astype(np.float64)
    d = 1 - rows @ q.astype(np.float64) / (np.linalg.norm(rows, axis=1) * np.linalg.norm(q))
    order = np.lexsort((ids, d))
    return [(int(ids[i]), float(d[i])) for i in order]


def close(got: list[tuple[int, float]], want: list[tuple[int, float]]) -> bool:
    return [r for r, _ in got] == [r for r, _ in want] and all(
        abs(a - b) < 1e-5 for (_, a), (_, b) in zip(got, want, strict=True))


def test_the_library_opens_as_its_protocol_and_both_paths_agree(coded_db: Path, vectors: np.ndarray) -> None:
    library: LibraryStore = open_library(coded_db)
    with library:
        assert isinstance(library, ScriptureStore)
        exact, two_stage = library.vector_index("off"), library.vector_index("on")
        assert isinstance(exact, LibraryVectors) and exact.two_stage is None
        assert isinstance(two_stage, LibraryVectors) and two_stage.two_stage is not None
        assert library.vector_index("on") is two_stage  # one per store and mode
        assert isinstance(exact, VectorIndex) and exact.filter_kinds == ALL_FILTER_KINDS
        ids = np.arange(1, N + 1)
        for q in questions(3):
            want = brute(vectors, q, ids)
            assert close(exact.nearest(q, 10), want[:10])
            among = [5, 17, 400, 2999, N + 50]  # a rowid the library lacks is left out
            assert close(exact.nearest_among(q, among, 3), brute(vectors, q, np.array(among[:4]))[:3])
            assert close(two_stage.nearest_among(q, among, 3), brute(vectors, q, np.array(among[:4]))[:3])
            assert exact.distances(q, among).keys() == two_stage.distances(q, among).keys() == set(among[:4])
        with pytest.raises(AmicusError) as info:
            two_stage.nearest(np.ones(DIMS + 1, dtype=np.float32), 5)
        assert info.value.code is ErrorCode.DIMENSION_MISMATCH


class OnlyBooks:
    """An index that applies no filter but books: dense.nearest must hand it the allowed rows instead."""

    filter_kinds = frozenset({"books"})

    def __init__(self, inner: VectorIndex) -> None:
        self.inner = inner
        self.asked: list[str] = []

    def nearest(self, vector: np.ndarray, n: int, filters: Filters = Filters()) -> list[tuple[int, float]]:
        self.asked.append("nearest")
        return self.inner.nearest(vector, n, filters)

    def nearest_among(self, vector: np.ndarray, ids: Sequence[int], n: int) -> list[tuple[int, float]]:
        self.asked.append("among")
        return self.inner.nearest_among(vector, ids, n)

    def distances(self, vector: np.ndarray, ids: Sequence[int]) -> dict[int, float]:
        return self.inner.distances(vector, ids)


def test_a_filter_the_index_cannot_apply_becomes_the_rows_it_allows(coded_db: Path, vectors: np.ndarray,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    with ScriptureStore(coded_db) as store:
        limited = OnlyBooks(store.vector_index("off"))
        monkeypatch.setattr(store, "vector_index", lambda mode=None: limited)
        kinds = Filters(source_types=("section_panel",))  # every row of this corpus
        assert not applies(limited, kinds)
        assert applies(limited, Filters(books=("john",))) and applies(limited, Filters())
        q = questions(1)[0]
        allowed = np.asarray(store.allowed_rowids(kinds))
        got = dense.nearest(store, q, 8, kinds)
        assert limited.asked == ["among"]
        assert close(got, brute(vectors, q, allowed)[:8]) and len(got) == min(8, len(allowed))


def test_a_matrix_in_memory_answers_as_numpy_does() -> None:
    rng = np.random.default_rng(3)
    matrix = rng.standard_normal((500, 32)).astype(np.float32)
    matrix[7] = 0  # a zero row has no distance
    ids = np.arange(1, 501) * 10
    index = MatrixVectors(ids, matrix)
    q = rng.standard_normal(32).astype(np.float32)
    rows = matrix.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        d = 1 - rows @ q / (np.linalg.norm(rows, axis=1) * np.linalg.norm(q))
    ok = np.isfinite(d)
    order = np.lexsort((ids[ok], d[ok]))
    want = [(int(ids[ok][i]), float(d[ok][i])) for i in order]
    assert close(index.nearest(q, 12), want[:12])
    assert close(index.nearest_among(q, [80, 10, 9999, 5000], 5), [w for w in want if w[0] in (80, 10, 5000)])
    assert set(index.distances(q, [80, 10, 9999])) == {10}  # row 8 (id 80) is the zero row
    assert np.allclose(index.similarities(q), matrix @ q, atol=1e-5)
    half = MatrixVectors(ids, matrix.astype(np.float16))
    assert np.allclose(half.similarities(q), matrix @ q, atol=0.05)  # float16 rows, float32 products
    with pytest.raises(ValueError):
        index.nearest(q, 3, Filters(books=("john",)))
