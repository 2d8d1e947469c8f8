"""Asking again (``session/retry.py``): which question Ctrl+R, *Retry now* and the hint beside the
question box are about, as plain rules over an :class:`Asking`. No Qt."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from amicus_desktop.connectivity import Connectivity, ProxyState
from amicus_desktop.session.retry import Asking, ask_again, offer_again, retry
from tests.support.sessions import OpenSession

IDLE = Asking(failed=None, shown=None, typed="", proxy=ProxyState.ONLINE, busy=False, can_ask=True)


def test_ask_again_prefers_the_failed_question_then_the_one_on_screen_then_the_typed_one() -> None:
    assert ask_again(replace(IDLE, failed="grace", shown="faith", typed="hope")) == "grace"
    assert ask_again(replace(IDLE, shown="faith", typed="hope")) == "faith"  # a stale answer refreshes
    assert ask_again(replace(IDLE, typed="hope")) == "hope"
    assert ask_again(replace(IDLE, typed="   ")) is None
    assert ask_again(replace(IDLE, failed="grace", can_ask=False)) is None


def test_retry_asks_again_only_after_a_failed_answer_else_probes_the_proxy() -> None:
    embed_failed = replace(IDLE, proxy=ProxyState.EMBED_FAILED, typed="hope")
    assert retry(embed_failed) == "hope"  # reachable but not embedding: ask what is typed
    assert retry(replace(embed_failed, failed="grace")) == "grace"
    assert retry(replace(IDLE, failed="grace", typed="hope")) == "grace"  # back online with a failed question
    assert retry(replace(IDLE, typed="hope")) is None  # online, nothing failed: probe
    assert retry(replace(IDLE, proxy=ProxyState.OFFLINE, failed="grace")) is None  # offline: probe
    assert retry(replace(embed_failed, typed=" ")) is None
    assert retry(replace(embed_failed, busy=True)) is None  # a question is in flight


def test_the_failed_question_is_offered_again_once_the_proxy_is_back_and_idle() -> None:
    assert offer_again(replace(IDLE, failed="grace")) == "grace"
    assert offer_again(IDLE) is None
    assert offer_again(replace(IDLE, failed="grace", busy=True)) is None
    for state in (ProxyState.OFFLINE, ProxyState.CHECKING, ProxyState.EMBED_FAILED):
        assert offer_again(replace(IDLE, failed="grace", proxy=state)) is None


@pytest.mark.anyio  # the session is closed by the fixture, in the test's event loop
async def test_asking_reads_the_session_and_the_question_box(small_db: Path, open_session: OpenSession) -> None:
    session = open_session(small_db, "http://127.0.0.1:9")  # never started: no I/O
    a = Asking.of(session, "typed")
    assert a == Asking(None, None, "typed", ProxyState.CHECKING, busy=False, can_ask=False)
    session.question.failed_text = "grace"
    session.connection.state = Connectivity(ProxyState.ONLINE, "http://127.0.0.1:9")
    assert Asking.of(session, "").failed == "grace" and Asking.of(session, "").proxy is ProxyState.ONLINE
