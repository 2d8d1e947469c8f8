"""Keyboard, accessibility, reader navigation, settings dialog, build dialog, theme, and the
PySide6 6.12 + Python 3.11 crash guard."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QPalette
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QWidget

from amicus_desktop import paths
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.session import DbStatus
from amicus_desktop.settings import SettingsStore
from amicus_desktop.ui import shortcuts, theme
from amicus_desktop.ui.build_dialog import BuildDialog, ProgressBox
from amicus_desktop.ui.settings_dialog import SettingsDialog
from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import run, wait_for


def test_every_shortcut_is_one_table_with_no_clashes(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", start=False)
    seen: dict[str, str] = {}
    for sc in shortcuts.SHORTCUTS:
        seqs = shortcuts.sequences(sc)
        assert seqs, f"{sc.id} has no key on this platform"
        for seq in seqs:
            text = seq.toString()
            assert text not in seen, f"{text} is bound to both {seen[text]} and {sc.id}"
            seen[text] = sc.id
        if not sc.local:  # Return in the question box, 0–3 in the workbench ranking: the widget's own
            action = window.actions_by_id[sc.id]
            assert [s.toString() for s in action.shortcuts()] == [s.toString() for s in seqs]
    dialog = shortcuts.ShortcutsDialog(window)
    qtbot.addWidget(dialog)
    listed = [dialog.table.item(r, 1).text() for r in range(dialog.table.rowCount())]
    assert listed == [s.title for s in shortcuts.SHORTCUTS]
    assert all(dialog.table.item(r, 2).text() for r in range(dialog.table.rowCount()))
    assert "Ctrl+L" in dialog.table.item(listed.index("Go to a reference (Rom 9, John 3:16)"), 2).text()
    assert shortcuts.BY_ID["focus_ask"].keys[0] == QKeySequence.StandardKey.Find


def test_icon_only_controls_have_accessible_names(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}")
    wait_for(qtbot, lambda: window.session.library.ready)
    window.profile_dock.toggle()
    buttons = window.findChildren(QAbstractButton)
    assert buttons
    for b in buttons:
        if not b.text().strip() and b.isVisibleTo(window):
            assert b.accessibleName(), f"{b!r} shows only an icon and has no accessible name"
    assert window.reader.prev_button.accessibleName() == "Previous chapter"
    assert window.ask.edit.accessibleName() == "Question"


def test_keyboard_reference_and_chapter_navigation(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:1")
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 1))
    window.activateWindow()
    window.actions_by_id["goto"].trigger()
    assert QApplication.focusWidget() in (window.reader.goto_edit, None)
    qtbot.keyClicks(window.reader.goto_edit, "John 3:16")
    qtbot.keyClick(window.reader.goto_edit, Qt.Key.Key_Return)
    assert window.session.reader.chapter == ChapterRef("john", 3)
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("john", 3))
    assert window.ask.context_label.text() == "Context: John 3"
    window.actions_by_id["next_chapter"].trigger()
    assert window.session.reader.chapter == ChapterRef("john", 4)
    window.actions_by_id["prev_chapter"].trigger()
    window.actions_by_id["prev_chapter"].trigger()
    assert window.session.reader.chapter == ChapterRef("john", 2)
    # the first chapter of a book steps back into the previous book (books in canonical order)
    window.session.set_chapter(ChapterRef("romans", 1))
    window.actions_by_id["prev_chapter"].trigger()
    assert window.session.reader.chapter == ChapterRef("john", 21)
    # an unknown reference says so, and goes nowhere
    window.reader.goto_edit.setText("Hezekiah 4")
    window.reader.goto_edit.returnPressed.emit()
    assert window.reader.goto_error.isVisibleTo(window) and "Hezekiah 4" in window.reader.goto_error.text()
    assert window.session.reader.chapter == ChapterRef("john", 21)
    # the spin box and prev/next buttons drive the same state
    window.reader.chapter_spin.setValue(5)
    assert window.session.reader.chapter == ChapterRef("john", 5)
    window.reader.next_button.click()
    assert window.session.reader.chapter == ChapterRef("john", 6)
    window.actions_by_id["focus_ask"].trigger()


def test_verse_highlight_and_text(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}")
    wait_for(qtbot, lambda: window.session.library.ready)
    window.goto_reference("Rom 9:4")
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 9))
    html = window.reader.text.toHtml()
    assert "verse 4 of Romans 9" in window.reader.text.toPlainText()
    assert "background-color" in html


def test_layout_is_restored_from_qsettings(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}")
    window.resize(780, 700)  # within the offscreen screen, which restoreGeometry() clamps to
    window.main_split.setSizes([260, 500])
    qtbot.wait(10)
    sizes = window.main_split.sizes()
    harness.close(window)
    assert (paths.config_dir() / "window.ini").exists()
    again = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}")
    assert again.size().width() == 780
    qtbot.wait(10)
    assert again.main_split.sizes() == sizes


def test_settings_dialog_edits_and_validates(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}")
    dialog = SettingsDialog(window.session.prefs.settings, parent=window)
    qtbot.addWidget(dialog)
    dialog.proxy_edit.setText("not a url")
    dialog._accept()
    assert dialog.error.isVisibleTo(dialog) and "proxy_url" in dialog.error.text()
    for bad, says in (("http://[::1", "cannot be read"), ("http://256.256.256.256:1", "not a valid IP address"),
                      ("http://localhost:99999", "port"), ("http://" + "a" * 100_000, "characters long")):
        dialog.proxy_edit.setText(bad)  # #20.7: the dialog accepted these, and the app then exited at start
        dialog._accept()
        assert dialog.error.isVisibleTo(dialog) and says in dialog.error.text() and len(dialog.error.text()) < 400
    dialog.proxy_edit.setText("http://127.0.0.1:9")
    dialog.token_edit.setText("tok")
    dialog.k_spin.setValue(5)
    dialog._accept()
    edited = dialog.result_settings()
    assert edited.proxy_url == "http://127.0.0.1:9" and edited.token == "tok" and edited.k == 5
    assert dialog.token_edit.echoMode() == dialog.token_edit.EchoMode.Password


def test_applying_new_ranking_settings_reranks(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        wait_for(qtbot, lambda: window.session.can_ask)
        window.session.ask("grace")
        wait_for(qtbot, lambda: window.session.question.view is not None)
        calls = proxy.embed_requests
        window.session.apply_settings(window.session.prefs.settings.replace(k=5, chapter_boost=3.0))
        view = window.session.question.view
        assert view.cause == "settings" and len(view.result.results) == 5
        assert proxy.embed_requests == calls
        assert any(r.breakdown.chapter_boost == 3.0 for r in view.result.results) or all(
            r.candidate.metadata.chapter_num != 9 for r in view.result.results)
        # a new proxy URL reconnects (and clears results)
        window.session.apply_settings(window.session.prefs.settings.replace(proxy_url=f"http://127.0.0.1:{free_port()}"))
        wait_for(qtbot, lambda: window.session.question.view is None)
        assert SettingsStore().load().k == 5


def test_build_dialog_runs_the_job_off_thread_and_opens_the_result(harness, qtbot, tmp_path: Path) -> None:
    window = harness.open()
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.MISSING)
    out = paths.default_db_path()
    threads: list[str] = []

    def job(path: str, cancel: threading.Event, progress: ProgressBox) -> str:
        threads.append(threading.current_thread().name)
        for i in range(3):
            progress(type("P", (), {"stage": "embedding", "done": i, "total": 3, "rate": 10.0, "eta": 1.0})())
            time.sleep(0.05)
        build_db(Path(path), demo_like_chunks(dims=8), books=BOOKS, verses=verses())
        return path

    dialog = BuildDialog(out, job=job, parent=window)
    qtbot.addWidget(dialog)
    dialog.finishedOk.connect(lambda _r: window.session.open_database(out))
    dialog.show()
    task = dialog.start()
    wait_for(qtbot, task.done, timeout=20)
    assert threads and threads[0] != threading.current_thread().name
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.READY)
    assert window.stack.currentWidget() is window.main_split


def test_build_dialog_cancel(harness, qtbot, tmp_path: Path) -> None:
    window = harness.open(start=False)

    def job(path: str, cancel: threading.Event, progress: ProgressBox) -> str:
        while not cancel.wait(0.02):
            pass
        raise RuntimeError("the build was cancelled")

    dialog = BuildDialog(tmp_path / "x.db", job=job, parent=window)
    qtbot.addWidget(dialog)
    dialog.show()
    task = dialog.start()
    qtbot.wait(100)
    dialog.cancel_button.click()
    wait_for(qtbot, task.done)
    assert dialog.error == "cancelled" and not (tmp_path / "x.db").exists()


def test_build_dialog_failure_is_shown(harness, qtbot, tmp_path: Path) -> None:
    window = harness.open(start=False)

    def job(path: str, cancel: threading.Event, progress: ProgressBox) -> str:
        raise FileNotFoundError("sword-text-web is not installed")

    dialog = BuildDialog(tmp_path / "x.db", job=job, parent=window)
    qtbot.addWidget(dialog)
    dialog.show()
    wait_for(qtbot, dialog.start().done)
    assert "sword-text-web" in dialog.detail.text() and dialog.cancel_button.text() == "Close"


def test_dark_scheme_gives_a_dark_palette(qapp, monkeypatch: pytest.MonkeyPatch) -> None:
    original = QPalette(qapp.palette())
    try:
        monkeypatch.setenv(theme.SCHEME_ENV, "dark")
        theme.apply_scheme(qapp)
        assert theme.is_dark(qapp.palette())
        label = QLabel("x")
        assert theme.is_dark(label.palette())
        # tints stay dark on a dark window: text on them stays readable
        assert theme.tint(qapp.palette(), "warning").lightness() < 100
        monkeypatch.setenv(theme.SCHEME_ENV, "light")
        theme.apply_scheme(qapp)
        assert not theme.is_dark(qapp.palette())
    finally:
        qapp.setPalette(original)
        qapp.setStyleSheet("")


def test_fifty_thousand_qt_calls_returning_none(qapp) -> None:
    """PySide6 6.12 on Python 3.11 crashed (none_dealloc) after thousands of such calls (hence the
    pin in pyproject.toml)."""
    w = QWidget()
    label = QLabel()
    for i in range(25_000):
        assert w.setToolTip("x") is None
        assert label.setText(str(i & 7)) is None
    assert label.text() == str(24_999 & 7)


def test_session_closes_cleanly_without_a_window(qtbot, aloop, small_db: Path) -> None:
    from amicus_desktop.session import EngineState, Overrides, Session

    session = Session(SettingsStore(), Overrides(db_path=str(small_db), proxy_url=f"http://127.0.0.1:{free_port()}"))
    session.start()
    wait_for(qtbot, lambda: session.library.ready)
    assert session.ask("grace") is None  # offline or checking: nothing is started
    engine = session.engine
    run(qtbot, session.aclose())
    assert session.engine is None and engine is not None and engine.state is EngineState.CLOSED


def test_minimal_schema_database_reads_without_text(harness, qtbot, tmp_path: Path) -> None:
    """A DB with exactly the contract's minimal schema (no books, no verses): navigation still sets
    the chapter context from the canon, and the reader says there is no text."""
    db = build_db(tmp_path / "minimal.db", demo_like_chunks(dims=8), full_schema=False)
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=db, proxy=proxy.url, chapter="rom 9")
        wait_for(qtbot, lambda: window.session.can_ask
                 and window.session.reader.loaded_chapter == ChapterRef("romans", 9))
        # from the chunks, in canon order
        assert [b.book_id for b in window.session.library.books] == ["john", "romans"]
        assert "no text for this chapter" in window.reader.text.toPlainText()
        window.session.ask("grace")
        wait_for(qtbot, lambda: window.session.question.view is not None)
        assert any(r.breakdown.chapter_boost == 1.5 for r in window.session.question.view.result.results) or all(
            (r.candidate.metadata.book_id, r.candidate.metadata.chapter_num) != ("romans", 9)
            for r in window.session.question.view.result.results)


def test_garbage_is_collected_on_the_qt_thread(qapp, qt_thread_gc) -> None:
    import gc

    from amicus_desktop.ui.qt_thread_gc import QtThreadGC

    assert not gc.isenabled()  # started once for the session, as the app does at start-up
    collector = QtThreadGC(interval_ms=10)
    for _ in range(gc.get_threshold()[0] + 50):
        a: list[object] = []
        a.append(a)
    before = gc.get_count()[0]
    collector.check()
    assert gc.get_count()[0] < before


def test_the_chapter_context_says_the_readers_chapter_boost(harness, qtbot) -> None:
    """#31.1: the tooltip said ×1.5 whatever the reader set; it follows the setting now."""
    window = harness.open()
    assert "(×1.5)" in window.ask.context_label.toolTip()
    window.session.apply_settings(window.session.prefs.settings.replace(chapter_boost=2.25))
    wait_for(qtbot, lambda: "(×2.25)" in window.ask.context_label.toolTip())
