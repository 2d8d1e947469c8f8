"""The reader's experience (issue 13): jumping to verses, navigation messages, and the rest of the
study companion, driven through the real window offscreen over a real sqlite-vec file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from amicus_desktop.core.references import ChapterRef
from tests.support.dbs import BOOKS, build_db, demo_like_chunks
from tests.support.proxy import free_port

from .conftest import wait_for

#: Verses per chapter in :func:`long_db`: enough that a late verse starts off-screen.
VERSES = 40


@pytest.fixture(scope="module")
def long_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small demo-like corpus with 40 long verses per chapter, so chapters overflow the view."""
    rows = [
        (book, c, v, f"Verse {v} of {book.title()} {c}: " + "a long line of scripture for the reader, " * 4)
        for book, _name, _ord, chapters in BOOKS
        for c in range(1, chapters + 1)
        for v in range(1, VERSES + 1)
    ]
    path = tmp_path_factory.mktemp("long") / "long.db"
    return build_db(path, demo_like_chunks(dims=8), books=BOOKS, verses=rows)


def visible_lines(reader: Any, everywhere: bool = False) -> int:
    """How many lines of the chapter's text the reader's view shows whole now (``everywhere``: it has)."""
    text = reader.text
    top = -1 if everywhere else text.verticalScrollBar().value()
    bottom = 10**9 if everywhere else top + text.viewport().height()
    count = 0
    block = text.document().begin()
    while block.isValid():
        layout = block.layout()
        origin = layout.position().y()
        for i in range(layout.lineCount()):
            line = layout.lineAt(i)
            y = origin + line.y()
            if y >= top and y + line.height() <= bottom:
                count += 1
        block = block.next()
    return count


def _centred(window: Any, verse: int) -> bool:
    """Whether ``verse`` is highlighted and its first line sits near the middle of the reader's view."""
    pane = window.reader
    lines = pane.highlighted
    y = pane.verse_rect_y(verse)
    height = pane.text.viewport().height()
    return lines is not None and lines[0] == verse and y is not None and abs(y - height // 2) < height // 6


def test_go_to_a_verse_scrolls_it_into_the_middle(harness, qtbot, long_db: Path) -> None:
    window = harness.open(db=long_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:1")
    window.resize(1000, 650)
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 1))
    window.reader.goto_edit.setText("John 3:30")
    window.reader.goto_edit.returnPressed.emit()
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("john", 3))
    wait_for(qtbot, lambda: _centred(window, 30))
    assert window.reader.text.verticalScrollBar().value() > 0
    assert window.reader.book_combo.currentData() == "john" and window.reader.chapter_spin.value() == 3
    # "open in reader" on a result: another chapter, then a verse of the chapter already on screen
    window.open_passage("romans", 9, 25, 27)
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 9))
    wait_for(qtbot, lambda: _centred(window, 25))
    assert window.reader.highlighted == (25, 27)
    window.open_passage("romans", 9, 20, 20)
    wait_for(qtbot, lambda: _centred(window, 20))
    # a chapter without verses in focus clears the highlight
    window.session.step_chapter(1)
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 10))
    assert window.reader.highlighted is None


@pytest.mark.parametrize("typed", ["John 3 16", "jn3:16", "jn 3 16"])
def test_go_to_reads_references_as_readers_type_them(harness, qtbot, small_db: Path, typed: str) -> None:
    """#21.7: "John 3 16" opened John 16."""
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("romans", 9))
    window.reader.goto_edit.setText(typed)
    window.reader.goto_edit.returnPressed.emit()
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("john", 3))
    assert not window.reader.goto_error.isVisibleTo(window)


