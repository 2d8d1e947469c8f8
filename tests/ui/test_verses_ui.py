"""The Verses tab, the reader's translations and copying scripture, in the window, through the real proxy
on a real library with the verse tables (tests/support/verses.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QTextCursor

from amicus_desktop.core.query import SearchMode
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.present import verses as words
from tests.support.proxy import free_port

from .conftest import wait_for

pytestmark = pytest.mark.slow


def ask(qtbot, window, text: str) -> None:
    s = window.session
    window.ask.edit.setText(text)
    qtbot.mouseClick(window.ask.button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: s.question.view is not None and not s.question.busy
             and s.verses.view is not None and not s.verses.busy, timeout=30)


def test_the_verses_tab_answers_beside_the_results_and_opens_the_reader(harness, qtbot, verse_db: Path,
                                                                       local_proxy) -> None:
    window = harness.open(db=verse_db, proxy=local_proxy.url, chapter="romans:8")
    s = window.session
    wait_for(qtbot, lambda: s.can_ask and s.reader.loaded_chapter is not None, timeout=30)
    ask(qtbot, window, "God so loved the world")
    pane = window.results
    assert pane.tabs.tabText(pane.VERSES_TAB) == "Verses"
    pane.tabs.setCurrentIndex(pane.VERSES_TAB)
    tab = pane.verses
    assert not pane.detail_area.isVisible()  # the verses explain themselves in their tab
    assert tab.title.text() == "10 verses · hybrid search · World English Bible (WEB)"
    first = tab.list.topLevelItem(0)
    assert first is not None and first.text(1) == "John 3:16" and first.text(3).startswith("For God so loved")
    why = tab.why.toPlainText()
    assert "John 3:16 (WEB)" in why and "Phrases: word pairs of the question appear in the verse: 1.00" in why
    assert f"Score: {s.verses.view.result.results[0].score:.3f}" in why
    # Enter opens the verse in the reader, highlighted
    tab.list.setFocus()
    qtbot.keyClick(tab.list, Qt.Key.Key_Return)
    wait_for(qtbot, lambda: s.reader.loaded_chapter == ChapterRef("john", 3) and window.reader.highlighted == (16, 16))
    # Ctrl+C copies the verse with its reference and translation
    QGuiApplication.clipboard().clear()
    tab.list.setFocus()
    qtbot.keyClick(tab.list, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text().endswith("eternal life.\n— John 3:16 (WEB)")
    pane.tabs.setCurrentIndex(pane.RESULTS_TAB)
    assert pane.detail_area.isVisible()


def test_the_kjv_in_the_reader_and_in_verse_search_labelled_everywhere(harness, qtbot, verse_db: Path,
                                                                      local_proxy) -> None:
    window = harness.open(db=verse_db, proxy=local_proxy.url, chapter="john:3")
    s = window.session
    wait_for(qtbot, lambda: s.can_ask and s.reader.text is not None, timeout=30)
    combo = window.reader.translation_combo
    assert combo.isVisibleTo(window) and [combo.itemText(i) for i in range(combo.count())] == ["WEB", "KJV"]
    assert window.reader.text.toPlainText().startswith("John 3 (WEB)")
    ask(qtbot, window, "his only begotten Son")
    combo.setCurrentIndex(1)
    combo.activated.emit(1)
    wait_for(qtbot, lambda: s.reader.text is not None and s.reader.text.translation == "KJV"
             and s.verses.view is not None and s.verses.view.result.translation == "kjv" and not s.verses.busy,
             timeout=30)
    text = window.reader.text.toPlainText()
    assert text.startswith("John 3 (KJV)") and "only begotten Son" in text and "¶" not in text
    assert window.results.verses.title.text().endswith("King James Version (KJV)")
    assert window.results.verses.list.topLevelItem(0).text(1).startswith("John 3:16")
    # verses selected in the reader are copied whole, with reference and translation
    anchors = {n: p for p, n in window.reader._anchors()}
    cursor = window.reader.text.textCursor()
    cursor.setPosition(anchors[16] + 5)
    cursor.setPosition(anchors[17] + 3, QTextCursor.MoveMode.KeepAnchor)
    window.reader.text.setTextCursor(cursor)
    window.reader.text.setFocus()
    qtbot.keyClick(window.reader.text, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copied = QGuiApplication.clipboard().text()
    assert copied.startswith("For God so loved the world, that he gave his only begotten Son")
    assert copied.endswith("might be saved.\n— John 3:16-17 (KJV)")
    assert window.statusBar().currentMessage() == words.copied_status("John 3:16-17", "KJV")
    # "Search for this verse's topic" asks the verse's text
    window.reader.topicRequested.emit("For God so loved the world")
    wait_for(qtbot, lambda: s.question.view is not None and s.question.view.result.query == "For God so loved the world"
             and not s.question.busy, timeout=30)
    assert window.ask.edit.text() == "For God so loved the world"
    # the translation chosen is the reader's at the next start
    harness.close(window)
    window = harness.open(db=verse_db, proxy=local_proxy.url, chapter="john:3")
    s = window.session
    wait_for(qtbot, lambda: s.reader.text is not None, timeout=30)
    assert s.verses.translation == "kjv" and window.reader.translation_combo.currentText() == "KJV"
    assert window.reader.text.toPlainText().startswith("John 3 (KJV)")


def test_keyword_verse_search_works_offline(harness, qtbot, verse_db: Path) -> None:
    window = harness.open(db=verse_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:8")
    s = window.session
    wait_for(qtbot, lambda: s.library.ready and s.connection.state.state.value == "offline", timeout=30)
    s.set_mode(SearchMode.KEYWORD)
    ask(qtbot, window, "nothing separate us from the love of God")
    assert s.verses.view is not None and s.verses.view.result.results[0].reference.startswith("Romans 8:")
    assert "keyword search" in window.results.verses.title.text()


def test_a_database_without_verse_vectors_says_so_in_the_tab(harness, qtbot, study_db: Path, local_proxy) -> None:
    window = harness.open(db=study_db, proxy=local_proxy.url, chapter="romans:3")
    s = window.session
    wait_for(qtbot, lambda: s.can_ask and s.reader.loaded_chapter is not None, timeout=30)
    assert not window.reader.translation_combo.isVisibleTo(window)  # one translation: nothing to choose
    window.ask.edit.setText("justified by faith")
    qtbot.mouseClick(window.ask.button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: s.question.view is not None and s.verses.failure is not None, timeout=30)
    tab = window.results.verses
    assert tab.stack.currentWidget() is tab.state and "no verse vectors" in tab.state.text()
    assert "Words mode" in tab.state.text()
    s.set_mode(SearchMode.KEYWORD)  # asks again: the verses are searched by words
    wait_for(qtbot, lambda: s.verses.view is not None and not s.verses.busy, timeout=30)
    assert s.verses.view.result.results and tab.stack.currentWidget() is tab.split


def test_verse_vectors_come_from_the_cache_file_written_off_the_ui_thread(harness, qtbot, verse_db: Path,
                                                                          local_proxy, monkeypatch) -> None:
    import threading

    from amicus_desktop import paths
    from amicus_desktop.store import vector_file as files
    from amicus_desktop.verses import memory

    opened: list[str] = []
    real = memory.vector_file

    def recorded(*args, **kwargs):  # the real function, its thread noted
        opened.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(memory, "vector_file", recorded)
    folder = paths.cache_dir() / files.FOLDER
    assert not list(folder.glob("*.f32"))
    window = harness.open(db=verse_db, proxy=local_proxy.url, chapter="romans:8")
    s = window.session
    wait_for(qtbot, lambda: s.can_ask and s.reader.loaded_chapter is not None, timeout=30)
    ask(qtbot, window, "God so loved the world")
    (written,) = folder.glob("*.f32")
    assert opened and threading.main_thread().name not in opened  # on the database thread
    first = s.verses.view.result.results[0]
    assert (first.book_id, first.chapter_num, first.verse_start) == ("john", 3, 16)
    assert first.breakdown.similarity and first.breakdown.similarity > 0.3  # scored by meaning, from the file
    stamp = written.stat().st_mtime_ns
    ask(qtbot, window, "adoption as sons")
    assert any(h.book_id == "romans" and h.chapter_num == 8 for h in s.verses.view.result.results)
    assert list(folder.glob("*.f32")) == [written] and written.stat().st_mtime_ns == stamp  # read, not rewritten
