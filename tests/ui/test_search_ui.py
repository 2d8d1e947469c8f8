"""The search controls in the window: the mode switch, the offline banner's keyword action, the mode
on the results header, reference chips, the filter bar and pins — on real sqlite-vec files, the
scripted proxy over real HTTP (or a closed port), and real widgets offscreen."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction

from amicus_desktop.connectivity import ProxyState
from amicus_desktop.core.query import Filters, SearchMode
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.present import states
from amicus_desktop.settings import SettingsStore
from amicus_desktop.ui import shortcuts
from amicus_desktop.ui.results.models import RejectedModel, ResultsModel
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import wait_for

WORDS = states.ACTION_LABELS[states.KEYWORD]


def ask_in_window(window, qtbot, text: str) -> None:
    before = window.session.question.view
    window.ask.edit.setText(text)
    qtbot.mouseClick(window.ask.button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: window.session.question.view is not before and not window.session.question.busy)


def rows(window) -> list[str]:
    proxy = window.results.results_proxy
    return [proxy.index(r, ResultsModel.RANK).data() for r in range(proxy.rowCount())]


def test_offline_banner_offers_words_and_the_switch_shows_it(harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}")
    s = window.session
    wait_for(qtbot, lambda: s.library.ready and s.connection.state.state is ProxyState.OFFLINE)
    assert window.ask.mode_switch.buttons[SearchMode.HYBRID].isChecked()
    assert not window.ask.edit.isEnabled() and not s.can_ask  # hybrid: the offline state as it always was
    button = window.banner.button(WORDS)
    assert button is not None and button.isVisible()

    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert s.search.mode is SearchMode.KEYWORD
    assert window.ask.mode_switch.buttons[SearchMode.KEYWORD].isChecked()
    assert window.menus.mode_actions[SearchMode.KEYWORD].isChecked()
    assert window.banner.isVisible() and window.banner.title.text().startswith("Searching by words only")
    assert window.banner.button(WORDS) is None
    assert window.ask.edit.isEnabled()

    ask_in_window(window, qtbot, "potter clay")
    assert "· Keyword search ·" in window.results.title.text()
    header = window.results.results_model.headerData(ResultsModel.SIMILARITY, Qt.Orientation.Horizontal)
    assert header == "Keyword score"
    assert s.connection.state.state is ProxyState.OFFLINE  # the answer did not pretend the proxy is back
    assert not window.results.stale_note.isVisible()

    window.actions_by_id["cycle_mode"].trigger()  # Ctrl+M: keyword → semantic
    assert window.ask.mode_switch.buttons[SearchMode.SEMANTIC].isChecked()
    assert not window.ask.edit.isEnabled()
    assert window.banner.button(WORDS) is not None
    assert SettingsStore().load().search_mode is SearchMode.SEMANTIC


def test_mode_switch_is_keyboard_reachable_and_asks_again(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="rom 9")
        s = window.session
        wait_for(qtbot, lambda: s.can_ask)
        ask_in_window(window, qtbot, "election and mercy")
        assert "· Hybrid search ·" in window.results.title.text()
        for mode, button in window.ask.mode_switch.buttons.items():
            assert button.focusPolicy() & Qt.FocusPolicy.TabFocus
            assert button.accessibleName() == f"Search mode: {mode.label}"
        first = s.question.view
        qtbot.mouseClick(window.ask.mode_switch.buttons[SearchMode.SEMANTIC], Qt.MouseButton.LeftButton)
        wait_for(qtbot, lambda: s.question.view is not first and not s.question.busy)
        assert "· Semantic search ·" in window.results.title.text()
        assert SettingsStore().load().search_mode is SearchMode.SEMANTIC
        titles = [sc.title for sc in shortcuts.SHORTCUTS]
        assert "Next search mode (semantic, hybrid, keyword)" in titles
        assert "Pin or unpin the selected result" in titles


def test_reference_chips_open_the_passage(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="john 1")
        s = window.session
        wait_for(qtbot, lambda: s.can_ask)
        assert not window.results.chips.isVisibleTo(window)
        ask_in_window(window, qtbot, "What does Rom 9:6-13 teach about Jacob?")
        chips = window.results.chips
        assert chips.isVisibleTo(window) and len(chips.chips) == 1
        chip = chips.chips[0]
        assert chip.text() == "Romans 9:6–13"
        assert chip.accessibleName() == "Open Romans 9:6–13 in the reader"
        qtbot.mouseClick(chip, Qt.MouseButton.LeftButton)
        assert s.reader.chapter == ChapterRef("romans", 9)
        ask_in_window(window, qtbot, "election and mercy")
        assert not chips.isVisibleTo(window)


def test_filter_bar_asks_again_shows_what_is_active_and_clears(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url)
        s = window.session
        wait_for(qtbot, lambda: s.can_ask)
        bar = window.filter_bar
        assert not bar.body.isVisible() and bar.toggle.text() == "▸ Filters"
        window.actions_by_id["filters"].trigger()
        assert bar.body.isVisible() and bar.toggle.text() == "▾ Filters"
        ask_in_window(window, qtbot, "election and mercy")

        def action(kind: str, label_start: str) -> QAction:
            return next(a for a in bar.menus[kind].actions() if a.text().startswith(label_start))

        scholar = action("scholars", "Spurgeon (")  # the display name, not the id
        before = s.question.view
        scholar.trigger()
        wait_for(qtbot, lambda: s.question.view is not before and not s.question.busy)
        assert s.search.filters == Filters.of(scholars=["spurgeon"])
        assert all(r.candidate.metadata.scholar_id == "spurgeon" for r in s.question.view.result.results)
        assert bar.toggle.text() == "▾ Filters (1)"
        assert bar.summary.text() == "Searching only: Spurgeon"

        testaments = [a.text() for a in bar.menus["books"].actions() if a.text().startswith("All of")]
        assert testaments == ["All of the New Testament"]  # only the testaments the database holds
        before = s.question.view
        action("books", "John").trigger()
        wait_for(qtbot, lambda: s.question.view is not before and not s.question.busy)
        assert s.search.filters.books == ("john",)
        assert not action("books", "All of the New Testament").isChecked()  # Romans is not chosen
        assert bar.toggle.text() == "▾ Filters (2)"
        assert all(r.candidate.metadata.book_id == "john" for r in s.question.view.result.results)

        before = s.question.view
        qtbot.mouseClick(bar.clear_button, Qt.MouseButton.LeftButton)
        wait_for(qtbot, lambda: s.question.view is not before and not s.question.busy)
        assert s.search.filters == Filters() and not bar.clear_button.isEnabled()
        assert bar.summary.text().startswith("No filters")


def test_pin_from_the_shortcut_comes_first_marked_and_unpins(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        window = harness.open(db=small_db, proxy=proxy.url, chapter="rom 9")
        s = window.session
        wait_for(qtbot, lambda: s.can_ask)
        ask_in_window(window, qtbot, "election and mercy")
        view = window.results.results_view
        view.selectRow(4)
        current = window.results.current_result()
        assert current is not None
        chosen = current.chunk_id
        menu = window.results.result_menu(current)  # the result's context menu: the pin scopes last, narrow first
        texts = [a.text() for a in menu.actions()]
        assert texts[-3:] == ["Pin for questions like “election and mercy”", "Pin for Romans 9 (while it is open)",
                              "Pin for every question"]

        before = s.question.view
        window.actions_by_id["toggle_pin"].trigger()  # Ctrl+B
        wait_for(qtbot, lambda: s.question.view is not before and not s.question.busy)
        assert rows(window)[0] == "1"
        model = window.results.results_model
        assert model.chunk(0).chunk_id == chosen and model.chunk(0).pinned
        assert model.index(0, ResultsModel.RANK).data(Qt.ItemDataRole.AccessibleTextRole) == "Pinned, rank 1"
        assert model.index(0, ResultsModel.MOVE).data() == "Pinned: like this"  # Ctrl+B: the narrow default
        assert "Pinned for questions like “election and mercy”" in model.index(0, ResultsModel.MOVE).data(
            Qt.ItemDataRole.ToolTipRole)
        assert not model.index(1, ResultsModel.MOVE).data().startswith("Pinned")
        assert not window.results.results_view.isColumnHidden(ResultsModel.MOVE)  # ranks moved: shown
        assert window.menus.pins_menu.title() == "Pins (1)"
        assert window.results.result_menu(model.chunk(0)).actions()[-1].text() == "Unpin this result"
        window.menus.fill_pins_menu()
        labels = [a.text() for a in window.menus.pins_menu.actions() if a.text()]
        reference = s.library.names.reference(model.chunk(0).candidate.metadata)
        assert labels[0].startswith(f"Unpin {reference} (") and labels[-1] == "Unpin all"
        assert labels[0].endswith("(pinned for questions like “election and mercy”)")

        before = s.question.view
        next(a for a in window.results.result_menu(model.chunk(0)).actions()
             if a.text().startswith("Pin for Romans 9")).trigger()  # another scope: the open chapter
        wait_for(qtbot, lambda: s.question.view is not before and not s.question.busy)
        assert model.index(0, ResultsModel.MOVE).data() == "Pinned for Romans 9"
        window.menus.fill_pins_menu()
        assert window.menus.pins_menu.actions()[0].text().endswith("(pinned for Romans 9)")

        before = s.question.view
        window.menus.pins_menu.actions()[-1].trigger()  # Unpin all
        wait_for(qtbot, lambda: s.question.view is not before and not s.question.busy)
        assert not any(r.pinned for r in s.question.view.result.results)
        assert window.menus.pins_menu.title() == "Pins (0)" and SettingsStore().load().pins == ()


def test_keyword_results_pass_the_modeltester(qtmodeltester, harness, qtbot, small_db: Path) -> None:
    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}")
    s = window.session
    wait_for(qtbot, lambda: s.library.ready)
    s.set_mode(SearchMode.KEYWORD)
    s.search.set_pins(("romans-9-spurgeon-0-0",))
    ask_in_window(window, qtbot, "potter clay")
    model = ResultsModel(lambda: s.library.names)  # the window's model dies with the window, before the tester
    model.set_view(s.question.view)
    assert model.rowCount() > 1 and model.chunk(0).pinned
    qtmodeltester.check(model, force_py=True)
    rejected = RejectedModel(lambda: s.library.names)
    rejected.set_view(s.question.view)
    qtmodeltester.check(rejected, force_py=True)
    # The breakdown reads in keyword mode too: no similarity, the keyword score is the base.
    wait_for(qtbot, lambda: "Keyword score" in window.results.breakdown.words.text())
    assert "Cosine distance" not in window.results.breakdown.words.text()


def test_a_wrong_model_disables_only_the_embedding_modes(harness, qtbot, small_db: Path) -> None:
    with ScriptedProxy(dims=8, model="some-other-model") as proxy:
        window = harness.open(db=small_db, proxy=proxy.url)
        s = window.session
        wait_for(qtbot, lambda: s.library.ready and s.connection.state.state is ProxyState.MISMATCH)
        assert window.banner.title.text().startswith("Search is disabled") and not s.can_ask
        s.set_mode(SearchMode.KEYWORD)
        assert window.banner.title.text().startswith("Semantic and hybrid search are disabled")
        assert s.can_ask and window.ask.edit.isEnabled()
        ask_in_window(window, qtbot, "potter clay")
        assert s.question.view is not None and s.question.view.result.mode is SearchMode.KEYWORD
        assert s.connection.state.state is ProxyState.MISMATCH  # a keyword answer does not clear it


def test_many_references_warnings_and_pins_are_bounded_and_the_window_keeps_its_size(
    harness, qtbot, small_db: Path
) -> None:
    """#20.13: every chip and warning grew the window (366 references: 31,365 × 7,918 px), and 10,000
    pins kept ``--screenshot`` busy for minutes."""
    from amicus_desktop.present import bounds
    from amicus_desktop.ui.main_window import DEFAULT_SIZE

    window = harness.open(db=small_db, proxy=f"http://127.0.0.1:{free_port()}")
    s = window.session
    wait_for(qtbot, lambda: s.library.ready)
    size = window.size()
    assert (size.width(), size.height()) == DEFAULT_SIZE
    s.set_mode(SearchMode.KEYWORD)
    # 50 asked for from John's 49 chunks: the ranking has a warning of its own (few_results)
    s.apply_settings(s.prefs.settings.replace(k=50, candidates=50))
    s.search.set_filters(Filters.of(books=["john"]))
    s.search.set_pins(tuple(f"missing-{i}" for i in range(10_000)))
    question = "grace in " + ", ".join(f"Genesis {c}" for c in range(1, 51)) + " " + "x" * 200
    ask_in_window(window, qtbot, question)
    result = s.question.view.result
    assert len(result.trace.references) == 24 and len(result.warnings) > 10_000  # the bundle keeps them all
    chips = window.results.chips
    assert len(chips.chips) == bounds.MAX_CHIPS and chips.more.text() == "and 18 more"
    strip = window.results.warnings
    assert len(strip.rows) == bounds.MAX_WARNING_ROWS - 1 and strip.more.isVisible()
    assert "10,000 Pinned chunk missing" in strip.more.text()
    # the single warnings come before the long lists: that Genesis has no study material here, then the ranking's
    assert [r.warning.code.value for r in strip.rows[:2]] == ["books_not_searchable", "few_results"]
    window.menus.fill_pins_menu()
    labels = [a.text() for a in window.menus.pins_menu.actions() if a.text()]
    assert len(labels) == bounds.MAX_PIN_ITEMS + 2 and "and 9,975 more pins" in labels
    qtbot.wait(50)
    size = window.size()
    assert (size.width(), size.height()) == DEFAULT_SIZE
    assert window.minimumSizeHint().width() < DEFAULT_SIZE[0] and window.minimumSizeHint().height() < DEFAULT_SIZE[1]
