"""The two-stage file: its layout, codes, projection and header (store/codes.py). How the index uses it:
tests/candidates/test_twostage.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.store import ScriptureStore, codes
from amicus_desktop.store.codes import prefer_two_stage
from tests.support.coded import DIMS, N
from tests.support.coded import coded_db as coded_db  # the fixture
from tests.support.coded import vectors as vectors  # the fixture


def test_policy_is_size_times_dims() -> None:
    assert not prefer_two_stage(3_000, 384)
    assert not prefer_two_stage(10_000, 1536)  # 15.4M floats: sqlite-vec's exact scan is still quick
    assert prefer_two_stage(200_000, 1536)
    edge = -(-codes.MIN_FLOATS // 384)  # the fewest 384-dim rows that reach MIN_FLOATS
    assert prefer_two_stage(edge, 384) and not prefer_two_stage(edge - 1, 384)


def test_writer_codes_match_the_vectors(coded_db: Path, vectors: np.ndarray) -> None:
    f = codes.CodesFile.open(codes.path_for(coded_db))
    assert (f.dims, f.bits, f.rows) == (DIMS, 1536, N)
    with ScriptureStore(coded_db) as s:
        assert dict(f.db) == codes.db_fingerprint(s.info.meta)
    blocks = list(f.code_blocks())
    assert [start for start, _, _ in blocks] == [0]  # 3,000 rows: one block
    _, rowids, stored = blocks[0]
    assert np.array_equal(rowids, np.arange(1, N + 1))
    assert np.array_equal(stored, codes.encode(vectors, f.projection()))
    assert np.array_equal(f.read_rows(np.arange(N)), vectors)  # the same float32 values as vec0 holds


@pytest.mark.parametrize("prefetch", [True, False], ids=["prefetch", "one-by-one"])
def test_rows_read_with_or_without_asking_ahead(coded_db: Path, vectors: np.ndarray, prefetch: bool,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Scattered rows, as the exact stage reads them, come back the same on every platform."""
    monkeypatch.setattr(codes, "PREFETCH", prefetch and codes.PREFETCH)
    f = codes.CodesFile.open(codes.path_for(coded_db))
    rows = np.sort(np.random.default_rng(3).choice(N, size=400, replace=False))
    assert np.array_equal(f.read_rows(rows), vectors[rows])
    assert f.read_rows(np.zeros(0, dtype=np.int64)).shape == (0, DIMS)


def test_projection_rows_are_orthonormal_within_a_block() -> None:
    p = codes.make_projection(64, 192).astype(np.float64)
    for b in range(3):
        block = p[b * 64 : (b + 1) * 64]
        assert np.allclose(block @ block.T, np.eye(64), atol=1e-5)
    assert not np.allclose(p[:64], p[64:128])


def test_hamming_ranks_like_cosine() -> None:
    """The premise of the coarse pass: fewer differing bits for nearer vectors."""
    rng = np.random.default_rng(1)
    q = rng.standard_normal(64)
    near, far = q + 0.3 * rng.standard_normal(64), q + 3 * rng.standard_normal(64)
    p = codes.make_projection(64, codes.code_bits(64))
    cq, cn, cf = codes.encode(np.stack([q, near, far]), p)
    ham = [int(np.unpackbits(cq ^ c).sum()) for c in (cn, cf)]
    assert ham[0] < ham[1]
