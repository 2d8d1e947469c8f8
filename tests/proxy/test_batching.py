"""Concurrent questions share one model call and each gets exactly its own vector (the real local model).

:class:`~amicus_desktop.embedding.batching.BatchingEmbedder` in threads, as the proxy runs it, and then over
real HTTP: ``amicus-desktop proxy`` (batching by default) under concurrent requests of distinct questions.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import httpx
import numpy as np
import pytest

from amicus_desktop.embedding import BackendError, Vectors
from amicus_desktop.embedding.batching import BatchingEmbedder
from amicus_desktop.embedding.local import LocalMiniLMBackend
from tests.proxy.conftest import _running
from tests.support.proxy import ProxyProcess

QUESTIONS = [
    "Why did God choose Jacob over Esau?", "justified by faith apart from works", "the potter and the clay",
    "What does Paul mean by the righteousness of God?", "grace and peace", "who is my neighbour",
    "love your enemies", "the wages of sin is death", "In the beginning was the Word",
    "How should a Christian think about suffering and hope in a world that groans?",
    "Abraham believed God", "peace with God through our Lord Jesus Christ", "a", "Romans 9:13",
    "vessels of wrath prepared for destruction", "all have sinned and fall short of the glory of God",
]
#: float32 rounding of the same forward pass with other rows beside it
TOLERANCE = 1e-5


class SlowModel:
    """The real model, each call held ``pause`` seconds first so that the others queue behind it, failing on
    any text that contains ``fail_on`` (an upstream-like error inside one request of a batch)."""

    def __init__(self, model: LocalMiniLMBackend, pause: float = 0.05, fail_on: str | None = None) -> None:
        self.model, self.pause, self.fail_on = model, pause, fail_on
        self.calls: list[int] = []
        self.model_id, self.dims = model.model_id, model.dims

    def load(self) -> None:
        self.model.load()

    def close(self) -> None:
        pass

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.calls.append(len(texts))
        threading.Event().wait(self.pause)
        if self.fail_on is not None and any(self.fail_on in t for t in texts):
            raise BackendError("The upstream refused one input.", status=502, code="EMBED_FAILED")
        return self.model.embed(texts)


def _concurrently(fn: Callable[[list[str]], Vectors], requests: list[list[str]],
                  slow: SlowModel) -> list[Vectors | BaseException]:
    """Every request's outcome, in order; the first one is asked alone and the others while it holds the model,
    so that they queue and share the next call."""

    def one(texts: list[str]) -> Vectors | BaseException:
        try:
            return fn(texts)
        except BaseException as exc:  # returned, so that the test sees every request's outcome
            return exc

    with ThreadPoolExecutor(len(requests)) as pool:
        first = pool.submit(one, requests[0])
        while not slow.calls:
            threading.Event().wait(0.001)
        rest = [pool.submit(one, texts) for texts in requests[1:]]
        return [first.result(), *(f.result() for f in rest)]


def test_concurrent_requests_share_calls_and_get_exactly_their_own_vectors(
        local_model: LocalMiniLMBackend, expected: Callable[[str], np.ndarray]) -> None:
    slow = SlowModel(local_model)
    batcher = BatchingEmbedder(slow, max_texts=32)
    # one and two texts per request: rows must go back to the right request in the right order
    requests = [[q] for q in QUESTIONS] + [[QUESTIONS[3], QUESTIONS[0]], [QUESTIONS[12], QUESTIONS[9]]]
    answers = _concurrently(batcher.embed, requests, slow)
    for texts, got in zip(requests, answers, strict=True):
        assert isinstance(got, np.ndarray), got
        assert got.shape == (len(texts), local_model.dims)
        for text, row in zip(texts, got, strict=True):
            np.testing.assert_allclose(row, expected(text), atol=TOLERANCE)
    assert sum(slow.calls) == sum(len(t) for t in requests)
    assert slow.calls[0] == 1 and len(slow.calls) < len(requests) and max(slow.calls) > 2, slow.calls  # batched
    assert batcher.stats.requests == len(requests) and batcher.stats.largest > 1


def test_an_error_in_one_request_fails_only_that_request(
        local_model: LocalMiniLMBackend, expected: Callable[[str], np.ndarray]) -> None:
    slow = SlowModel(local_model, fail_on="FAIL")
    batcher = BatchingEmbedder(slow)
    requests = [[q] for q in QUESTIONS[:8]] + [["this one FAILs", QUESTIONS[1]]] + [[q] for q in QUESTIONS[8:]]
    answers = _concurrently(batcher.embed, requests, slow)
    failed = answers.pop(8)
    assert isinstance(failed, BackendError) and failed.code == "EMBED_FAILED"
    del requests[8]
    for texts, got in zip(requests, answers, strict=True):
        assert isinstance(got, np.ndarray), got
        np.testing.assert_allclose(got[0], expected(texts[0]), atol=TOLERANCE)
    assert batcher.stats.retried_alone > 0  # the batch holding it failed and was run again request by request


def test_a_request_larger_than_a_batch_runs_as_one_call_of_its_own(local_model: LocalMiniLMBackend) -> None:
    slow = SlowModel(local_model)
    batcher = BatchingEmbedder(slow, max_texts=4)
    requests = [[QUESTIONS[0]], QUESTIONS[:6], [QUESTIONS[6]], [QUESTIONS[7]]]
    answers = _concurrently(batcher.embed, requests, slow)
    assert all(isinstance(a, np.ndarray) and a.shape[0] == len(t) for t, a in zip(requests, answers, strict=True))
    assert 6 in slow.calls and max(slow.calls) == 6, slow.calls


def test_one_caller_alone_runs_at_once_and_empty_input_needs_no_call(local_model: LocalMiniLMBackend) -> None:
    slow = SlowModel(local_model, pause=0.0)
    batcher = BatchingEmbedder(slow)
    assert batcher.embed([]).shape == (0, local_model.dims) and slow.calls == []
    assert batcher.embed(["grace"]).shape == (1, local_model.dims) and slow.calls == [1]
    with pytest.raises(TypeError):
        batcher.embed("grace")  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def batching_proxy() -> ProxyProcess:
    yield from _running(ProxyProcess("--rate-limit", "0", "--batch", "8"))


def test_over_http_concurrent_questions_get_the_vectors_they_get_alone(
        batching_proxy: ProxyProcess, expected: Callable[[str], np.ndarray]) -> None:
    requests: list[str | list[str]] = [*QUESTIONS, [QUESTIONS[5], QUESTIONS[2], QUESTIONS[7]]]

    def ask(payload: str | list[str]) -> httpx.Response:
        with httpx.Client(timeout=httpx.Timeout(60.0), trust_env=False) as client:
            return client.post(f"{batching_proxy.url}/ai/embed", json={"input": payload})

    start = threading.Barrier(len(requests))

    def one(payload: str | list[str]) -> httpx.Response:
        start.wait()
        return ask(payload)

    for _round in range(3):
        with ThreadPoolExecutor(len(requests)) as pool:
            responses = list(pool.map(one, requests))
        for payload, response in zip(requests, responses, strict=True):
            assert response.status_code == 200, response.text
            texts = [payload] if isinstance(payload, str) else payload
            data = response.json()["data"]
            assert [d["index"] for d in data] == list(range(len(texts)))
            for text, d in zip(texts, data, strict=True):
                np.testing.assert_allclose(np.asarray(d["embedding"], dtype=np.float32), expected(text),
                                           atol=TOLERANCE)
    bad = ask(["grace", ""])  # a request the proxy refuses is refused alone, before any batch
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "EMPTY_INPUT"


def test_in_the_service_questions_queue_on_the_loop_and_a_failure_stays_with_its_own(
        local_model: LocalMiniLMBackend, expected: Callable[[str], np.ndarray]) -> None:
    """``serve --embed local``'s client: concurrent questions share model calls, each gets its own vector, and
    the one the model fails on is ``EMBED_FAILED`` (after its one retry) while the others are answered."""
    import asyncio

    from amicus_desktop.core.errors import AmicusError
    from amicus_desktop.embedding.in_process import InProcessEmbedClient

    slow = SlowModel(local_model, pause=0.02, fail_on="FAIL")
    asked = [*QUESTIONS, "this one FAILs"]

    async def run() -> list[object]:
        client = InProcessEmbedClient(slow, cache_size=0)
        client.retry_delay = 0.0
        try:
            return await asyncio.gather(*(client.embed(q) for q in asked), return_exceptions=True)
        finally:
            await client.aclose()

    answers = asyncio.run(run())
    failed = answers.pop()
    assert isinstance(failed, AmicusError) and failed.code.value == "EMBED_FAILED"
    for question, got in zip(QUESTIONS, answers, strict=True):
        assert not isinstance(got, BaseException), got
        np.testing.assert_allclose(got.vector, expected(question), atol=TOLERANCE)  # type: ignore[attr-defined]
        assert got.model.id == local_model.model_id  # type: ignore[attr-defined]
    # asked together, they went as one call; it failed, so each ran again alone (and the failing one once more)
    assert slow.calls[0] == len(asked) and slow.calls[1:] == [1] * (len(asked) + 1), slow.calls
