"""One connectivity state for the embed proxy, fed by embed outcomes and a ``/health`` probe. No Qt.

States (:class:`ProxyState`)::

    CHECKING ──probe ok──▶ ONLINE ◀──────────────┐
       │                    │  ▲                  │ embed ok / probe ok
       │ unreachable        │  │ probe ok         │
       ▼                    ▼  │                  │
    OFFLINE ◀─unreachable─ (any) ──bad answer──▶ EMBED_FAILED
                            │
                            └─wrong model/dims─▶ MISMATCH

* ``OFFLINE`` only on transport failures (``ErrorCode.OFFLINE``): a proxy that answers badly is
  ``EMBED_FAILED`` — it is up, and asking again is allowed.
* ``MISMATCH`` (``DIMENSION_MISMATCH``/``MODEL_MISMATCH``): the proxy serves another model than the
  database was built with; searching is pointless until one of them changes.

:class:`ConnectivityMonitor` runs one asyncio task that probes ``/health``: right away, then every
``online_interval`` seconds while online, and with backoff (1, 2, 4, 4… s) while offline, so a
proxy that comes back is noticed within 5 s. Only that task probes, so at most one probe is ever
in flight; :meth:`retry_now` wakes it early. It runs on whatever asyncio loop is current (the Qt
one via qasync in the app) and calls listeners on that loop.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TypedDict, Unpack

from .core.errors import AmicusError, ErrorCode
from .core.results import ModelInfo
from .core.text import echo
from .embedding.client import mismatch_error
from .http.urls import redact_url, url_problem

log = logging.getLogger("amicus.connectivity")

OFFLINE_BACKOFF: tuple[float, ...] = (1.0, 2.0, 4.0)
ONLINE_INTERVAL = 10.0
#: re-probe period while the proxy answers but is unusable (bad answers, other model).
TROUBLE_INTERVAL = 4.0
#: a /health that takes longer than this counts as a bad answer (a loopback answer takes ms).
PROBE_TIMEOUT = 5.0


class ProxyState(enum.StrEnum):
    CHECKING = "checking"
    ONLINE = "online"
    OFFLINE = "offline"
    EMBED_FAILED = "embed_failed"
    MISMATCH = "mismatch"


@dataclass(frozen=True)
class Connectivity:
    """A snapshot of the proxy's state, for rendering.

    ``url`` is the proxy's address as it may be shown (redacted and bounded);
    ``error`` is the last failure (``None`` when online); ``next_check_at`` is a
    ``time.monotonic()`` instant (``None`` while a probe is running); ``offline_since`` is a
    wall-clock ``time.time()`` of when the proxy was first found unreachable in this spell;
    ``address_problem`` says what makes the address unusable (``None`` when it is a usable URL).
    """

    state: ProxyState
    url: str
    model: ModelInfo | None = None
    error: AmicusError | None = None
    next_check_at: float | None = None
    probing: bool = False
    offline_since: float | None = None
    checks: int = 0
    address_problem: str | None = None

    @property
    def can_search(self) -> bool:
        """Whether asking makes sense: online, or up but flaky (the user may try again)."""
        return self.state in (ProxyState.ONLINE, ProxyState.EMBED_FAILED)

    @property
    def code(self) -> ErrorCode | None:
        code = self.error.code if self.error is not None else None
        return code if isinstance(code, ErrorCode) else None

    def seconds_to_next_check(self, now: float | None = None) -> int | None:
        if self.next_check_at is None:
            return None
        now = time.monotonic() if now is None else now
        return max(0, round(self.next_check_at - now))


Probe = Callable[[], Awaitable[ModelInfo]]
Listener = Callable[[Connectivity], None]


class _Changes(TypedDict, total=False):
    """The :class:`Connectivity` fields a state change may set besides ``state`` and ``checks``."""

    model: ModelInfo | None
    error: AmicusError | None
    next_check_at: float | None
    probing: bool
    offline_since: float | None


class ConnectivityMonitor:
    """Owns the :class:`Connectivity` state and the ``/health`` probe schedule.

    ``probe`` is an ``async () -> ModelInfo`` that raises :class:`AmicusError` (normally
    ``EmbedClient.health``). ``expected`` is the DB's model; when set, a probe answering with
    another model or dims moves to ``MISMATCH``.
    """

    def __init__(
        self,
        probe: Probe,
        url: str,
        *,
        expected: ModelInfo | None = None,
        backoff: tuple[float, ...] = OFFLINE_BACKOFF,
        online_interval: float = ONLINE_INTERVAL,
        trouble_interval: float = TROUBLE_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        probe_timeout: float = PROBE_TIMEOUT,
    ) -> None:
        self._probe = probe
        self._probe_timeout = probe_timeout
        self._expected = expected
        self._backoff = backoff
        self._online_interval = online_interval
        self._trouble_interval = trouble_interval
        self._clock = clock
        self._listeners: list[Listener] = []
        self._state = Connectivity(ProxyState.CHECKING, echo(redact_url(url)), address_problem=url_problem(url))
        self._failures = 0  # consecutive unreachable probes: the backoff step
        self._task: asyncio.Task[None] | None = None
        self._wake: asyncio.Event | None = None
        self._probe_now = True
        self._closed = False
        self._embed_failure: AmicusError | None = None  # the last embed's failure, until one works
        self._in_flight = 0  # probes running now: only ever 0 or 1 (one task probes)
        self._checks = 0  # probes answered (or failed): 0 means the state is still a guess

    # -- public ----------------------------------------------------------------------------
    @property
    def state(self) -> Connectivity:
        return self._state

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def start(self) -> None:
        """Start probing on the running loop (first probe at once)."""
        if self._task is None and not self._closed:
            self._wake = asyncio.Event()
            self._task = asyncio.ensure_future(self._run())

    def set_expected(self, expected: ModelInfo | None) -> None:
        """The DB's model changed (another file was opened): re-check against it soon."""
        self._expected = expected
        if self._state.state in (ProxyState.ONLINE, ProxyState.MISMATCH) and self._state.model is not None:
            err = mismatch_error(self._state.model, expected) if expected else None
            if err is not None:
                self._set(ProxyState.MISMATCH, error=err)
            elif self._state.state is ProxyState.MISMATCH:
                self._set(ProxyState.ONLINE, error=None)
        self.retry_now()

    def retry_now(self) -> None:
        """Probe now (no-op while a probe is already in flight: it will report)."""
        if self._in_flight:
            return
        self._probe_now = True
        if self._wake is not None:
            self._wake.set()

    def report_success(self, model: ModelInfo) -> None:
        """An embed call worked: the proxy is up (and its model known)."""
        self._embed_failure = None
        err = mismatch_error(model, self._expected) if self._expected else None
        if err is not None:
            self._set(ProxyState.MISMATCH, model=model, error=err)
        elif self._state.state is not ProxyState.ONLINE or self._state.model != model:
            self._online(model)

    def report_error(self, err: AmicusError) -> None:
        """An embed call failed; proxy-side codes change the state, others are ignored."""
        if err.code is ErrorCode.OFFLINE:
            self._offline(err)
            self._reschedule()
        elif err.code is ErrorCode.EMBED_FAILED:
            self._embed_failure = err
            self._set(ProxyState.EMBED_FAILED, error=err, offline_since=None)
            self._reschedule()
        elif err.code in (ErrorCode.DIMENSION_MISMATCH, ErrorCode.MODEL_MISMATCH):
            self._set(ProxyState.MISMATCH, error=err, offline_since=None)
            self._reschedule()

    async def aclose(self) -> None:
        self._closed = True
        if self._wake is not None:
            self._wake.set()  # a sleep between probes ends now, even if its cancellation is lost
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            # asyncio.wait, not "await task": a cancellation of the *caller* must still propagate.
            await asyncio.wait([task])

    # -- the probe task --------------------------------------------------------------------
    async def _run(self) -> None:
        assert self._wake is not None
        while not self._closed:
            if self._probe_now:
                self._probe_now = False
                await self._probe_once()
                if self._closed:
                    # Closed while probing. The cancellation may never arrive: Python 3.11's
                    # asyncio.wait_for drops one that comes in the same turn as the probe's answer
                    # (CPython gh-86296; docs/UI.md).
                    break
            delay = self._delay()
            self._set(self._state.state, next_check_at=self._clock() + delay)
            self._wake.clear()
            try:
                await asyncio.wait_for(self._wake.wait(), timeout=delay)
            except TimeoutError:
                self._probe_now = True

    async def _probe_once(self) -> None:
        self._in_flight += 1
        self._set(self._state.state, probing=True, next_check_at=None)
        try:
            model = await asyncio.wait_for(self._probe(), self._probe_timeout)
        except TimeoutError:
            # Reached (the connection was accepted) but silent: not offline, and not to be
            # waited on for the client's full read timeout either.
            self._checks += 1
            err = AmicusError(
                ErrorCode.EMBED_FAILED,
                f"The embed proxy at {self._state.url} accepted the connection but did not answer its "
                f"health check within {self._probe_timeout:g} s.",
            )
            self._set(ProxyState.EMBED_FAILED, error=err, offline_since=None, probing=False)
            return
        except AmicusError as err:
            self._checks += 1
            if err.code is ErrorCode.OFFLINE:
                self._offline(err)
            else:
                # The proxy answered: up, but its /health is unusable.
                self._set(ProxyState.EMBED_FAILED, error=err, offline_since=None, probing=False)
            return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug in the probe must not kill the schedule
            self._checks += 1
            log.exception("health probe raised unexpectedly")
            self._set(
                ProxyState.EMBED_FAILED,
                error=AmicusError(
                    ErrorCode.EMBED_FAILED, f"The health check failed unexpectedly ({type(exc).__name__})."
                ),
                probing=False,
            )
            return
        finally:
            self._in_flight -= 1
        self._checks += 1
        mismatch = mismatch_error(model, self._expected) if self._expected else None
        if mismatch is not None:
            self._failures = 0
            self._set(ProxyState.MISMATCH, model=model, error=mismatch, offline_since=None, probing=False)
        elif self._embed_failure is not None:
            # /health is fine but the last embed failed: keep saying so until an embed works,
            # only refresh the model. (A 401 on embed, say, leaves /health healthy.)
            self._failures = 0
            self._set(ProxyState.EMBED_FAILED, model=model, error=self._embed_failure,
                      offline_since=None, probing=False)
        else:
            self._online(model)

    def _delay(self) -> float:
        state = self._state.state
        if state is ProxyState.OFFLINE:
            step = min(max(self._failures - 1, 0), len(self._backoff) - 1)
            return self._backoff[step]
        if state is ProxyState.ONLINE:
            return self._online_interval
        if state is ProxyState.CHECKING:
            return self._backoff[0]
        return self._trouble_interval

    def _reschedule(self) -> None:
        """Recompute the sleep after a state change reported from outside (no probe now)."""
        if self._wake is not None and not self._in_flight:
            self._wake.set()

    # -- transitions -----------------------------------------------------------------------
    def _online(self, model: ModelInfo) -> None:
        was = self._state.state
        self._failures = 0
        self._set(ProxyState.ONLINE, model=model, error=None, offline_since=None, probing=False)
        if was is not ProxyState.ONLINE:
            log.info("proxy online", extra={"model": model.id, "dims": model.dims})

    def _offline(self, err: AmicusError) -> None:
        was = self._state.state
        self._failures += 1
        self._embed_failure = None  # whatever comes back is a new start
        since = self._state.offline_since if was is ProxyState.OFFLINE else time.time()
        self._set(ProxyState.OFFLINE, error=err, offline_since=since, probing=False)
        if was is not ProxyState.OFFLINE:
            log.warning("proxy offline", extra={"url": self._state.url})

    def _set(self, state: ProxyState, **changes: Unpack[_Changes]) -> None:
        new = replace(self._state, state=state, checks=self._checks, **changes)
        if new == self._state:
            return
        self._state = new
        for listener in list(self._listeners):
            try:
                listener(new)
            except Exception:  # a broken listener must not stop the others or the probe
                log.exception("connectivity listener failed")
