"""The one way the app runs work in the background: a :class:`Tasks` group per owner, and
:class:`Op` for a piece of blocking work whose outcome comes back to the loop. No Qt.

Every owner of background work — an :class:`~.engine.Engine` (loading the library, a chapter, a
question), the curator :class:`~.workbench.Workbench` (golden sets, snapshots), the window (export,
copy as context) — keeps its tasks in one :class:`Tasks`:

* while it is open, :meth:`Tasks.spawn` runs a coroutine as a task the group keeps until it ends;
* :meth:`Tasks.close` refuses new tasks from then on (``spawn`` returns ``None`` and closes the
  coroutine unrun), :meth:`Tasks.cancel` cancels the ones running, :meth:`Tasks.aclose` does both
  and waits for them to end;
* a task that fails is logged, with the group's name (a failure nobody awaited is a bug to see).

:class:`Op` is Anki's ``QueryOp`` idea without Qt: ``Op(work, success).failure(handler)
.run_in_background(tasks)`` runs ``work()`` on a worker thread and then ``success(value)`` — or
``handler(exception)`` — back on the loop's thread (the Qt thread in the app). A cancelled op calls
neither. Threading rule: ``work`` is a function over plain values (paths, results, numbers); it
must never be, or reach, a widget or a widget's bound method.

:class:`Worker` is one dedicated thread for work that must stay on one thread — a SQLite connection
(the reader's notes store): ``await worker.run(fn)`` runs ``fn()`` there, in the order submitted, from
the tasks of a :class:`Tasks` group like any other background work.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Generic, TypeVar

log = logging.getLogger("amicus.session")

T = TypeVar("T")


class Tasks:
    """The background tasks of one owner: spawned while open, cancelled and awaited when it closes."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closed = False

    @property
    def is_open(self) -> bool:
        """Whether new tasks are accepted (until :meth:`close`)."""
        return not self._closed

    def __len__(self) -> int:
        """How many tasks are running now."""
        return len(self._tasks)

    def spawn(self, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T] | None:
        """Run ``coro`` as a task of this group; ``None`` (and ``coro`` closed unrun) once it is closed."""
        if self._closed:
            coro.close()
            return None
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def close(self) -> None:
        """Refuse new tasks from now on; the ones running go on (see :meth:`cancel`)."""
        self._closed = True

    def cancel(self) -> list[asyncio.Task[Any]]:
        """Cancel every task running now; returns them (they end on a later turn of the loop)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        return tasks

    def shutdown(self) -> None:
        """:meth:`close` and :meth:`cancel` at once, for an owner that cannot wait (a closing window)."""
        self.close()
        self.cancel()

    async def aclose(self) -> None:
        """Refuse new tasks, cancel the running ones and wait until every one has ended."""
        self.close()
        tasks = self.cancel()
        if tasks:
            await asyncio.wait(tasks)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            log.error("background task failed", exc_info=exc, extra={"tasks": self.name})


class Op(Generic[T]):
    """``work()`` on a worker thread, then ``success(value)`` or the failure handler on the loop.

    Without a failure handler, an exception from ``work`` fails the task (and :class:`Tasks` logs it).
    """

    def __init__(self, work: Callable[[], T], success: Callable[[T], object]) -> None:
        self._work = work
        self._success = success
        self._failure: Callable[[Exception], object] | None = None

    def failure(self, handler: Callable[[Exception], object]) -> Op[T]:
        """Call ``handler(exception)`` on the loop when ``work`` raises; returns this op (chainable)."""
        self._failure = handler
        return self

    def run_in_background(self, tasks: Tasks) -> asyncio.Task[None] | None:
        """Start it as a task of ``tasks``; ``None`` when they are closed. The task ends after
        ``success`` or the failure handler has run."""
        return tasks.spawn(self._run())

    async def _run(self) -> None:
        try:
            value = await asyncio.to_thread(self._work)
        except Exception as exc:  # CancelledError is not an Exception: a cancelled op calls nothing
            if self._failure is None:
                raise
            self._failure(exc)
            return
        self._success(value)


class Worker:
    """One dedicated thread: :meth:`run` awaits ``fn()`` on it, one at a time, in the order submitted.

    For a resource that must stay on one thread (an SQLite connection). A call cancelled while ``fn`` runs
    does not stop ``fn`` (a write finishes); only its result is dropped. :meth:`shutdown` waits for what is
    queued, so a last save submitted before it is never lost.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
        self._closed = False

    async def run(self, fn: Callable[[], T]) -> T:
        """``fn()`` on the worker's thread; ``RuntimeError`` once it is shut down."""
        if self._closed:
            raise RuntimeError(f"the {self.name} worker is shut down")
        return await asyncio.get_running_loop().run_in_executor(self._executor, fn)

    async def shutdown(self) -> None:
        """Refuse new work, finish what is queued (without blocking the loop) and end the thread."""
        self._closed = True
        await asyncio.get_running_loop().run_in_executor(None, lambda: self._executor.shutdown(wait=True))