@pytest.mark.parametrize(
    ("typed", "words"),
    [("Gal 2", "no text of Galatians"), ("John 30", "John has 21 chapters"), ("Hezekiah 4", "Hezekiah"),
     ("John 3 16 17", "not a reference"), ("Gen 3:11-1Jn 9", "not a reference"), ("rom 0", "cannot be")],
)
def test_go_to_nowhere_says_why_and_changes_nothing(harness, qtbot, small_db: Path, typed: str, words: str) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="john:3")
    wait_for(qtbot, lambda: window.session.reader.loaded_chapter == ChapterRef("john", 3))
    window.reader.goto_edit.setText(typed)
    window.reader.goto_edit.returnPressed.emit()
    assert window.reader.goto_error.isVisibleTo(window)
    assert words in window.reader.goto_error.text()
    # readable: the message's colour stands out from the window behind it
    from PySide6.QtGui import QPalette

    label = window.reader.goto_error
    fg, bg = label.palette().color(QPalette.ColorRole.WindowText), label.palette().color(QPalette.ColorRole.Window)
    assert abs(fg.lightness() - bg.lightness()) > 60
    assert window.session.reader.chapter == ChapterRef("john", 3)
    assert window.session.context("q").chapter == ChapterRef("john", 3)
    assert window.reader.book_combo.currentData() == "john" and window.reader.chapter_spin.value() == 3
    assert window.reader.goto_edit.text() == typed  # kept, to be corrected


def test_result_rows_have_titles_and_the_passage_shows_the_bible_text(harness, qtbot, small_db: Path) -> None:
    """Each row has a title and display names; the passage pane puts the verses' text under the note."""
    from tests.support.scripted_proxy import ScriptedProxy

    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
        window.ask.edit.setText("election")
        window.ask.askRequested.emit("election")
        wait_for(qtbot, lambda: window.session.question.view is not None, timeout=15)
        model = window.results.results_model
        titles = [model.index(r, model.TITLE).data() for r in range(model.rowCount())]
        assert all(t and t != "—" for t in titles)
        scholars = {model.index(r, model.SCHOLAR).data() for r in range(model.rowCount())}
        assert not scholars & {"matthew-henry", "scofield", "spurgeon"}  # display names, not ids
        assert scholars & {"Matthew Henry", "C. I. Scofield", "Charles Spurgeon", "C. H. Spurgeon", "—"}
        first = model.chunk(0)
        assert first is not None
        meta = first.candidate.metadata
        wait_for(qtbot, lambda: window.results.passage.verses is not None)
        shown = window.results.passage.verses
        assert shown is not None and [n for n, _t in shown.verses] == list(
            range(meta.verse_start, min(meta.verse_end or meta.verse_start, 12) + 1))
        text = window.results.passage.view.toPlainText()
        assert titles[0] in text and "Bible text" in text
        assert f"This is verse {meta.verse_start} of {meta.book_id.title()} {meta.chapter_num}" in text


def _ask(window: Any, qtbot: Any, text: str = "election") -> None:
    wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
    window.ask.edit.setText(text)
    window.ask.askRequested.emit(text)
    wait_for(qtbot, lambda: window.session.question.view is not None, timeout=15)
    wait_for(qtbot, lambda: window.results.breakdown.chart.isVisibleTo(window))


def _inside(widget: Any, window: Any) -> bool:
    """Whether ``widget`` lies wholly inside each of its ancestors up to ``window``."""
    from PySide6.QtCore import QPoint, QRect

    child, parent = widget, widget.parentWidget()
    while parent is not None and child is not window:
        top_left = child.mapTo(parent, QPoint(0, 0))
        if not parent.rect().contains(QRect(top_left, child.size())):
            return False
        child, parent = parent, parent.parentWidget()
    return True


