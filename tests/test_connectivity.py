"""The connectivity state machine and its /health schedule (plain asyncio, no Qt)."""

from __future__ import annotations

import asyncio
import time

import pytest

from amicus_desktop.connectivity import ConnectivityMonitor, ProxyState, mismatch_error
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.results import ModelInfo

MODEL = ModelInfo("m", 8)
OFFLINE = AmicusError(ErrorCode.OFFLINE, "The embed proxy at http://x cannot be reached (connection refused).")
FAILED = AmicusError(ErrorCode.EMBED_FAILED, "The embed proxy at http://x gave no usable vector: HTTP 500.")


class FakeProxy:
    """A probe whose answers the test flips; records call times and concurrency."""

    def __init__(self, up: bool = True, model: ModelInfo = MODEL, delay: float = 0.0) -> None:
        self.up = up
        self.model = model
        self.delay = delay
        self.calls: list[float] = []
        self.in_flight = 0
        self.max_in_flight = 0
        self.error = OFFLINE

    async def health(self) -> ModelInfo:
        self.calls.append(time.monotonic())
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.delay:
                await asyncio.sleep(self.delay)
            if not self.up:
                raise self.error
            return self.model
        finally:
            self.in_flight -= 1


async def until(cond, timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


def monitor_for(proxy: FakeProxy, **kw) -> ConnectivityMonitor:
    kw.setdefault("backoff", (0.05, 0.1, 0.2))
    kw.setdefault("online_interval", 0.3)
    kw.setdefault("trouble_interval", 0.2)
    return ConnectivityMonitor(proxy.health, "http://x", **kw)


def test_first_probe_moves_from_checking_to_online() -> None:
    async def main() -> None:
        proxy = FakeProxy()
        mon = monitor_for(proxy)
        seen = []
        mon.subscribe(lambda c: seen.append(c.state))
        assert mon.state.state is ProxyState.CHECKING and not mon.state.can_search
        mon.start()
        await until(lambda: mon.state.state is ProxyState.ONLINE)
        assert mon.state.model == MODEL and mon.state.can_search and mon.state.checks == 1
        await mon.aclose()

    asyncio.run(main())


def test_offline_backs_off_then_recovers_on_its_own() -> None:
    async def main() -> None:
        proxy = FakeProxy(up=False)
        mon = monitor_for(proxy)
        mon.start()
        await until(lambda: len(proxy.calls) >= 5, timeout=5)
        gaps = [b - a for a, b in zip(proxy.calls, proxy.calls[1:], strict=False)]
        assert mon.state.state is ProxyState.OFFLINE
        assert mon.state.error is OFFLINE and mon.state.offline_since is not None
        # 0.05, 0.1, 0.2, 0.2: grows, then capped
        assert gaps[0] < gaps[1] < gaps[2] + 0.02
        assert abs(gaps[3] - gaps[2]) < 0.08
        assert proxy.max_in_flight == 1
        proxy.up = True
        await until(lambda: mon.state.state is ProxyState.ONLINE, timeout=1)
        assert mon.state.error is None and mon.state.offline_since is None
        await mon.aclose()

    asyncio.run(main())


def test_next_check_is_announced() -> None:
    async def main() -> None:
        proxy = FakeProxy(up=False)
        mon = ConnectivityMonitor(proxy.health, "http://x", backoff=(1.0, 2.0, 4.0))
        mon.start()
        await until(lambda: mon.state.state is ProxyState.OFFLINE and mon.state.next_check_at is not None)
        assert mon.state.seconds_to_next_check() in (0, 1)
        await mon.aclose()

    asyncio.run(main())


def test_default_backoff_reenables_within_five_seconds() -> None:
    from amicus_desktop.connectivity import OFFLINE_BACKOFF

    assert max(OFFLINE_BACKOFF) <= 4.0


def test_retry_now_probes_at_once_and_never_stacks() -> None:
    async def main() -> None:
        proxy = FakeProxy(up=False, delay=0.1)
        mon = monitor_for(proxy, backoff=(10.0,))
        mon.start()
        await until(lambda: mon.state.state is ProxyState.OFFLINE)
        n = len(proxy.calls)
        mon.retry_now()
        await until(lambda: len(proxy.calls) == n + 1)
        for _ in range(10):  # hammering while a probe is in flight adds nothing
            mon.retry_now()
        await asyncio.sleep(0.3)
        assert len(proxy.calls) == n + 1
        assert proxy.max_in_flight == 1
        await mon.aclose()

    asyncio.run(main())


def test_embed_offline_flips_to_offline_and_reschedules_quickly() -> None:
    async def main() -> None:
        proxy = FakeProxy()
        mon = monitor_for(proxy, online_interval=60.0)
        mon.start()
        await until(lambda: mon.state.state is ProxyState.ONLINE)
        proxy.up = False
        mon.report_error(OFFLINE)
        assert mon.state.state is ProxyState.OFFLINE and not mon.state.can_search
        n = len(proxy.calls)
        await until(lambda: len(proxy.calls) > n, timeout=1.0)  # not 60 s
        proxy.up = True
        await until(lambda: mon.state.state is ProxyState.ONLINE, timeout=1.0)
        await mon.aclose()

    asyncio.run(main())


def test_embed_failed_is_not_offline_and_clears_on_success() -> None:
    async def main() -> None:
        proxy = FakeProxy()
        mon = monitor_for(proxy)
        mon.start()
        await until(lambda: mon.state.state is ProxyState.ONLINE)
        mon.report_error(FAILED)
        assert mon.state.state is ProxyState.EMBED_FAILED and mon.state.can_search
        assert mon.state.error is FAILED
        # a healthy /health does not hide a failing /ai/embed
        n = len(proxy.calls)
        await until(lambda: len(proxy.calls) > n + 1)
        assert mon.state.state is ProxyState.EMBED_FAILED
        mon.report_success(MODEL)
        assert mon.state.state is ProxyState.ONLINE and mon.state.error is None
        await mon.aclose()

    asyncio.run(main())


def test_query_and_db_errors_do_not_touch_the_proxy_state() -> None:
    async def main() -> None:
        mon = monitor_for(FakeProxy())
        mon.start()
        await until(lambda: mon.state.state is ProxyState.ONLINE)
        for code in (ErrorCode.QUERY_INVALID, ErrorCode.DB_INVALID, ErrorCode.DB_NOT_FOUND,
                     ErrorCode.EXTENSION_NOT_LOADED):
            mon.report_error(AmicusError(code, "x"))
            assert mon.state.state is ProxyState.ONLINE
        await mon.aclose()

    asyncio.run(main())


@pytest.mark.parametrize(
    ("model", "code"),
    [(ModelInfo("m", 16), ErrorCode.DIMENSION_MISMATCH), (ModelInfo("other", 8), ErrorCode.MODEL_MISMATCH),
     (ModelInfo("other", 16), ErrorCode.DIMENSION_MISMATCH)],
)
def test_mismatch_with_the_database_disables_search(model: ModelInfo, code: ErrorCode) -> None:
    async def main() -> None:
        proxy = FakeProxy(model=model)
        mon = monitor_for(proxy, expected=MODEL)
        mon.start()
        await until(lambda: mon.state.state is ProxyState.MISMATCH)
        assert mon.state.code is code and not mon.state.can_search
        proxy.model = MODEL  # the user restarted the proxy with the right model
        await until(lambda: mon.state.state is ProxyState.ONLINE, timeout=2)
        await mon.aclose()

    asyncio.run(main())


def test_set_expected_rechecks_against_a_new_database() -> None:
    async def main() -> None:
        mon = monitor_for(FakeProxy(), online_interval=60.0)
        mon.start()
        await until(lambda: mon.state.state is ProxyState.ONLINE)
        mon.set_expected(ModelInfo("m", 384))
        assert mon.state.state is ProxyState.MISMATCH and mon.state.code is ErrorCode.DIMENSION_MISMATCH
        mon.set_expected(MODEL)
        assert mon.state.state is ProxyState.ONLINE
        await mon.aclose()

    asyncio.run(main())


def test_mismatch_messages_follow_the_contract_order() -> None:
    assert mismatch_error(MODEL, MODEL) is None
    err = mismatch_error(ModelInfo("x", 4), MODEL)
    assert err is not None and err.code is ErrorCode.DIMENSION_MISMATCH and "4-dimensional" in err.message


def test_a_crashing_probe_does_not_kill_the_schedule() -> None:
    async def main() -> None:
        calls = []

        async def probe() -> ModelInfo:
            calls.append(1)
            raise RuntimeError("bug")

        mon = ConnectivityMonitor(probe, "http://x", backoff=(0.05,), trouble_interval=0.05)
        mon.start()
        await until(lambda: len(calls) >= 3)
        assert mon.state.state is ProxyState.EMBED_FAILED
        await mon.aclose()

    asyncio.run(main())


def test_listener_errors_are_contained() -> None:
    async def main() -> None:
        mon = monitor_for(FakeProxy())
        seen = []

        def bad(_c: object) -> None:
            raise ValueError("listener bug")

        mon.subscribe(bad)
        mon.subscribe(lambda c: seen.append(c.state))
        mon.start()
        await until(lambda: ProxyState.ONLINE in seen)
        await mon.aclose()

    asyncio.run(main())


def test_a_silent_proxy_is_embed_failed_not_offline_and_not_waited_on() -> None:
    async def main() -> None:
        proxy = FakeProxy(delay=10.0)
        mon = monitor_for(proxy, probe_timeout=0.2)
        mon.start()
        t0 = time.monotonic()
        await until(lambda: mon.state.state is ProxyState.EMBED_FAILED, timeout=2)
        assert time.monotonic() - t0 < 1.0
        assert "did not answer" in mon.state.error.message and mon.state.can_search
        await mon.aclose()

    asyncio.run(main())


def test_closing_as_a_probe_answers_does_not_wait_for_the_next_check() -> None:
    """Python 3.11's ``asyncio.wait_for`` swallows a cancellation that arrives in the same turn as
    its inner future's result: here the probe answers just as the monitor is closed. Closing must
    still end at once, not after the next check's interval (30 s here)."""

    async def main() -> None:
        answer = asyncio.Event()
        asked = asyncio.Event()

        async def probe() -> ModelInfo:
            asked.set()
            await answer.wait()
            return MODEL

        mon = ConnectivityMonitor(probe, "http://x", online_interval=30.0)
        mon.start()
        await asked.wait()  # the first probe is waiting for its answer
        answer.set()  # the answer arrives ...
        t0 = time.monotonic()
        await asyncio.wait_for(mon.aclose(), 5)  # ... in the same turn as the close
        assert time.monotonic() - t0 < 1.0

    asyncio.run(main())
