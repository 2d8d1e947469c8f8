"""Both cores in the builder: two single-threaded sessions of the real local model embed alternate batches, in
order, with the vectors the one embedder gives (within 1e-6)."""

from __future__ import annotations

import numpy as np
import pytest

from amicus_desktop.corpus.lanes import embed_in_lanes, lanes_for
from amicus_desktop.embedding.local import LANE_BATCH_TOKENS, LocalMiniLMBackend
from tests.support.embedders import StandInEmbedder

TEXTS = [f"{word} and the {n}th verse of the letter, about grace, faith and the law of Moses" * (1 + n % 3)
         for n, word in enumerate(["Paul", "Peter", "James", "John", "Jude"] * 24)]


def _batches(size: int) -> list[tuple[int, list[str]]]:
    return [(i, TEXTS[i: i + size]) for i in range(0, len(TEXTS), size)]


def test_two_lanes_give_the_one_embedders_vectors_in_order() -> None:
    model = LocalMiniLMBackend()
    lanes = lanes_for(model, 2)
    assert len(lanes) == 2 and all(isinstance(x, LocalMiniLMBackend) and x.threads == 1 for x in lanes)
    assert lanes[0] is not lanes[1]
    # the lanes' smaller forward passes (512 padded word pieces, not 2,048): other batch-mates, the same vectors
    assert all(x.max_batch_tokens == LANE_BATCH_TOKENS < model.max_batch_tokens for x in lanes)
    one = [(k, model.embed(t)) for k, t in _batches(16)]
    two = list(embed_in_lanes(lanes, _batches(16)))
    assert [k for k, _ in two] == [k for k, _ in one]  # in the order given
    assert all(lane.loaded for lane in lanes)  # both lanes embedded
    largest = max(float(np.abs(a - b).max()) for (_, a), (_, b) in zip(one, two, strict=True))
    assert largest <= 1e-6, largest


def test_any_other_embedder_keeps_one_lane_and_a_cancel_stops_before_the_next_batch() -> None:
    stand_in = StandInEmbedder()
    assert lanes_for(stand_in, 2) == [stand_in]
    model = LocalMiniLMBackend()
    assert lanes_for(model, 1) == [model]
    calls = 0

    def before() -> None:
        nonlocal calls
        calls += 1
        if calls == 3:
            raise RuntimeError("cancelled")

    got = []
    with pytest.raises(RuntimeError, match="cancelled"):
        for key, _ in embed_in_lanes(lanes_for(model, 2), _batches(8), before=before):
            got.append(key)
    assert got == [0]  # the first two were handed out, the third never was: only what was asked comes back