@pytest.mark.parametrize("size", [(1000, 650), (1920, 1080)])
def test_layout_holds_at_laptop_and_full_hd_sizes(harness, qtbot, small_db: Path, tmp_path: Path,
                                                 size: tuple[int, int]) -> None:
    from tests.support.scripted_proxy import ScriptedProxy

    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        window.resize(*size)
        _ask(window, qtbot)
        window.session.set_chapter(ChapterRef("john", 3))  # a re-rank: its note and the Move column show
        wait_for(qtbot, lambda: window.results.note.isVisible())
        qtbot.wait(100)  # the detail panes are laid out a turn after the table
        shot = window.grab()
        assert shot.save(str(tmp_path / f"layout-{size[0]}x{size[1]}.png"))
        assert (shot.width(), shot.height()) == size
        reader, results, breakdown = window.reader, window.results, window.results.breakdown
        # the text gets the room: the study drawer is closed, its tabs under the text
        assert visible_lines(reader) >= min(15, visible_lines(reader, everywhere=True)) >= 9, visible_lines(reader)
        assert window.drawer.tabs.isVisible() and not window.commentary.isVisible()
        window.actions_by_id["commentary"].trigger()  # the commentary opens under the text
        wait_for(qtbot, window.commentary.list.isVisible)
        qtbot.wait(50)
        assert visible_lines(reader) >= 5
        controls = [reader.book_combo, reader.chapter_spin, reader.prev_button, reader.next_button,
                    reader.back_button, reader.forward_button,
                    reader.goto_edit, reader.text, window.ask.edit, window.ask.button, results.results_view,
                    results.passage.view, breakdown.scroll_area, window.commentary.list, window.commentary.text]
        for w in controls:
            assert w.isVisible(), w.accessibleName()
            assert _inside(w, window), f"{w.accessibleName() or w!r} is clipped by its parent"
            hint = w.minimumSizeHint()
            assert w.width() >= hint.width() and w.height() >= min(hint.height(), 20), w.accessibleName()
        assert reader.width() >= 320
        assert reader.goto_edit.width() >= 200
        table = results.results_view
        assert not table.horizontalScrollBar().isVisible()
        assert not window.commentary.list.horizontalScrollBar().isVisible()
        assert table.viewport().height() // table.verticalHeader().defaultSectionSize() >= 6
        assert table.columnWidth(results.results_model.TITLE) >= 200
        # the chart's rows and numbers fit, and the words start below its last row
        chart, words = breakdown.chart, breakdown.words
        assert chart.width() >= chart.minimumSizeHint().width()
        assert chart.height() >= chart.minimumSizeHint().height()
        assert chart.geometry().bottom() < words.geometry().top()


