"""The retrieval bundle in the window: the warning strip (every code, produced by the real engine on a
real database), *How this was searched*, copying a result, its context menu, *Copy as Amicus
context*, *Export results…*, and the session's question history with the vector cache.

The database is the axis corpus of ``tests/support/corpora.py`` (vectors the test chooses); the
scripted proxy answers the chosen vector for a question over real HTTP.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QFileDialog, QMenu, QMessageBox

from amicus_desktop.context import WordPieceCounter, assemble
from amicus_desktop.core.query import Filters, SearchMode
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.core.results import RetrievedChunk, WarningCode
from amicus_desktop.present import citation
from amicus_desktop.present.export import ExportFormat, clip_text
from amicus_desktop.present.titles import citation as chunk_citation
from amicus_desktop.ui import shortcuts
from amicus_desktop.ui.bundle_views import WarningRow
from tests.support.corpora import DIMS, axis, corpus
from tests.support.dbs import BOOKS, build_db, unit, verses
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import Harness, wait_for

ORTHOGONAL = unit([0.0] * (DIMS - 1) + [1.0]).tolist()  # no chunk lies along the last axis


@pytest.fixture
def proxy() -> Iterator[ScriptedProxy]:
    with ScriptedProxy(dims=DIMS, model="test-model") as p:
        yield p


@pytest.fixture
def axis_db(tmp_path: Path) -> Path:
    return build_db(tmp_path / "scripture.db", corpus(), books=BOOKS, verses=verses())


def open_window(harness: Harness, qtbot: Any, db: Path, proxy: ScriptedProxy, **settings: Any) -> Any:
    window = harness.open(db=db, proxy=proxy.url, chapter="romans:9")
    wait_for(qtbot, lambda: window.session.can_ask, timeout=15)
    if settings:
        s = window.session
        s.apply_settings(s.prefs.settings.replace(**settings))
    return window


def ask(window: Any, qtbot: Any, text: str) -> Any:
    before = window.session.question.view
    window.ask.edit.setText(text)
    window.ask.button.click()
    wait_for(qtbot, lambda: window.session.question.view is not before and window.session.question.view is not None
             and window.session.question.view.cause == "ask", timeout=15)
    return window.session.question.view


def strip_rows(window: Any) -> dict[WarningCode, WarningRow]:
    return {row.warning.code: row for row in window.results.warnings.rows}


# -- the warning strip ------------------------------------------------------------------------------
def test_no_strong_match_reads_plainly_and_its_suggestion_asks_again(harness: Harness, qtbot: Any, axis_db: Path,
                                                                      proxy: ScriptedProxy) -> None:
    window = open_window(harness, qtbot, axis_db, proxy, search_mode=SearchMode.HYBRID)
    proxy.vectors["grase and fath"] = ORTHOGONAL
    view = ask(window, qtbot, "grase and fath")
    warning = next(w for w in view.result.warnings if w.code is WarningCode.NO_STRONG_MATCH)
    row = strip_rows(window)[WarningCode.NO_STRONG_MATCH]
    assert window.results.warnings.isVisible() and row.isVisible()
    assert "Nothing in the library matches this question well" in row.text.text()
    assert "Did you mean" not in row.text.text()  # the button asks it instead
    assert row.icon.accessibleName() == "No strong match" and row.icon.toolTip() == "No strong match"
    assert row.accessibleName() == "Warning: No strong match" and row.text.accessibleName() == warning.message
    assert row.suggestion is not None and row.suggestion.text() == "Did you mean “grace and faith”?"
    assert row.suggestion.focusPolicy() & Qt.FocusPolicy.TabFocus  # reachable by keyboard
    proxy.vectors["grace and faith"] = unit(axis(0, 1, 0.2)).tolist()  # Henry on justification: a strong match
    row.suggestion.click()
    wait_for(qtbot, lambda: window.session.question.view is not None
             and window.session.question.view.result.query == "grace and faith", timeout=15)
    assert window.ask.edit.text() == "grace and faith"
    assert WarningCode.NO_STRONG_MATCH not in window.results.warnings.codes()
    assert "“grace and faith”" in window.results.title.text()  # the header names the question it answers


def test_few_results_single_source_type_and_reference_not_in_corpus(harness: Harness, qtbot: Any, axis_db: Path,
                                                                     proxy: ScriptedProxy) -> None:
    window = open_window(harness, qtbot, axis_db, proxy, k=2, search_mode=SearchMode.SEMANTIC)
    q = "two lexicon entries"
    proxy.vectors[q] = unit([a + b for a, b in zip(axis(5), axis(6), strict=True)]).tolist()
    view = ask(window, qtbot, q)
    assert {r.chunk_id for r in view.result.results} == {"lex-1", "lex-2"}
    rows = strip_rows(window)
    assert list(rows) == [w.code for w in view.result.warnings]  # one row per warning, in order
    single = rows[WarningCode.SINGLE_SOURCE_TYPE]
    assert "Every result is a lexicon entry" in single.text.text()
    assert single.icon.accessibleName() == "One kind of material" and single.suggestion is None

    window.session.apply_settings(window.session.prefs.settings.replace(k=10))
    # the app spreads a list over its sources instead of cutting it short, so a short list needs a real
    # shortage: a filter that leaves six chunks
    window.session.search.set_filters(Filters.of(books=("romans",)))
    view = ask(window, qtbot, "Psalm 23:1 and Rom 9")
    rows = strip_rows(window)
    few = rows[WarningCode.FEW_RESULTS]
    assert re.search(r"Only \d+ of the 10 results", few.text.text()) and few.icon.accessibleName() == "Few results"
    assert "filters" in few.text.text()  # it names its cause
    ref = rows[WarningCode.REFERENCE_NOT_IN_CORPUS]
    assert "Psalms 23:1" in ref.text.text() and ref.icon.accessibleName() == "Passage not in the library"


def test_pin_not_found_and_a_clean_answer_hides_the_strip(harness: Harness, qtbot: Any, axis_db: Path,
                                                          proxy: ScriptedProxy) -> None:
    window = open_window(harness, qtbot, axis_db, proxy, pins=("h-law", "nope"), k=3,
                         search_mode=SearchMode.SEMANTIC)
    proxy.vectors["pins"] = unit(axis(0)).tolist()
    view = ask(window, qtbot, "pins")
    assert view.result.results[0].chunk_id == "h-law" and view.result.results[0].pinned
    row = strip_rows(window)[WarningCode.PIN_NOT_FOUND]
    assert "'nope'" in row.text.text() and row.icon.accessibleName() == "Pinned chunk missing"

    window.session.apply_settings(window.session.prefs.settings.replace(pins=(), k=2))
    # a question on Romans 9 (the chapter open): Scofield's panel and the word study on it, two kinds of material,
    # no warning
    proxy.vectors["clean"] = unit(axis(3, 8, 1.0)).tolist()
    view = ask(window, qtbot, "clean")
    assert view.result.warnings == ()
    assert not window.results.warnings.isVisible() and window.results.warnings.rows == []


# -- how this was searched --------------------------------------------------------------------------
def test_how_this_was_searched_is_collapsible_by_keyboard_and_tells_the_bundle(
        harness: Harness, qtbot: Any, axis_db: Path, proxy: ScriptedProxy) -> None:
    window = open_window(harness, qtbot, axis_db, proxy, search_mode=SearchMode.HYBRID)
    panel = window.results.searched
    assert not panel.isVisible()  # nothing asked yet
    view = ask(window, qtbot, "grace and the potter, Rom 9:20")
    d, tr = view.result.diagnostics, view.result.trace
    assert panel.isVisible() and not panel.expanded and not panel.body.isVisible()
    assert panel.toggle.focusPolicy() == Qt.FocusPolicy.StrongFocus
    window.actions_by_id["searched"].trigger()  # Ctrl+Shift+H
    assert panel.expanded and panel.body.isVisible() and panel.toggle.hasFocus()
    v = {label: w.text() for label, w in panel.values.items()}
    assert v["Mode"] == "Hybrid" and v["References"] == "Romans 9:20"
    assert v["Candidates"] == f"{d.candidates} pooled of {tr.candidates_requested} asked per search"
    assert f"{d.by_origin['dense']} by meaning (dense)" in v["Found"]
    assert f"{d.by_origin['keyword']} by words (keyword)" in v["Found"]
    assert f"{d.by_origin['reference']} by reference" in v["Found"]
    for kind, n in d.by_source_type.items():
        assert f"{n} " in v["By source type"] and kind != ""
    for reason, n in d.rejected_by_reason.items():
        assert re.search(rf"\b{n} ", v["Rejected"]), (reason, v["Rejected"])
    assert set(tr.keywords) and all(k in v["Keywords"] for k in tr.keywords)
    assert v["Question vector"].startswith("embedded by the proxy")
    assert re.fullmatch(r"embed \d+ ms · search [\d.]+ ms \(dense [\d.]+, keyword [\d.]+, references [\d.]+\) · "
                        r"rerank [\d.]+ ms · total \d+ ms", v["Timings"])
    qtbot.keyClick(panel.toggle, Qt.Key.Key_Space)
    assert not panel.expanded and not panel.body.isVisible()

    ask(window, qtbot, "grace and the potter, Rom 9:20")  # again: the vector comes from the cache
    assert panel.values["Question vector"].text() == "reused from this session's cache (no embed)"


# -- copying a result and its context menu ----------------------------------------------------------
def test_ctrl_c_on_a_result_copies_text_and_citation_and_the_menu_is_extensible(
        harness: Harness, qtbot: Any, axis_db: Path, proxy: ScriptedProxy) -> None:
    window = open_window(harness, qtbot, axis_db, proxy, search_mode=SearchMode.SEMANTIC)
    proxy.vectors["potter"] = unit(axis(3)).tolist()
    view = ask(window, qtbot, "potter")
    names = window.session.library.names
    window.results.focus_results()
    top = window.results.current_result()
    assert top is not None and top.rank == 1
    QGuiApplication.clipboard().clear()
    qtbot.keyClick(window.results.results_view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    copied = QGuiApplication.clipboard().text()
    assert copied == clip_text(top.candidate, names) and copied != "1"  # not the rank cell
    assert copied.startswith(top.candidate.text.strip()) and copied.endswith(chunk_citation(top.candidate, names))
    assert "Romans 9:10-13" in copied  # s-esau's place, spelt with the database's book name
    assert "Copied result 1" in window.statusBar().currentMessage()
    window.ask.edit.setFocus()  # elsewhere Ctrl+C is the focused widget's own copy
    window.ask.edit.selectAll()
    qtbot.keyClick(window.ask.edit, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == "potter"

    added: list[RetrievedChunk] = []
    window.results.menu_extenders.append(lambda menu, r: (added.append(r), menu.addAction("Pin"))[1])
    r2 = view.result.results[1]
    menu = window.results.result_menu(r2)
    qtbot.addWidget(menu)
    titles = [a.text() for a in menu.actions()]
    # the window's own extender (pinning: for questions like this one, the open chapter, every question) comes
    # first, then the one added here
    assert titles[:6] == ["Copy text", "Copy citation", "Copy chunk id", "Open in reader", "",
                          "Pin for questions like “potter”"] and added == [r2]
    assert titles[-2:] == ["Pin for every question", "Pin"]
    by_title = {a.text(): a for a in menu.actions()}
    by_title["Copy citation"].trigger()
    assert QGuiApplication.clipboard().text() == citation(r2, names)
    by_title["Copy chunk id"].trigger()
    assert QGuiApplication.clipboard().text() == r2.chunk_id
    m = r2.candidate.metadata
    assert m.book_id is not None and m.chapter_num is not None
    by_title["Open in reader"].trigger()
    wait_for(qtbot, lambda: window.session.reader.chapter == ChapterRef(m.book_id or "", m.chapter_num or 0))


def test_copy_as_amicus_context_counts_tokens_and_says_what_was_dropped(
        harness: Harness, qtbot: Any, axis_db: Path, proxy: ScriptedProxy) -> None:
    window = open_window(harness, qtbot, axis_db, proxy, search_mode=SearchMode.SEMANTIC)
    window.actions_by_id["copy_context"].trigger()
    assert window.statusBar().currentMessage() == "Nothing to copy: ask a question first."
    view = ask(window, qtbot, "grace")
    names = window.session.library.names
    assert window.results.budget.value() == 8000
    QGuiApplication.clipboard().clear()
    window.results.copy_context_button.click()
    wait_for(qtbot, lambda: window.statusBar().currentMessage().startswith("Copied"))
    expected = assemble(view.result.results, budget=8000, count=WordPieceCounter(), cite=lambda r: citation(r, names))
    assert QGuiApplication.clipboard().text() == expected.text and expected.text.startswith("[1] ")
    n = len(view.result.results)
    assert window.statusBar().currentMessage() == (
        f"Copied {n} chunks, {expected.used_tokens:,} tokens")

    # A smaller budget (typed into the box beside the button, saved) drops the lowest-ranked chunks whole.
    spin = window.results.budget
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "256")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    wait_for(qtbot, lambda: window.session.prefs.settings.context_budget == 256)
    small = assemble(view.result.results, budget=256, count=WordPieceCounter(), cite=lambda r: citation(r, names))
    assert small.dropped
    window.statusBar().clearMessage()
    qtbot.keyClick(window, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    wait_for(qtbot, lambda: window.statusBar().currentMessage().startswith("Copied"))
    assert window.statusBar().currentMessage() == (
        f"Copied {len(small.included)} chunks, {small.used_tokens:,} tokens "
        f"({len(small.dropped)} dropped to fit 256)")
    assert QGuiApplication.clipboard().text() == small.text
    assert "copy_context" in [a for a, act in window.actions_by_id.items() if act in window.menus.edit_menu.actions()]


# -- export -------------------------------------------------------------------------------------------
def test_export_through_the_dialog_as_json_and_csv_and_refusing_the_database(
        harness: Harness, qtbot: Any, axis_db: Path, proxy: ScriptedProxy, tmp_path: Path) -> None:
    window = open_window(harness, qtbot, axis_db, proxy, search_mode=SearchMode.HYBRID)
    view = ask(window, qtbot, "justified by faith")
    out = tmp_path / "exports"
    out.mkdir()
    window.actions_by_id["export"].trigger()
    dialog = window.exporter.dialog
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()
    assert dialog.acceptMode() is QFileDialog.AcceptMode.AcceptSave
    assert dialog.nameFilters() == ["JSON bundle (*.json)", "CSV table, one row per result and rejection (*.csv)"]
    dialog.selectFile(str(out / "bundle.json"))
    dialog.accept()
    wait_for(qtbot, lambda: (out / "bundle.json").exists()
             and window.statusBar().currentMessage().startswith("Exported"))
    written = json.loads((out / "bundle.json").read_text(encoding="utf-8"))
    assert written == json.loads(json.dumps(view.result.to_json()))

    work = window.exporter.export_to(view.result, out / "table.csv", ExportFormat.CSV)
    wait_for(qtbot, work.done)
    lines = (out / "table.csv").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(view.result.results) + len(view.result.rejected)
    assert window.statusBar().currentMessage() == f"Exported {len(lines) - 1} rows to {out / 'table.csv'}"

    before = axis_db.read_bytes()
    work = window.exporter.export_to(view.result, axis_db, ExportFormat.JSON)
    wait_for(qtbot, work.done)
    box = window.findChild(QMessageBox, "exportFailed")
    wait_for(qtbot, lambda: box is not None and box.isVisible())
    assert "never written over a database" in box.text()
    assert axis_db.read_bytes() == before
    box.accept()


# -- history and the vector cache -----------------------------------------------------------------------
def test_alt_up_and_down_walk_the_questions_and_a_reask_reuses_the_vector(
        harness: Harness, qtbot: Any, axis_db: Path, proxy: ScriptedProxy) -> None:
    window = open_window(harness, qtbot, axis_db, proxy, search_mode=SearchMode.SEMANTIC)
    for q in ("grace", "faith", "the potter"):
        ask(window, qtbot, q)
    assert window.results.title.text().startswith("“the potter” — ")
    assert window.status_bar.timing_status.text().startswith("embed ")
    edit = window.ask.edit
    edit.setFocus()
    alt = Qt.KeyboardModifier.AltModifier
    qtbot.keyClick(edit, Qt.Key.Key_Up, alt)
    assert edit.text() == "faith"
    qtbot.keyClick(edit, Qt.Key.Key_Up, alt)
    assert edit.text() == "grace"
    qtbot.keyClick(edit, Qt.Key.Key_Down, alt)
    assert edit.text() == "faith"
    requests = proxy.embed_requests
    qtbot.keyClick(edit, Qt.Key.Key_Return)
    wait_for(qtbot, lambda: window.session.question.view.result.query == "faith")
    assert proxy.embed_requests == requests  # asked before: no new embed
    assert window.session.question.view.result.trace.embedding_cached
    assert window.status_bar.timing_status.text().startswith("vector reused, no embed · ")
    assert window.statusBar().currentMessage() == "Asked again: vector reused, no embed"
    keys = {sc.id: shortcuts.key_text(sc) for sc in shortcuts.SHORTCUTS}
    assert keys["history_prev"] == "Alt+Up" and keys["ask_again"] == "Ctrl+R"
    QApplication.processEvents()
    assert isinstance(window.results.result_menu(window.session.question.view.result.results[0]), QMenu)


def test_one_kind_of_material_is_no_warning_when_the_reader_chose_one_kind(harness: Harness, qtbot: Any,
                                                                          axis_db: Path,
                                                                          proxy: ScriptedProxy) -> None:
    window = open_window(harness, qtbot, axis_db, proxy, k=2, search_mode=SearchMode.SEMANTIC)
    q = "two lexicon entries"
    proxy.vectors[q] = unit([a + b for a, b in zip(axis(5), axis(6), strict=True)]).tolist()
    window.session.search.set_filters(Filters.of(source_types=["lexicon_entry"]))
    view = ask(window, qtbot, q)
    assert WarningCode.SINGLE_SOURCE_TYPE in {w.code for w in view.result.warnings}  # the bundle keeps it
    assert WarningCode.SINGLE_SOURCE_TYPE not in window.results.warnings.codes()  # the reader is not told
