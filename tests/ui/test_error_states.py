"""Each error state renders its own message and tells the user what to do.

Faults the real proxy cannot produce on purpose (HTTP 500, another model, other dims) come from the
scripted contract-speaking server; database faults from real files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.connectivity import ProxyState
from amicus_desktop.core.errors import ErrorCode
from amicus_desktop.logs import setup_logging, shutdown_logging
from amicus_desktop.present import states
from amicus_desktop.session import DbStatus
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy, reply_json

from .conftest import wait_for


def visible_text(window) -> str:
    """Everything a user can read in the banner, the start page and the ask box."""
    parts = []
    for w in (window.banner.title, window.banner.countdown, window.banner.body, window.banner.detail,
              window.start_page.title,
              window.start_page.body, window.start_page.advice, window.ask.error_label):
        if w.isVisibleTo(window):
            parts.append(w.text())
    if not window.ask.edit.isEnabled():
        parts.append(window.ask.edit.placeholderText())
    return "\n".join(parts)


def test_welcome_when_no_database_at_the_default_path(harness, qtbot) -> None:
    window = harness.open()
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.MISSING)
    assert window.stack.currentWidget() is window.start_page
    assert window.start_page.title.text() == "Welcome to Amicus Desktop"
    assert str(paths.default_db_path()) in window.start_page.advice.text()
    assert window.start_page.button(states.BUILD_DEMO) is not None
    assert window.start_page.button(states.OPEN_DB) is not None
    assert not window.ask.edit.isEnabled()


def test_db_not_found_at_a_chosen_path(harness, qtbot, tmp_path: Path) -> None:
    window = harness.open(db=tmp_path / "nope.db")
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.ERROR)
    assert window.start_page.code == "DB_NOT_FOUND"
    text = visible_text(window)
    assert "The database file is missing" in text and "nope.db" in text
    assert window.start_page.button(states.OPEN_DB) and window.start_page.button(states.BUILD_DEMO)


def test_db_invalid(harness, qtbot, tmp_path: Path) -> None:
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not sqlite" * 100)
    window = harness.open(db=bad)
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.ERROR)
    assert window.start_page.code == "DB_INVALID"
    assert "not a usable scripture database" in visible_text(window)
    assert "not a SQLite database" in window.start_page.body.text()


def test_extension_not_loaded(harness, qtbot, small_db: Path, monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AMICUS_SQLITE_VEC_PATH", str(tmp_path / "missing-vec0.so"))
    window = harness.open(db=small_db)
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.ERROR)
    assert window.start_page.code == "EXTENSION_NOT_LOADED"
    text = visible_text(window)
    assert "vector search extension could not be loaded" in text and "pip install" in text


def test_offline(harness, qtbot, small_db: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    window = harness.open(db=small_db, proxy=url)
    wait_for(qtbot, lambda: window.session.connection.state.state is ProxyState.OFFLINE)
    wait_for(qtbot, window.banner.isVisible)
    text = visible_text(window)
    assert "cannot be reached" in text and url in text and "connection refused" in text
    assert "amicus-desktop proxy" in text and ("Next check in" in text or "Checking" in text)
    assert window.banner.button("Retry now") is not None
    assert not window.ask.edit.isEnabled() and not window.ask.button.isEnabled()
    assert "offline" in window.status_bar.proxy_status.text()


def test_embed_failed_has_its_own_message(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url)
        wait_for(qtbot, lambda: window.session.can_ask)
        boom = {"error": {"code": "UPSTREAM", "message": "boom"}}
        proxy.behaviour = lambda body: None if body.get("health") else reply_json(500, boom)
        window.ask.edit.setText("grace")
        window.ask.button.click()
        wait_for(qtbot, lambda: window.session.connection.state.state is ProxyState.EMBED_FAILED, timeout=10)
        text = visible_text(window)
        assert "gave no usable vector" in text and "HTTP 500" in text
        assert window.ask.edit.isEnabled()  # the proxy is up: asking again is allowed
        assert "failing" in window.status_bar.proxy_status.text()
        proxy.behaviour = None
        window.banner.button("Retry now").click()  # after a failed answer, Retry now asks again
        wait_for(qtbot, lambda: window.session.question.view is not None
                 and window.session.connection.state.state is ProxyState.ONLINE)
        assert not window.banner.isVisible()


@pytest.mark.parametrize(("dims", "model", "code", "words"), [
    (16, "test-model", ErrorCode.DIMENSION_MISMATCH, "wrong size"),
    (8, "another-model", ErrorCode.MODEL_MISMATCH, "different model"),
])
def test_model_and_dimension_mismatch(harness, qtbot, small_db: Path, dims: int, model: str, code: ErrorCode,
                                      words: str) -> None:
    with ScriptedProxy(dims=dims, model=model) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url)
        wait_for(qtbot, lambda: window.session.connection.state.state is ProxyState.MISMATCH)
        assert window.session.connection.state.code is code
        text = visible_text(window)
        assert words in text and "Reading still works" in text and window.session.connection.state.error.message in text
        assert not window.ask.edit.isEnabled()
        assert "wrong model" in window.status_bar.proxy_status.text()


def test_a_bug_while_asking_says_so_and_where_the_log_is(harness, qtbot, small_db: Path, monkeypatch) -> None:
    """A programming error is not dressed up as a proxy failure: no proxy advice, the proxy stays
    online, and the notice names the log file that holds the traceback."""
    from amicus_desktop.retrieval import pipeline

    def broken_rerank(*_args: object) -> None:
        raise ZeroDivisionError("a bug")

    log_file = setup_logging(stderr_level=None)
    try:
        with ScriptedProxy(dims=8) as proxy:
            window = harness.open(db=small_db, proxy=proxy.url)
            wait_for(qtbot, lambda: window.session.can_ask)
            monkeypatch.setattr(pipeline, "rerank", broken_rerank)
            window.ask.edit.setText("grace")
            window.ask.button.click()
            wait_for(qtbot, window.notice_banner.isVisible)
            assert "internal error" in window.notice_banner.title.text()
            assert "ZeroDivisionError" in window.notice_banner.body.text()
            assert log_file is not None and str(log_file) in window.notice_banner.detail.text()
            assert not window.banner.isVisible() and "proxy" not in window.notice_banner.detail.text()
            assert window.session.connection.state.state is ProxyState.ONLINE
            assert window.ask.edit.isEnabled() and not window.ask.busy.active
            assert window.ask.status_label.text() == states.ASK_FAILED
    finally:
        shutdown_logging()


def test_query_invalid_shows_inline(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url)
        wait_for(qtbot, lambda: window.session.can_ask)
        window.ask.edit.setText("x" * 2500)
        window.ask.button.click()
        assert window.ask.error_label.isVisibleTo(window)
        assert "2,500 characters" in window.ask.error_label.text()
        assert proxy.embed_requests == 0
        assert not window.banner.isVisible()
        window.ask.edit.setText("   ")
        assert not window.ask.button.isEnabled()


def test_database_deleted_mid_session(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url)
        wait_for(qtbot, lambda: window.session.can_ask)
        small_db.unlink()
        window.ask.edit.setText("grace")
        window.ask.button.click()
        wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.ERROR)
        assert window.start_page.code == "DB_NOT_FOUND"


def test_corrupt_settings_are_set_aside_and_the_user_told(harness, qtbot, small_db: Path) -> None:
    cfg = paths.config_dir()
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "settings.json").write_text("{ not json")
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}")
    wait_for(qtbot, window.notice_banner.isVisible)
    assert "damaged" in window.notice_banner.body.text()
    assert (cfg / "settings.json.bak").read_text() == "{ not json"


@pytest.mark.parametrize("url", ["http://[::1", "http://256.256.256.256:1", "http://localhost:99999",
                                 "http://" + "a" * 100_000])
def test_an_invalid_proxy_address_opens_the_window_says_so_and_offers_settings(
    harness, qtbot, small_db: Path, url: str
) -> None:
    """#20.7: such an address (from --proxy or AMICUS_PROXY_URL) made the app exit at start with no window."""
    window = harness.open(db=small_db, proxy=url)
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.READY)
    wait_for(qtbot, window.banner.isVisible)
    assert window.banner.title.text() == "The embed proxy's address is not valid"
    assert window.banner.button(states.ACTION_LABELS[states.SETTINGS]) is not None
    assert window.banner.button(states.ACTION_LABELS[states.KEYWORD]) is not None
    assert len(window.banner.body.text()) < 400  # a 100k-character address is not echoed whole
    assert not window.ask.edit.isEnabled()


def test_a_saved_invalid_proxy_address_is_reset_with_a_notice_offering_settings(
    harness, qtbot, small_db: Path
) -> None:
    cfg = paths.config_dir()
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "settings.json").write_text('{"proxy_url": "http://localhost:99999"}')
    window = harness.open(db=small_db)
    wait_for(qtbot, window.notice_banner.isVisible)
    assert "proxy_url" in window.notice_banner.body.text() and "port" in window.notice_banner.body.text()
    assert window.notice_banner.button("Settings…") is not None
    assert window.session.connection.state.url == paths.DEFAULT_PROXY_URL


def test_a_nul_byte_in_the_database_path_is_the_error_state(harness, qtbot, tmp_path: Path) -> None:
    """#20.21: it left "Opening database…" on screen for ever."""
    window = harness.open(db=str(tmp_path / "scripture\x00.db"))
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.ERROR)
    assert window.start_page.code == "DB_NOT_FOUND"
    assert "NUL" in window.start_page.body.text()
