"""The builder's lanes run smaller forward passes (``LANE_BATCH_TOKENS`` padded word pieces, not the default's
2,048) for less CPU per text: on real texts, with the real model, a lane's vectors are the default backend's within
1e-6 (the padding mask makes a text's vector independent of its batch-mates). docs/PERFORMANCE.md, "The lanes'
batches", measures the CPU; ``research/measure/lane_batches.py`` prints it.
"""

from __future__ import annotations

import numpy as np
import pytest

from amicus_desktop.embedding.local import LANE_BATCH_TOKENS, LocalMiniLMBackend

#: reading the whole Bible's text and embedding ≈ 450 texts: minutes on a busy machine
pytestmark = pytest.mark.timeout(900)


def test_a_lanes_smaller_passes_give_the_default_vectors(local_model: LocalMiniLMBackend,
                                                         default_vectors: dict[str, np.ndarray],
                                                         real_texts: dict[str, list[str]]) -> None:
    lane = local_model.single_threaded()
    assert lane.threads == 1 and lane.max_batch_tokens == LANE_BATCH_TOKENS < local_model.max_batch_tokens
    assert lane.batch_size == local_model.batch_size
    for kind, texts in real_texts.items():
        # as the builder calls it: 64 texts a call, each call's passes split at 512 padded word pieces
        got = np.concatenate([lane.embed(texts[i: i + 64]) for i in range(0, len(texts), 64)])
        largest = float(np.abs(got - default_vectors[kind]).max())
        assert largest <= 1e-6, (kind, largest)


def test_the_int8_lanes_keep_their_batches() -> None:
    """int8 scales its activations per batch: smaller passes would change its vectors, so its lanes keep the caps."""
    model = LocalMiniLMBackend(int8=True)
    assert model.single_threaded().max_batch_tokens == model.max_batch_tokens
