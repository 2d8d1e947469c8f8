"""Counting the app's real ``/health`` probes as they run, for tests that check they never stack.

The monitor's own code has no counters for tests; instead a test wraps the real
``EmbedClient.health`` (each call still goes to the proxy) and reads the counts here::

    probes = count_health_probes(monkeypatch)     # before the window or session is opened
    ...
    assert probes.calls >= 2 and probes.most_at_once == 1
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from amicus_desktop.embedding.client import EmbedClient


class InFlight:
    """How many calls of a wrapped coroutine function were made, and the most running at once."""

    def __init__(self) -> None:
        self.calls = 0
        self.running = 0
        self.most_at_once = 0

    def wrap(self, fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(fn)
        async def counted(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            self.running += 1
            self.most_at_once = max(self.most_at_once, self.running)
            try:
                return await fn(*args, **kwargs)
            finally:
                self.running -= 1

        return counted


def count_health_probes(monkeypatch: pytest.MonkeyPatch) -> InFlight:
    """Count every ``EmbedClient.health`` call made from now until the test ends."""
    probes = InFlight()
    monkeypatch.setattr(EmbedClient, "health", probes.wrap(EmbedClient.health))
    return probes
