"""A/B (``session/workbench/ab.py``): the question answered under two configurations, and their
agreement recomputed with the metric functions."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.core.query import SearchMode
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.evaluate import metrics
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession

from .support import BIG_CHAPTER, started

pytestmark = pytest.mark.anyio  # async tests on asyncio; see tests/session/conftest.py


async def test_ab_answers_the_question_twice_and_measures_the_agreement(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench = await started(open_session, small_db, proxy.url)
    a = bench.ab_job.side(SearchMode.SEMANTIC, session.prefs.settings.weights)
    b = bench.ab_job.side(SearchMode.SEMANTIC, BIG_CHAPTER, chapter=True)
    assert b.chapter == ChapterRef("romans", 9)
    task = bench.ab_job.compare(a, b)
    assert task is not None and bench.ab_job.ab_running
    await task
    ab = bench.ab_job.ab
    assert ab is not None and not bench.ab_job.ab_running
    ids_a = [r.chunk_id for r in ab.a.results]
    ids_b = [r.chunk_id for r in ab.b.results]
    assert ids_a != ids_b and ab.b.context is not None and ab.b.context.weights == BIG_CHAPTER
    assert ab.overlap == metrics.overlap(ids_a, ids_b) and ab.rbo == metrics.rbo(ids_a, ids_b)
    assert 0 < ab.rbo < 1 and ab.ranks_b[ids_b[0]] == 1
    session.set_chapter(ChapterRef("john", 3))
    assert bench.ab_job.ab is ab  # a re-rank of the same question keeps the comparison
    task = session.ask("faith")
    assert task is not None
    await task
    assert bench.ab_job.ab is None  # a new question: the comparison answered another one
