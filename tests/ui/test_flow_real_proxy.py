"""End-to-end flows against the real local embed proxy (a subprocess) and a DB built by the test.

The proxy and the database are made once per module (``tests/ui/conftest.py``): the DB's chunks are
embedded by that same proxy, so its ``embedding_model`` is exactly what the proxy reports.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.connectivity import ProxyState
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.logs import setup_logging, shutdown_logging
from amicus_desktop.session import DbStatus
from tests.support.probes import count_health_probes
from tests.support.proxy import ProxyProcess

from .conftest import wait_for

pytestmark = pytest.mark.slow

QUESTION = "Why did God choose Jacob and not Esau?"


def ask(window, qtbot, text: str = QUESTION) -> None:
    before = window.session.question.view
    window.ask.edit.setText(text)
    window.ask.button.click()
    wait_for(qtbot, lambda: window.session.question.view is not before and window.session.question.view is not None
             and window.session.question.view.cause == "ask", timeout=20)


def test_full_ask_flow(harness, qtbot, real_db: Path, proxy_ready: ProxyProcess) -> None:
    log_file = setup_logging(stderr_level=None)
    try:
        window = harness.open(db=real_db, proxy=proxy_ready.url, chapter="Rom 9")
        wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
        assert window.ask.context_label.text() == "Context: Romans 9"
        wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 9))
        assert "Romans 9" in window.reader.text.toPlainText()

        ask(window, qtbot)
        view = window.session.question.view
        assert len(view.result.results) == 10
        assert window.results.tabs.tabText(0) == "Results (10)"
        assert window.results.results_proxy.rowCount() == 10
        assert window.results.rejected_proxy.rowCount() == len(view.result.rejected) > 0
        rejected = window.results.rejected_model
        reasons = [rejected.index(r, rejected.REASON).data() for r in range(rejected.rowCount())]
        # the app spreads a list over its sources instead of capping it: what is set aside is past the cut-off
        assert reasons and all(r for r in reasons) and any("cut-off" in r for r in reasons)
        # the top result is selected and explained
        assert window.results.results_view.currentIndex().row() == 0
        wait_for(qtbot, lambda: window.results.breakdown.chart.isVisibleTo(window))  # drawn a turn after the table
        words = window.results.breakdown.words.text()
        assert "Similarity = 1 −" in words and "chapter" in words and "Final score" in words
        boosts = [window.results.results_model.index(r, window.results.results_model.BOOSTS).data() for r in range(10)]
        assert any("×1.5 chapter" in b for b in boosts)
        assert window.results.passage.view.toPlainText().strip()
        assert "embed" in window.status_bar.timing_status.text() and "total" in window.status_bar.timing_status.text()
        assert view.result.model.id in window.status_bar.model_status.text()
        assert "chunks" in window.status_bar.chunks_status.text()
        assert "online" in window.status_bar.proxy_status.text()
        # the verse range opens in the reader
        first = view.result.results[0].candidate.metadata
        assert window.results.passage.open_link()
        assert window.session.reader.chapter == ChapterRef(first.book_id, first.chapter_num)
        # a second question supersedes one in flight: only the last one's results show
        window.session.ask("the good shepherd")
        window.session.ask("living water at the well")
        wait_for(qtbot, lambda: window.session.question.view.result.query == "living water at the well", timeout=20)
        assert not window.session.question.busy
    finally:
        shutdown_logging()
    text = log_file.read_text("utf-8") if log_file else ""
    assert "query_chars" in text and QUESTION not in text and "living water" not in text


def test_chapter_change_reranks_from_the_cached_vector(harness, qtbot, real_db: Path,
                                                       proxy_ready: ProxyProcess) -> None:
    window = harness.open(db=real_db, proxy=proxy_ready.url, chapter="romans:9")
    wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
    ask(window, qtbot)
    before = window.session.question.view.result
    # move to John 1 with the reader's controls
    window.reader.book_combo.setCurrentIndex(window.reader.book_combo.findData("john"))
    window.reader.book_combo.activated.emit(window.reader.book_combo.currentIndex())
    wait_for(qtbot, lambda: window.session.question.view.cause == "chapter")
    after = window.session.question.view
    assert after.result.context.chapter == ChapterRef("john", 1)
    assert after.result.timings.embed == 0.0 and after.result.timings.search == 0.0  # re-ranked, not re-asked
    assert [r.chunk_id for r in after.result.results] != [r.chunk_id for r in before.results]
    assert not window.results.results_view.isColumnHidden(1)
    moves = [window.results.results_model.index(r, 1).data() for r in range(10)]
    assert any(m.startswith(("▲", "▼", "new")) for m in moves)
    assert "Re-ranked for John 1" in window.results.note.text()
    assert "re-rank" in window.status_bar.timing_status.text()
    assert window.ask.context_label.text() == "Context: John 1"


def test_profile_applies_at_once_and_persists_across_restart(harness, qtbot, real_db: Path,
                                                             proxy_ready: ProxyProcess) -> None:
    window = harness.open(db=real_db, proxy=proxy_ready.url, chapter="romans:9")
    wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
    ask(window, qtbot)
    window.profile_dock.toggle()
    assert window.profile_dock.isVisible()
    wait_for(qtbot, lambda: window.profile_dock.panel.scholars.count() == 3)
    window.profile_dock.panel.check("scholar", "spurgeon")
    window.profile_dock.panel.check("tradition", "reformed")
    view = window.session.question.view
    assert view.cause == "profile"
    assert any(r.breakdown.scholar_boost == 1.1 for r in view.result.results)
    model = window.results.results_model
    assert "×1.1 scholar" in " ".join(model.index(r, model.BOOSTS).data() for r in range(10))
    assert window.ask.profile_button.text() == "Profile: 1 scholar, 1 tradition"
    saved = json.loads((paths.config_dir() / "settings.json").read_text())
    assert saved["preferred_scholars"] == ["spurgeon"] and saved["preferred_traditions"] == ["reformed"]
    harness.close(window)

    again = harness.open(db=real_db, proxy=proxy_ready.url)
    wait_for(qtbot, lambda: again.session.library.ready and again.profile_dock.panel.scholars.count() == 3)
    assert again.session.prefs.profile.preferred_scholars == frozenset({"spurgeon"})
    assert again.ask.profile_button.text() == "Profile: 1 scholar, 1 tradition"
    assert again.profile_dock.panel.profile() == again.session.prefs.profile
    # the last chapter read is restored too (the restore lands after the library opens: wait for it)
    wait_for(qtbot, lambda: again.session.reader.chapter == ChapterRef("romans", 9))


def test_proxy_down_at_start_then_started_reenables_without_user_action(harness, qtbot, real_db: Path) -> None:
    proxy = ProxyProcess("--rate-limit", "0")  # not started yet
    try:
        window = harness.open(db=real_db, proxy=proxy.url)
        wait_for(qtbot, lambda: window.session.connection.state.state is ProxyState.OFFLINE, timeout=10)
        assert not window.ask.edit.isEnabled() and not window.ask.button.isEnabled()
        assert window.banner.isVisible() and proxy.url in window.banner.body.text()
        # the reader keeps working while offline
        window.session.step_chapter(1)
        wait_for(qtbot, lambda: window.session.reader.loaded_chapter == window.session.reader.chapter)
        qtbot.wait(4500)  # let the backoff reach its cap
        proxy.start()
        started = time.monotonic()
        wait_for(qtbot, lambda: window.session.can_ask, timeout=6)
        took = time.monotonic() - started
        print(f"\nasking re-enabled {took:.2f} s after the proxy answered /health")
        assert took <= 5.0
        assert window.ask.edit.isEnabled() and not window.banner.isVisible()
        ask(window, qtbot)
        assert len(window.session.question.view.result.results) == 10
    finally:
        proxy.close()


def test_killing_the_proxy_mid_session_goes_offline(harness, qtbot, real_db: Path) -> None:
    proxy = ProxyProcess("--rate-limit", "0")
    proxy.start()
    try:
        window = harness.open(db=real_db, proxy=proxy.url, chapter="romans:9")
        wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
        ask(window, qtbot)
        results_before = window.session.question.view.result.results
        proxy.kill()
        window.ask.edit.setText("a question after the proxy died")
        window.ask.button.click()
        wait_for(qtbot, lambda: window.session.connection.state.state is ProxyState.OFFLINE, timeout=15)
        wait_for(qtbot, window.banner.isVisible)
        assert "cannot be reached" in window.banner.title.text()
        assert not window.ask.edit.isEnabled()
        # earlier results stay, marked as from before the proxy went away
        assert window.session.question.view.stale and window.session.question.view.result.results == results_before
        stale = window.results.stale_note
        assert stale.isVisible() and "before the proxy went away" in stale.title.text()
        assert window.results.results_proxy.rowCount() == 10
        # re-ranking and reading still work offline
        window.session.set_chapter(ChapterRef("john", 3))
        wait_for(qtbot, lambda: window.session.question.view.cause == "chapter"
                 and window.session.reader.loaded_chapter == ChapterRef("john", 3))
        assert window.session.question.view.stale
        # and it comes back on its own
        proxy.start()
        wait_for(qtbot, lambda: window.session.can_ask, timeout=6)
        ask(window, qtbot)
        assert not window.session.question.view.stale and not window.results.stale_note.isVisible()
    finally:
        proxy.close()


def test_the_health_probe_notices_a_dead_proxy_without_asking(harness, qtbot, real_db: Path, monkeypatch) -> None:
    probes = count_health_probes(monkeypatch)
    proxy = ProxyProcess("--rate-limit", "0")
    proxy.start()
    try:
        window = harness.open(db=real_db, proxy=proxy.url, online_interval=0.5)
        wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
        proxy.kill()
        wait_for(qtbot, lambda: window.session.connection.state.state is ProxyState.OFFLINE, timeout=5)
        assert not window.ask.edit.isEnabled()
        before = probes.calls
        for _ in range(5):  # the banner's button, pressed again and again: a probe, never two at once
            window.ask_control.retry_now()
        wait_for(qtbot, lambda: probes.calls > before and probes.running == 0, timeout=5)
        assert probes.most_at_once == 1 and probes.calls >= 3
    finally:
        proxy.close()


def test_db_state_is_ready(harness, qtbot, real_db: Path, proxy_ready: ProxyProcess) -> None:
    window = harness.open(db=real_db, proxy=proxy_ready.url)
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.READY)
    assert window.stack.currentWidget() is window.main_split
