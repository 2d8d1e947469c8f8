"""The overlay in the window (CONTRACT section 12): the profile dock edits it — forbidden sources by display
name, boosted and suppressed words, import and export of a file — the breakdown shows its factor, and "Why not
this one" on a forbidden chunk says which rule removed it. The sample library (real vectors), keyword search (no
proxy), real widgets offscreen."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QMessageBox

from amicus_desktop.core.query import Profile, SearchMode
from amicus_desktop.overlays import read_overlay
from amicus_desktop.resources import resource_path
from amicus_desktop.ui.results.models import ChunkRole
from tests.support.proxy import free_port

from .conftest import wait_for
from .test_search_ui import ask_in_window

COVENANT = "What does the new covenant promise?"
SAMPLE = resource_path("overlays", "sample-pastor.json")


def open_window(harness: Any, qtbot: Any, sample_db: Path) -> Any:
    window = harness.open(db=sample_db, proxy=f"http://127.0.0.1:{free_port()}")
    s = window.session
    wait_for(qtbot, lambda: s.library.ready)
    s.set_mode(SearchMode.KEYWORD)
    wait_for(qtbot, lambda: s.can_ask)
    window.profile_dock.toggle()
    wait_for(qtbot, lambda: window.profile_dock.panel.scholars.count() == 2)
    return window


def select(view: Any, proxy: Any, chunk_id: str) -> None:
    for row in range(proxy.rowCount()):
        index = proxy.index(row, 0)
        if index.data(ChunkRole).chunk_id == chunk_id:
            view.selectionModel().setCurrentIndex(
                index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
            return
    raise KeyError(chunk_id)


def test_forbid_a_source_and_why_not_says_which_rule_removed_it(harness: Any, qtbot: Any, sample_db: Path) -> None:
    window = open_window(harness, qtbot, sample_db)
    panel = window.profile_dock.panel
    assert panel.overlay_label.text().startswith("No overlay")  # no_overlay
    assert not panel.remove_button.isEnabled()
    ask_in_window(window, qtbot, COVENANT)
    assert "sample:word:covenant" in [r.chunk_id for r in window.session.question.view.result.results]

    panel.tabs.setCurrentWidget(panel.forbidden)
    scholars = [panel.forbidden.scholars.item(i).text() for i in range(panel.forbidden.scholars.count())]
    assert scholars == ["Example Pastor (sample author)   (7 chunks)", "Example Teacher (sample author)   (6 chunks)"]
    kinds = [panel.forbidden.kinds.item(i).text() for i in range(panel.forbidden.kinds.count())]
    assert "Word study   (2 chunks)" in kinds and not any("(0 chunks)" in k for k in kinds)  # only kinds it holds
    preferred = [panel.scholars.item(i).text() for i in range(panel.scholars.count())]
    assert preferred[0].startswith("Example Pastor (sample author)") and "example-pastor" not in " ".join(preferred)
    panel.forbidden.check("kind", "word_study")

    overlay = window.session.prefs.overlay
    assert overlay is not None and overlay.forbidden_source_types == ("word_study",)
    assert panel.overlay_label.text() == "Overlay “my-overlay”: 1 forbidden source, 0 weighed words."
    assert "overlay my-overlay" in window.ask.profile_button.text()
    view = window.session.question.view
    assert view.cause == "overlay" and "sample:word:covenant" not in [r.chunk_id for r in view.result.results]

    results = window.results
    results.tabs.setCurrentIndex(1)
    wait_for(qtbot, lambda: results.rejected_proxy.rowCount() > 0)
    model = results.rejected_model
    reasons = {model.item(r).chunk_id: model.index(r, model.REASON).data() for r in range(model.rowCount())}
    assert reasons["sample:word:covenant"] == ("forbidden by the overlay 'my-overlay': word study is one of its "
                                               "forbidden kinds of source")
    select(results.rejected_view, results.rejected_proxy, "sample:word:covenant")
    wait_for(qtbot, lambda: results.breakdown.title.text() == "Why not this one")
    words = results.breakdown.words.text()
    assert "Not shown: forbidden by the overlay 'my-overlay'" in words and "Final score" in words

    # a forbidden scholar, by display name; the reason names them as the library does
    panel.forbidden.check("scholar", "example-teacher")
    wait_for(qtbot, lambda: results.rejected_proxy.rowCount() > 0)
    model = results.rejected_model
    reasons = {model.item(r).chunk_id: model.index(r, model.REASON).data() for r in range(model.rowCount())}
    assert reasons["sample:jeremiah:31"] == ("forbidden by the overlay 'my-overlay': Example Teacher (sample author) "
                                             "is one of its forbidden scholars")

    qtbot.mouseClick(panel.remove_button, Qt.MouseButton.LeftButton)
    assert window.session.prefs.overlay is None and panel.overlay_label.text().startswith("No overlay")
    assert all(panel.forbidden.kinds.item(i).checkState() == Qt.CheckState.Unchecked
               for i in range(panel.forbidden.kinds.count()))


def test_a_boosted_word_is_searched_for_and_the_breakdown_says_why(harness: Any, qtbot: Any, sample_db: Path) -> None:
    window = open_window(harness, qtbot, sample_db)
    panel = window.profile_dock.panel
    ask_in_window(window, qtbot, COVENANT)
    panel.tabs.setCurrentWidget(panel.vocabulary)
    before = window.session.question.view
    panel.vocabulary.boost.field.setText("  mercy ")
    qtbot.keyClick(panel.vocabulary.boost.field, Qt.Key.Key_Return)
    wait_for(qtbot, lambda: window.session.question.view is not before and not window.session.question.busy)
    assert panel.vocabulary.boost.values() == ("mercy",)
    view = window.session.question.view
    assert "mercy" in view.result.trace.keywords  # asked again: the word joined the keyword search
    results = window.results
    select(results.results_view, results.results_proxy, "sample:romans:9:16")
    wait_for(qtbot, lambda: "Romans 9:16" in results.breakdown.subtitle.text())
    assert "×1.1 vocabulary: it holds “mercy”, a word the overlay 'my-overlay' boosts" in results.breakdown.words.text()
    boosts = results.results_model.index(results.results_model.row_of("sample:romans:9:16"),
                                         results.results_model.BOOSTS).data()
    assert "×1.1 vocabulary" in boosts

    panel.vocabulary.suppress.field.setText("mercy")
    qtbot.mouseClick(panel.vocabulary.suppress.add_button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, lambda: not window.session.question.busy)
    nine = next(r for r in window.session.question.view.result.results if r.chunk_id == "sample:romans:9:16")
    assert nine.breakdown.vocabulary_boost < 1.0  # suppressing wins
    panel.vocabulary.boost.terms.item(0).setSelected(True)
    qtbot.mouseClick(panel.vocabulary.boost.remove_button, Qt.MouseButton.LeftButton)
    assert window.session.prefs.overlay.boost_terms == () and window.session.prefs.overlay.suppress_terms == ("mercy",)


def test_import_and_export_an_overlay_file(harness: Any, qtbot: Any, sample_db: Path, tmp_path: Path) -> None:
    window = open_window(harness, qtbot, sample_db)
    dock, panel = window.profile_dock, window.profile_dock.panel
    qtbot.mouseClick(panel.import_button, Qt.MouseButton.LeftButton)
    assert dock.dialog is not None and dock.dialog.isVisible()
    dock.dialog.selectFile(str(SAMPLE))
    dock.dialog.accept()
    wait_for(qtbot, lambda: window.session.prefs.overlay is not None)
    assert window.session.prefs.profile == Profile.of(["example-pastor"], ["reformed"])
    assert panel.overlay_label.text() == "Overlay “sample-pastor”: 2 forbidden sources, 4 weighed words."
    assert panel.vocabulary.boost.values() == ("covenant", "promise", "promises")
    assert panel.vocabulary.boost.heading.text() == "Boosted words (×1.2)"  # the overlay's weight
    assert window.status_bar.currentMessage() == "Overlay “sample-pastor” in use, from sample-pastor.json."
    kinds = [panel.forbidden.kinds.item(i) for i in range(panel.forbidden.kinds.count())]
    checked = [k.data(Qt.ItemDataRole.UserRole) for k in kinds if k.checkState() == Qt.CheckState.Checked]
    assert checked == ["word_study", "cross_ref_thread_note"]
    ask_in_window(window, qtbot, COVENANT)
    assert window.session.question.view.result.trace.overlay == "sample-pastor"

    out = tmp_path / "mine.json"
    dock.export_to(out)
    wait_for(qtbot, out.exists)
    assert read_overlay(out) == read_overlay(SAMPLE)  # the whole overlay again, preferences included
    refused = tmp_path / "library.db"
    dock.export_to(refused)
    wait_for(qtbot, lambda: window.findChild(QMessageBox, "overlayFailed") is not None)
    assert not refused.exists()

    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"role_id": "r", "retrieval_policy": {"k": 99}}))
    window.findChild(QMessageBox, "overlayFailed").close()
    wait_for(qtbot, lambda: window.findChild(QMessageBox, "overlayFailed") is None)
    dock.import_from(bad)
    wait_for(qtbot, lambda: window.findChild(QMessageBox, "overlayFailed") is not None)
    box = window.findChild(QMessageBox, "overlayFailed")
    assert "bad.json is not a valid overlay: /retrieval_policy/k: must be at most 50, not 99" in box.text()
    assert window.session.prefs.overlay.role_id == "sample-pastor"  # the one in use stays


def test_the_overlay_is_the_workspace_s_and_none_of_it_shows_in_another(harness: Any, qtbot: Any,
                                                                        sample_db: Path) -> None:
    window = open_window(harness, qtbot, sample_db)
    s, panel = window.session, window.profile_dock.panel
    window.profile_dock.import_from(SAMPLE)
    wait_for(qtbot, lambda: s.prefs.overlay is not None)
    ask_in_window(window, qtbot, COVENANT)
    assert any(r.reason == "forbidden_source" for r in s.question.view.result.rejected)
    # a new workspace: no overlay, no profile, and the question asked again there without them
    window.menus.workspace_menu.new_workspace("Youth group")
    wait_for(qtbot, lambda: s.notebook.workspace_id == "youth-group" and s.question.view is not None
             and not s.question.busy)
    assert s.prefs.overlay is None and s.prefs.profile == Profile()
    assert panel.overlay_label.text().startswith("No overlay") and not panel.remove_button.isEnabled()
    assert panel.vocabulary.boost.values() == ()
    assert s.question.view.result.trace.overlay is None
    assert not any(r.reason == "forbidden_source" for r in s.question.view.result.rejected)
    # back: the workspace's overlay and profile again
    window.workspace_switcher.activated.emit(window.workspace_switcher.findData("personal"))
    wait_for(qtbot, lambda: s.notebook.workspace_id == "personal" and s.prefs.overlay is not None)
    assert panel.overlay_label.text() == "Overlay “sample-pastor”: 2 forbidden sources, 4 weighed words."
    assert s.prefs.profile == Profile.of(["example-pastor"], ["reformed"])
