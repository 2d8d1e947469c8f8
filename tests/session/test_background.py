"""The one background-work helper (``session/background.py``) on a plain asyncio loop: a task group
that refuses, cancels and waits, and an op whose work runs on a worker thread and whose outcome comes
back on the loop's thread. No Qt."""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest

from amicus_desktop.session.background import Op, Tasks

pytestmark = pytest.mark.anyio  # async tests on asyncio; see conftest.py


async def test_a_group_keeps_its_tasks_until_they_end_and_refuses_new_ones_once_closed() -> None:
    tasks = Tasks("test")
    gate = asyncio.Event()

    async def wait() -> str:
        await gate.wait()
        return "done"

    task = tasks.spawn(wait())
    assert task is not None and len(tasks) == 1 and tasks.is_open
    gate.set()
    assert await task == "done"
    await asyncio.sleep(0)  # the done callback runs on the next turn
    assert len(tasks) == 0

    ran = []

    async def never() -> None:
        ran.append(True)

    tasks.close()
    coro = never()
    assert tasks.spawn(coro) is None and not tasks.is_open
    assert coro.cr_frame is None  # closed unrun: no "never awaited" warning either
    await asyncio.sleep(0)
    assert ran == []


async def test_aclose_cancels_the_running_tasks_and_waits_for_them_to_end() -> None:
    tasks = Tasks("test")
    ended: list[str] = []

    async def long() -> None:
        try:
            await asyncio.sleep(60)
        finally:
            await asyncio.sleep(0)  # cleanup that takes a turn: aclose waits for it
            ended.append("cleaned up")

    running = [tasks.spawn(long()), tasks.spawn(long())]
    await asyncio.sleep(0)
    await tasks.aclose()
    assert ended == ["cleaned up", "cleaned up"]
    assert all(t is not None and t.cancelled() for t in running)
    assert tasks.spawn(long()) is None


async def test_a_failing_task_is_logged_with_the_group_name(caplog: pytest.LogCaptureFixture) -> None:
    tasks = Tasks("workbench")

    async def boom() -> None:
        raise RuntimeError("boom")

    with caplog.at_level(logging.ERROR, logger="amicus.session"):
        task = tasks.spawn(boom())
        assert task is not None
        await asyncio.wait([task])
        await asyncio.sleep(0)
    failed = [r for r in caplog.records if r.getMessage() == "background task failed"]
    assert len(failed) == 1 and getattr(failed[0], "tasks", None) == "workbench"
    assert failed[0].exc_info is not None and str(failed[0].exc_info[1]) == "boom"


async def test_an_op_works_on_a_worker_thread_and_answers_on_the_loop_thread() -> None:
    loop_thread = threading.get_ident()
    seen: dict[str, object] = {}

    def work() -> int:
        seen["work"] = threading.get_ident()
        return 42

    def success(value: int) -> None:
        seen["success"] = (threading.get_ident(), value)

    task = Op(work, success).run_in_background(Tasks("test"))
    assert task is not None
    await task
    assert seen["work"] != loop_thread
    assert seen["success"] == (loop_thread, 42)  # called before the task ends


async def test_an_op_that_fails_calls_its_failure_handler_or_fails_its_task(caplog: pytest.LogCaptureFixture) -> None:
    tasks = Tasks("test")
    caught: list[Exception] = []

    def work() -> int:
        raise OSError("disk full")

    with caplog.at_level(logging.ERROR, logger="amicus.session"):
        task = Op(work, lambda _v: caught.append(AssertionError("success called"))).failure(
            caught.append).run_in_background(tasks)
        assert task is not None
        await task
        assert [str(e) for e in caught] == ["disk full"]

        unhandled = Op(work, lambda _v: None).run_in_background(tasks)
        assert unhandled is not None
        await asyncio.wait([unhandled])
        await asyncio.sleep(0)
        assert isinstance(unhandled.exception(), OSError)
    assert [r.getMessage() for r in caplog.records] == ["background task failed"]


async def test_a_cancelled_op_calls_neither_handler() -> None:
    tasks = Tasks("test")
    release = threading.Event()
    called: list[str] = []

    def work() -> int:
        release.wait(10)
        return 1

    task = Op(work, lambda _v: called.append("success")).failure(
        lambda _e: called.append("failure")).run_in_background(tasks)
    assert task is not None
    await asyncio.sleep(0.05)  # the work is under way on its thread
    tasks.shutdown()
    release.set()
    await asyncio.wait([task])
    assert task.cancelled() and called == []
    assert Op(work, lambda _v: None).run_in_background(tasks) is None  # shut down: refused
