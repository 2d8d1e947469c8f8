"""What-if weights (``session/workbench/whatif.py``): the kept candidates re-ranked against the saved
weights, no new search. Plain Python: a real sqlite-vec file, the scripted proxy over real HTTP."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.core.query import BoostWeights
from amicus_desktop.retrieval import rerank_result
from amicus_desktop.settings import SettingsStore
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession

from .support import BIG_CHAPTER, started

pytestmark = pytest.mark.anyio  # async tests on asyncio; see tests/session/conftest.py


async def test_what_if_reranks_the_kept_candidates_and_moves_against_the_saved_weights(
    small_db: Path, proxy: ScriptedProxy, open_session: OpenSession
) -> None:
    session, bench = await started(open_session, small_db, proxy.url)
    view = session.question.view
    assert view is not None and bench.whatif_job.whatif is not None
    saved = {r.chunk_id: r.rank for r in view.result.results}
    assert bench.whatif_job.whatif.saved_ranks == saved and not bench.whatif_job.dirty
    assert all(bench.whatif_job.whatif.move(r.chunk_id, r.rank) == 0 for r in bench.whatif_job.whatif.result.results)

    bench.whatif_job.set_weights(BIG_CHAPTER)
    w = bench.whatif_job.whatif
    assert w is not None and bench.whatif_job.dirty and proxy.embed_requests == 1  # no new embedding
    expected = rerank_result(view.result, session.context("grace").replace(weights=BIG_CHAPTER))
    assert [r.chunk_id for r in w.result.results] == [r.chunk_id for r in expected.results]
    assert [r.chunk_id for r in w.result.results] != [r.chunk_id for r in view.result.results]
    in_chapter = [r for r in w.result.results if r.breakdown.chapter_boost != 1.0]
    assert in_chapter and all(r.breakdown.chapter_boost == 3.0 for r in in_chapter)
    moves = {r.chunk_id: w.move(r.chunk_id, r.rank) for r in w.result.results}
    assert any(m not in (0, None) for m in moves.values())
    for r in w.result.results:
        if r.chunk_id in saved:
            assert moves[r.chunk_id] == saved[r.chunk_id] - r.rank

    bench.whatif_job.reset()
    assert not bench.whatif_job.dirty and bench.whatif_job.whatif is not None
    assert [r.chunk_id for r in bench.whatif_job.whatif.result.results] == list(saved)

    # Saved weights changed elsewhere (the settings dialog) carry the untouched what-if along.
    session.apply_settings(session.prefs.settings.replace(scholar_boost=1.3))
    assert bench.whatif_job.weights.scholar == 1.3 and not bench.whatif_job.dirty
    bench.whatif_job.set_weights(BoostWeights(chapter=5.0))
    session.apply_settings(session.prefs.settings.replace(scholar_boost=1.2))
    assert bench.whatif_job.weights == BoostWeights(chapter=5.0) and bench.whatif_job.dirty  # weights being tried stay

    bench.whatif_job.set_weights(BoostWeights(chapter=2.0, per_scholar_cap=None, reference=1.4))
    bench.whatif_job.save_weights()
    assert not bench.whatif_job.dirty and session.prefs.settings.weights == bench.whatif_job.weights
    stored = SettingsStore().load()
    assert stored.chapter_boost == 2.0 and stored.per_scholar_cap is None and stored.reference_boost == 1.4
    shown = session.question.view
    assert shown is not None and shown.result.context is not None
    assert shown.result.context.weights == bench.whatif_job.weights  # the app ranks with the saved weights
