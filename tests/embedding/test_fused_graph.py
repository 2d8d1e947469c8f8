"""The fused graph (embedding/fused_graph.py) gives the shipped file's vectors, on real texts, with the real model.

Real texts (``real_texts``, tests/embedding/conftest.py): the builder's own embedding texts for three short books,
whole-Bible verses and the demo golden set's questions. ``research/measure/build_speed.py --graphs`` compares all
1,167 chunks of those books (docs/PERFORMANCE.md). The reference is the same backend running ``model.onnx`` as shipped.
"""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper

from amicus_desktop.embedding.fused_graph import fuse_attention
from amicus_desktop.embedding.local import LocalMiniLMBackend, _packaged_model_path

#: reading the whole Bible's text and embedding ≈ 450 texts twice: minutes on a busy machine
pytestmark = pytest.mark.timeout(900)
#: the same vectors "to float rounding": every text's cosine with its reference vector at least this.
MIN_COSINE = 0.99999


@pytest.fixture(scope="module")
def vectors(default_vectors: dict[str, np.ndarray],
            real_texts: dict[str, list[str]]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per kind of text: (the fused graph's vectors, the shipped graph's)."""
    reference = LocalMiniLMBackend(fused=False)
    reference.load()
    assert reference.graph == "file"
    return {kind: (default_vectors[kind], reference.embed(texts)) for kind, texts in real_texts.items()}


def test_the_default_backend_runs_the_fused_graph(local_model: LocalMiniLMBackend) -> None:
    assert local_model.fused and local_model.graph == "fused"
    assert local_model.single_threaded().fused
    model = fuse_attention(onnx.load(str(_packaged_model_path())))
    assert model is not None
    ops = [n.op_type for n in model.graph.node]
    assert ops.count("Attention") == 6 and ops.count("Gelu") == 6
    # the unfused softmax guard and the head reshapes are gone, not merely bypassed
    assert not {"Softmax", "IsNaN", "Where", "Transpose", "Erf"} & set(ops)


def test_fused_vectors_match_the_shipped_graph(vectors: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    for kind, (fused, ref) in vectors.items():
        cosine = (fused * ref).sum(axis=1)
        assert cosine.min() >= MIN_COSINE, (kind, float(cosine.min()))
        assert float(np.abs(fused - ref).max()) < 1e-4, kind


def test_fused_neighbours_match_the_shipped_graph(vectors: dict[str, tuple[np.ndarray, np.ndarray]]) -> None:
    """Each golden question's ten nearest texts, in order, are the same (a swap only between near-equal scores)."""
    (q_fused, q_ref), (c_fused, c_ref), (v_fused, v_ref) = (vectors[k] for k in ("queries", "chunks", "verses"))
    scores_fused = q_fused @ np.concatenate([c_fused, v_fused]).T
    scores_ref = q_ref @ np.concatenate([c_ref, v_ref]).T
    for row_fused, row_ref in zip(scores_fused, scores_ref, strict=True):
        top_fused, top_ref = np.argsort(-row_fused)[:10], np.argsort(-row_ref)[:10]
        for a, b in zip(top_fused, top_ref, strict=True):
            assert a == b or abs(row_ref[a] - row_ref[b]) < 1e-5


def test_an_unexpected_graph_is_left_alone() -> None:
    """A file that is not this export (no attention_mask, no attention blocks) gives ``None``, unchanged."""
    graph = helper.make_graph(
        [helper.make_node("Identity", ["input_ids"], ["last_hidden_state"])], "other",
        [helper.make_tensor_value_info("input_ids", TensorProto.FLOAT, [1, 384])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, [1, 384])],
    )
    model = helper.make_model(graph)
    before = model.SerializeToString()
    assert fuse_attention(model) is None
    assert model.SerializeToString() == before
    shipped = onnx.load(str(_packaged_model_path()))
    shipped.graph.input[1].name = "mask"  # the attention_mask input renamed: not the graph this was written for
    before = shipped.SerializeToString()
    assert fuse_attention(shipped) is None and shipped.SerializeToString() == before
