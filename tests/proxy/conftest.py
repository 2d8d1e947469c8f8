"""Fixtures for the embed proxy's tests: the real model (loaded once) and real proxy processes."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import numpy as np
import pytest

from amicus_desktop.embedding.local import LocalMiniLMBackend
from tests.support.proxy import ProxyProcess
from tests.support.proxy import proxy_process as proxy_process  # a fixture, shared with these tests

TOKEN = "tok-3f9a1c77e2b04d5f"


@pytest.fixture(scope="session")
def expected(local_model: LocalMiniLMBackend):
    """``expected(text)``: the vector the proxy should give for ``text`` alone."""
    cache: dict[str, np.ndarray] = {}

    def vector(text: str) -> np.ndarray:
        if text not in cache:
            cache[text] = local_model.embed([text])[0]
        return cache[text]

    return vector


def _running(proxy: ProxyProcess) -> Iterator[ProxyProcess]:
    try:
        yield proxy.start()
    finally:
        proxy.close()


@pytest.fixture(scope="session")
def proxy() -> Iterator[ProxyProcess]:
    """The default real proxy (local model, no token), with the rate limit off."""
    yield from _running(ProxyProcess("--rate-limit", "0"))


@pytest.fixture(scope="session")
def token_proxy() -> Iterator[ProxyProcess]:
    """A real proxy that requires ``Bearer TOKEN``."""
    yield from _running(ProxyProcess("--rate-limit", "0", token=TOKEN))


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=httpx.Timeout(30.0), trust_env=False) as c:
        yield c
