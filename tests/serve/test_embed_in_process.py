"""``serve --embed local``: the model in the service's process gives the answers the proxy gives.

Both services run on the real study library with the real local model — one through the real proxy, one with
the model in-process (batched: :mod:`amicus_desktop.embedding.batching`) — and are asked the same questions,
one at a time and then all at once: every answer has the same chunks, order and scores.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.serve.conftest import sha256
from tests.support.serve import ServeProcess

#: nobody listens there: a service with the model in-process never asks a proxy
NO_PROXY = "http://127.0.0.1:9"
QUESTIONS = ["Why did God choose Jacob over Esau?", "justified by faith apart from works", "the potter and the clay",
             "What does Paul mean by the righteousness of God?", "grace and peace", "vessels of wrath",
             "peace with God through our Lord Jesus Christ", "all have sinned and fall short of the glory of God",
             "Abraham believed God and it was counted to him", "Is God unjust?", "the remnant chosen by grace",
             "hope does not put us to shame"]


@pytest.fixture(scope="module")
def in_process(study_db: Path) -> Iterator[ServeProcess]:
    serve = ServeProcess(study_db, NO_PROXY, "--embed", "local")
    try:
        yield serve.start()
    finally:
        serve.close()


def _ranking(served: ServeProcess, q: str) -> list[tuple[str, float]]:
    response = served.get(params={"q": q, "k": 8})
    assert response.status_code == 200, response.text
    return [(r["id"], r["score"]) for r in response.json()["results"]]


def test_same_answers_as_through_the_proxy_alone_and_concurrently(served: ServeProcess, in_process: ServeProcess,
                                                                  study_db: Path) -> None:
    before = sha256(study_db)
    want = {q: _ranking(served, q) for q in QUESTIONS}
    assert all(want.values())
    assert {q: _ranking(in_process, q) for q in QUESTIONS} == want
    with ThreadPoolExecutor(len(QUESTIONS)) as pool:  # at once (new questions: none cached), sharing model calls
        for r in range(2):
            asked = [f"{q} (round {r})" for q in QUESTIONS]
            want = {q: _ranking(served, q) for q in asked}
            got = dict(zip(asked, pool.map(lambda q: _ranking(in_process, q), asked), strict=True))
            assert got == want
    assert sha256(study_db) == before


def test_health_names_the_model_and_the_embedding_as_online(in_process: ServeProcess, served: ServeProcess) -> None:
    body: dict[str, Any] = in_process.get("/health").json()
    assert body["status"] == "ok" and body["proxy"] == "online"
    assert body["library"] == served.get("/health").json()["library"]


def test_a_keyword_question_and_a_refused_one_behave_as_with_a_proxy(in_process: ServeProcess) -> None:
    keyword = in_process.get(params={"q": "Jacob", "mode": "keyword", "k": 3})
    assert keyword.status_code == 200 and keyword.json()["results"]
    empty = in_process.get(params={"q": "   "})
    assert empty.status_code == 400