def test_focus_starts_in_the_question_box_and_why_this_rank_is_reachable_by_tab(harness, qtbot,
                                                                              small_db: Path) -> None:
    from PySide6.QtCore import Qt

    from tests.support.scripted_proxy import ScriptedProxy

    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        # the proxy is still being checked: the go-to box holds focus, then the question box takes it
        wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
        wait_for(qtbot, lambda: window.focusWidget() is window.ask.edit)
        _ask(window, qtbot)
        window.results.results_view.setFocus(Qt.FocusReason.OtherFocusReason)
        reached = []
        for _ in range(40):  # Tab through the window until "Why this rank" has focus
            window.focusNextChild()
            qtbot.wait(1)
            reached.append(window.focusWidget())
            if window.focusWidget() is window.results.breakdown.scroll_area:
                break
        assert window.focusWidget() is window.results.breakdown.scroll_area, [w.accessibleName() for w in reached]
        assert window.results.breakdown.scroll_area.accessibleName() == "Why this rank"
        window.actions_by_id["focus_ask"].trigger()
        window.actions_by_id["focus_breakdown"].trigger()
        assert window.focusWidget() is window.results.breakdown.scroll_area


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_focus_ring_is_drawn_in_both_schemes(harness, qtbot, small_db: Path, scheme: str,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The focused control's border is painted in the ring colour; the unfocused one's is not."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from amicus_desktop.ui import theme

    monkeypatch.delenv(theme.SCHEME_ENV, raising=False)
    app = QApplication.instance()
    original = QPalette(app.palette())
    try:
        window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
        wait_for(qtbot, lambda: window.session.reader.loaded_chapter is not None)
        window.session.prefs.set_color_scheme(scheme)
        assert theme.is_dark(app.palette()) == (scheme == "dark")
        ring = theme.focus_ring_color(app.palette())
        for widget in (window.reader.goto_edit, window.reader.book_combo, window.reader.next_button):
            window.reader.text.setFocus(Qt.FocusReason.OtherFocusReason)  # the question box is disabled offline
            qtbot.wait(10)
            assert not widget.hasFocus()
            before = widget.grab().toImage()
            widget.setFocus(Qt.FocusReason.TabFocusReason)
            qtbot.wait(10)
            after = widget.grab().toImage()
            y = after.height() // 2

            def near_ring(img, x, y=y) -> bool:
                c = img.pixelColor(x, y)
                return abs(c.red() - ring.red()) + abs(c.green() - ring.green()) + abs(c.blue() - ring.blue()) < 60

            assert any(near_ring(after, x) for x in range(3)), f"{widget.accessibleName()}: no ring when focused"
            assert not any(near_ring(before, x) for x in range(3)), f"{widget.accessibleName()}: ring without focus"
    finally:
        app.setPalette(original)
        app.setStyleSheet("")


def test_font_size_keys_and_the_scheme_switch_are_saved(harness, qtbot, small_db: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from amicus_desktop.settings import SettingsStore
    from amicus_desktop.ui import theme

    monkeypatch.delenv(theme.SCHEME_ENV, raising=False)
    app = QApplication.instance()
    original = QPalette(app.palette())
    try:
        window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
        wait_for(qtbot, lambda: window.session.reader.loaded_chapter is not None)
        start = window.reader.text.font().pointSizeF()
        window.actions_by_id["zoom_in"].trigger()
        window.actions_by_id["zoom_in"].trigger()
        assert window.reader.text.font().pointSizeF() == round(start) + 2
        assert window.results.passage.view.font().pointSizeF() == pytest.approx((round(start) + 2) * 0.9)
        assert window.commentary.text.font().pointSizeF() == pytest.approx((round(start) + 2) * 0.9)
        window.actions_by_id["zoom_out"].trigger()
        assert SettingsStore().load().font_size == round(start) + 1
        window.actions_by_id["zoom_reset"].trigger()
        assert window.reader.text.font().pointSizeF() == start and SettingsStore().load().font_size is None
        # View > Colour scheme: dark, then back to light; saved, and the menu shows the choice
        window.actions_by_id["zoom_in"].trigger()
        window.menus.scheme_actions["dark"].trigger()
        assert theme.is_dark(app.palette()) and SettingsStore().load().color_scheme == "dark"
        # a new style sheet resets widget fonts: the reading size survives the scheme change
        assert window.reader.text.font().pointSizeF() == round(start) + 1
        assert window.menus.scheme_actions["dark"].isChecked() and not window.menus.scheme_actions["system"].isChecked()
        window.menus.scheme_actions["light"].trigger()
        assert not theme.is_dark(app.palette()) and SettingsStore().load().color_scheme == "light"
    finally:
        app.setPalette(original)
        app.setStyleSheet("")


def test_commentary_pane_follows_the_chapter_and_opens_a_note_in_the_reader(harness, qtbot, qtmodeltester,
                                                                           small_db: Path) -> None:
    """Offline (nothing listens on the proxy URL): the notes of the chapter on screen are listed by
    verse with their titles; Enter on one opens its verses in the reader."""
    from PySide6.QtCore import Qt

    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}", chapter="romans:9")
    wait_for(qtbot, lambda: window.commentary.model.rowCount() > 0)
    pane = window.commentary
    qtmodeltester.check(pane.model, force_py=True)
    assert pane.heading.text().startswith("Commentary on Romans 9")
    notes = window.session.commentary.notes
    assert notes is not None and pane.model.rowCount() == len(notes.chunks)
    first = pane.model.index(0, 0).data()
    assert " · " in first and first.split(" · ", 1)[1]  # "v. 1–5 · <title>"
    assert "Romans 9" in pane.text.toPlainText() or pane.text.toPlainText().strip()
    verse_rows = [r for r in range(pane.model.rowCount()) if pane.model.chunk(r).metadata.verse_start]
    assert verse_rows
    row = verse_rows[-1]
    note = pane.model.chunk(row)
    pane.list.setCurrentIndex(pane.model.index(row, 0))
    pane.list.setFocus(Qt.FocusReason.OtherFocusReason)
    qtbot.keyClick(pane.list, Qt.Key.Key_Return)
    assert window.session.reader.focus is not None
    assert window.session.reader.focus.verse_start == note.metadata.verse_start
    qtbot.wait(200)  # the chapter is read again: the note opened stays selected
    assert pane.current is not None and pane.current.chunk_id == note.chunk_id
    # another chapter: the pane follows
    window.actions_by_id["next_chapter"].trigger()
    wait_for(qtbot, lambda: pane.heading.text().startswith("Commentary on Romans 10"))
    # Ctrl+Shift+N shows and hides it under the text
    closed = window.drawer.current is not pane
    window.actions_by_id["commentary"].trigger()
    assert (window.drawer.current is pane) is closed
    window.actions_by_id["commentary"].trigger()
    assert (window.drawer.current is pane) is not closed


def test_two_selected_results_are_compared_side_by_side(harness, qtbot, small_db: Path) -> None:
    from PySide6.QtCore import QItemSelectionModel

    from tests.support.scripted_proxy import ScriptedProxy

    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        _ask(window, qtbot)
        results = window.results
        assert results.detail_stack.currentWidget() is results.detail_split
        # from the keyboard: Ctrl+D compares the current result (#1) with the next
        window.actions_by_id["compare"].trigger()
        assert results.detail_stack.currentWidget() is results.compare
        first, second = results.compare.pair
        assert (first.rank, second.rank) == (1, 2)
        assert results.compare.heading.text() == "Why #1 beat #2"
        summary = results.compare.summary.text()
        assert f"beat #2 ({second.score:.4f})" in summary
        assert results.compare.left.words.text() and results.compare.right.words.text()
        assert results.compare.left.subtitle.text().startswith("#1 of")
        assert results.compare.right.subtitle.text().startswith("#2 of")
        # Ctrl+D again: back to one result
        window.actions_by_id["compare"].trigger()
        assert results.detail_stack.currentWidget() is results.detail_split
        # Ctrl+click-like: add rank 4 to the selection
        sel = results.results_view.selectionModel()
        sel.select(results.results_proxy.index(3, 0),
                   QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows)
        assert results.detail_stack.currentWidget() is results.compare
        assert [r.rank for r in results.compare.pair] == [1, 4]


def test_settings_dialog_shows_the_values_in_use_and_where_they_come_from(
        qtbot, aloop, small_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from amicus_desktop.config import PROXY_URL_ENV, TOKEN_ENV
    from amicus_desktop.session import Overrides, Preferences
    from amicus_desktop.settings import Settings, SettingsStore
    from amicus_desktop.ui.settings_dialog import SettingsDialog

    store = SettingsStore()
    store.save(Settings(db_path=str(tmp_path / "saved.db"), proxy_url="http://127.0.0.1:9001", token="saved-secret"))
    monkeypatch.setenv(PROXY_URL_ENV, "http://127.0.0.1:9002")
    monkeypatch.delenv(TOKEN_ENV, raising=False)
    prefs = Preferences(store, Overrides.from_env(db=str(small_db)))
    in_use = prefs.in_use()
    assert (in_use.db_path.value, in_use.db_path.source) == (small_db, "flag")
    assert (in_use.proxy_url.value, in_use.proxy_url.source) == ("http://127.0.0.1:9002", "environment")
    assert in_use.token.source == "settings"
    assert prefs.endpoints.db_path == in_use.db_path.value and prefs.endpoints.proxy_url == in_use.proxy_url.value
    dialog = SettingsDialog(prefs.settings, in_use=in_use)
    qtbot.addWidget(dialog)
    assert dialog.db_edit.text() == str(tmp_path / "saved.db")  # the field edits the saved value
    db_note = dialog.source_labels["db_path"].text()
    assert str(small_db) in db_note and "--db" in db_note and "this run only" in db_note
    proxy_note = dialog.source_labels["proxy_url"].text()
    assert "http://127.0.0.1:9002" in proxy_note and PROXY_URL_ENV in proxy_note
    token_note = dialog.source_labels["token"].text()
    assert "from your settings" in token_note and "saved-secret" not in token_note
    # nothing overridden: each value says it is the saved one or the default
    plain = Preferences(SettingsStore(), Overrides()).in_use()
    monkeypatch.delenv(PROXY_URL_ENV)
    assert plain.db_path.source == "settings" and plain.token.source == "settings"


def test_only_a_chunk_that_names_verses_asks_for_bible_text() -> None:
    """A note on a whole chapter would bring the whole chapter under it: the reader shows that."""
    from amicus_desktop.core.references import PassageRef
    from amicus_desktop.core.results import Candidate, ChunkMetadata
    from amicus_desktop.ui.passage import candidate_passage

    def chunk(**meta: Any) -> Candidate:
        return Candidate(1, "c", "section_panel", "s", "text", ChunkMetadata(**meta), distance=0.1)

    assert candidate_passage(chunk(book_id="romans", chapter_num=9, verse_start=6, verse_end=13)) == PassageRef(
        "romans", 9, 6, 13)
    assert candidate_passage(chunk(book_id="romans", chapter_num=9, verse_start=6)) == PassageRef("romans", 9, 6, 6)
    assert candidate_passage(chunk(book_id="romans", chapter_num=9)) is None
    assert candidate_passage(chunk(book_id="romans")) is None


def test_opening_a_result_never_reranks_and_a_move_is_undone_by_one_key(harness, qtbot, small_db: Path) -> None:
    """Enter on a result in another chapter opens it in the reader and leaves the list alone; going to a
    chapter on purpose re-ranks, says so with the key that undoes it, and that key brings the list back."""
    from PySide6.QtCore import Qt

    from amicus_desktop.ui.passage import parse_passage_url
    from tests.support.scripted_proxy import ScriptedProxy

    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="romans:9")
        _ask(window, qtbot, "grace")
        view = window.session.question.view
        before = [(r.chunk_id, r.rank) for r in view.result.results]
        model = window.results.results_model
        # a result on another chapter than the open one
        row = next(i for i in range(model.rowCount())
                   if (c := model.chunk(i)) is not None and c.candidate.metadata.book_id
                   and c.candidate.metadata.chapter_num is not None
                   and ChapterRef(c.candidate.metadata.book_id, c.candidate.metadata.chapter_num)
                   != ChapterRef("romans", 9))
        target = model.chunk(row).candidate.metadata
        table = window.results.results_view
        table.setFocus()
        table.setCurrentIndex(window.results.results_proxy.mapFromSource(model.index(row, 0)))
        passage = window.results.passage  # shown on the next turn of the loop
        wait_for(qtbot, lambda: passage.link is not None
                 and parse_passage_url(passage.link)[:2] == (target.book_id, target.chapter_num))
        qtbot.keyClick(table, Qt.Key.Key_Return)
        wait_for(qtbot, lambda: window.session.reader.chapter == ChapterRef(target.book_id, target.chapter_num))
        assert window.session.question.view is view  # the very same answer on screen
        assert "ranked for Romans 9" in window.results.title.text()  # what it is ranked for, though the reader moved
        assert [(model.chunk(i).chunk_id, model.chunk(i).rank) for i in range(model.rowCount())] == before
        assert not window.results.note.isVisibleTo(window)
        # a deliberate move: re-ranked for John 1, visibly, with the key that undoes it
        window.goto_reference("John 1")
        wait_for(qtbot, lambda: window.session.question.view.cause == "chapter")
        assert "Re-ranked for John 1" in window.results.note.text() and "undoes it" in window.results.note.text()
        window.results.results_view.setFocus()
        qtbot.keyClick(window.results.results_view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
        wait_for(qtbot, lambda: window.session.question.view.result.results == view.result.results)
        assert window.session.question.ranked_for == ChapterRef("romans", 9)
