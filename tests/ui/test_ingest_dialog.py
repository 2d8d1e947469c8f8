"""File ▸ Add documents to a library…: the ingest runs off the UI thread and ends in the report (or says why not)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QTimer

from amicus_desktop.session import DbStatus
from amicus_desktop.ui.ingest_dialog import IngestDialog
from tests.support.dbs import BOOKS, build_db, demo_like_chunks, verses
from tests.support.ingest import chunk, document, folder_state, notes, write_jsonl
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy

from .conftest import wait_for


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=8) as p:
        yield p


@pytest.fixture
def library(tmp_path: Path) -> Path:
    folder = tmp_path / "lib"
    folder.mkdir()
    return build_db(folder / "scripture.db", demo_like_chunks(dims=8), books=BOOKS, verses=verses())


def _corpus(tmp_path: Path) -> Path:
    bad = document("bad", [chunk("bad:1", "A note on a chapter Jude lacks.", book_id="jude", chapter_num=2)])
    return write_jsonl(tmp_path / "mine.jsonl", [notes(3), bad, notes(2, prefix="m", scholar="ann-lee")])


def _open_dialog(window) -> IngestDialog:
    window.menus.ingest_action.trigger()
    dialog = window.dialogs.ingest_dialog
    assert isinstance(dialog, IngestDialog) and dialog.isVisible()
    return dialog


def test_ingest_into_the_open_library_shows_the_report_and_reopens_it(harness, qtbot, tmp_path, library, proxy):
    window = harness.open(db=library, proxy=proxy.url)
    wait_for(qtbot, lambda: window.session.library.ready)
    dialog = _open_dialog(window)
    assert Path(dialog.library_edit.text()) == library and "open now" in dialog.library_note.text()
    assert not dialog.ingest_button.isEnabled()  # no documents chosen yet
    dialog.corpus_edit.setText(str(_corpus(tmp_path)))
    proxy.behaviour = lambda body: None if body.get("health") else (time.sleep(0.4), None)[1]
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(threading.current_thread().name))
    timer.start(20)
    dialog.ingest_button.click()
    assert dialog.running and dialog.close_button.text() == "Cancel"
    wait_for(qtbot, lambda: dialog.report is not None or dialog.error is not None, timeout=30)
    timer.stop()
    assert dialog.error is None, dialog.error
    assert len(ticks) >= 10  # the UI kept turning while the worker waited on the proxy
    rows = {dialog.summary_form.itemAt(r, dialog.summary_form.ItemRole.LabelRole).widget().text():
            dialog.summary_form.itemAt(r, dialog.summary_form.ItemRole.FieldRole).widget().text()
            for r in range(dialog.summary_form.rowCount())}
    assert rows["Documents:"] == "2 ingested, 1 line skipped"
    assert rows["Chunks:"] == "5: 5 new, 0 replaced, 0 unchanged"
    assert rows["Embedded:"].startswith("5 with test-model")
    assert rows["Library:"] == f"Updated: {library}"
    assert dialog.errors.isVisibleTo(dialog) and dialog.errors.rowCount() == 1
    assert (dialog.errors.item(0, 0).text(), dialog.errors.item(0, 1).text()) == (
        "2", "/chunks/0/chapter_num: Jude has 1 chapter, not 2")
    assert not dialog.open_button.isVisibleTo(dialog)  # it is the open library: opened again instead
    wait_for(qtbot, lambda: window.session.library.state.status is DbStatus.READY
             and "ann-lee" in dict(window.session.library.facets["scholar_id"]))
    dialog.close_button.click()
    assert not dialog.isVisible()


def test_a_failed_ingest_says_so_and_changes_nothing(harness, qtbot, tmp_path, library, proxy):
    window = harness.open(db=library, proxy=proxy.url)
    wait_for(qtbot, lambda: window.session.library.ready)
    before = folder_state(library.parent)
    dialog = IngestDialog(library, f"http://127.0.0.1:{free_port()}", open_library=library, parent=window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.corpus_edit.setText(str(_corpus(tmp_path)))
    dialog.start()
    wait_for(qtbot, lambda: dialog.error is not None, timeout=30)
    assert dialog.stage.text() == "Nothing was added."
    assert "cannot be reached" in dialog.error and dialog.error.endswith("scripture.db is as it was.")
    assert dialog.report is None and not dialog.summary.isVisibleTo(dialog)
    assert folder_state(library.parent) == before


def test_cancel_stops_the_ingest_and_keeps_the_library(harness, qtbot, tmp_path, library, proxy):
    window = harness.open(db=library, proxy=proxy.url)
    before = folder_state(library.parent)
    proxy.behaviour = lambda body: None if body.get("health") else (time.sleep(0.3), None)[1]
    dialog = IngestDialog(library, proxy.url, open_library=library, parent=window)
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.corpus_edit.setText(str(write_jsonl(tmp_path / "big.jsonl", [notes(300)])))
    dialog.start()
    wait_for(qtbot, lambda: "Embedding" in dialog.stage.text(), timeout=30)
    dialog.reject()  # Esc while running cancels first
    assert dialog.isVisible() and "Cancelling" in dialog.stage.text()
    wait_for(qtbot, lambda: dialog.error is not None, timeout=30)
    assert dialog.error == "Cancelled. scripture.db is as it was."
    assert folder_state(library.parent) == before


def test_a_new_library_elsewhere_can_be_opened_from_the_report(harness, qtbot, tmp_path, library, proxy):
    window = harness.open(db=library, proxy=proxy.url)
    wait_for(qtbot, lambda: window.session.library.ready)
    dialog = _open_dialog(window)
    target = tmp_path / "mine.db"
    dialog.library_edit.setText(str(target))
    assert "new version" in dialog.library_note.text()
    dialog.corpus_edit.setText(str(write_jsonl(tmp_path / "c.jsonl", [notes(2)])))
    dialog.start()
    wait_for(qtbot, lambda: dialog.report is not None, timeout=60)  # a new library: the local model embeds
    assert dialog.report.created and target.exists()
    assert dialog.open_button.isVisibleTo(dialog) and not dialog.errors.isVisibleTo(dialog)
    dialog.open_button.click()
    wait_for(qtbot, lambda: window.session.library.ready and window.session.prefs.endpoints.db_path == target)


def test_the_report_rows_fit_their_wrapped_problems_at_any_width(qtbot, tmp_path, library):
    """Each skipped line's row is as tall as its wrapped problem when the report first shows and after the
    dialog narrows (the rows once kept the heights they had while the table was hidden, and overlapped)."""
    from amicus_desktop.corpus.documents import LineError
    from amicus_desktop.corpus.ingest import IngestReport

    dialog = IngestDialog(library, f"http://127.0.0.1:{free_port()}", open_library=library)
    qtbot.addWidget(dialog)
    long = ('/source_type: "sermon" is not one of section_panel, chapter_panel, word_study, lexicon_entry, '
            "debate_topic, cross_ref_thread_note, journey_stop, meta_faq")
    errors = tuple(LineError(n, long if n % 2 else f"/chunks/0/chapter_num: Romans has 16 chapters, not {n}")
                   for n in range(3, 9))
    report = IngestReport(path=library, model_id="m", documents_ingested=2, chunks_ingested=3, chunks_embedded=3,
                          chunks_unchanged=0, errors=errors, chunks_added=3, written=True)
    dialog.resize(900, 600)
    dialog.show()
    dialog.show_report(report)
    table = dialog.errors

    def fitted() -> bool:
        return all(table.rowHeight(r) >= table.sizeHintForRow(r) for r in range(table.rowCount()))

    wait_for(qtbot, lambda: table.isVisible() and table.columnWidth(1) > 200 and fitted())
    wide = table.rowHeight(0)  # line 3: the long problem
    dialog.resize(420, 600)
    wait_for(qtbot, lambda: table.columnWidth(1) < 400 and fitted())
    assert table.rowHeight(0) > wide  # the long problem wraps onto more lines in the narrower column
