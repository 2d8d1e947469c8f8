"""The ingest dialog's report, at the window's default size and at 1000×650 (docs/UI.md, "Adding documents").

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/ingest_shots.py

Builds a library from the shipped sample corpus (``resources/corpus/sample-study-notes.jsonl``) with
``amicus-desktop ingest``, opens it in the real window with the real local proxy, then adds a small file of
the user's own notes through File ▸ Add documents to a library… — two good documents and two lines with
mistakes — and saves the window with the dialog's report over it.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from shotkit import OUT, ROOT, ask, drive, opened, reach, save_with_dialog

MY_NOTES = [
    {"source_id": "my-notes:romans-8", "title": "My notes on Romans", "source_type": "section_panel",
     "scholar_id": "my-notes", "scholar_name": "My study notes", "chunks": [
         {"chunk_id": "mine:romans:8:1", "book_id": "romans", "chapter_num": 8, "verse_start": 1, "verse_end": 4,
          "text": "No condemnation: the chapter opens with the verdict before it speaks of the Spirit's work."},
         {"chunk_id": "mine:romans:8:26", "book_id": "romans", "chapter_num": 8, "verse_start": 26,
          "verse_end": 27, "text": "When we do not know how to pray, the Spirit prays for us."}]},
    {"source_id": "my-notes:romans-9", "title": "My notes on Romans", "source_type": "section_panel",
     "scholar_id": "my-notes", "chunks": [
         {"chunk_id": "mine:romans:9:1", "book_id": "romans", "chapter_num": 9, "verse_start": 1,
          "verse_end": 5, "text": "Paul's grief for his people comes before any argument about election."}]},
    {"source_id": "my-notes:romans-17", "source_type": "section_panel", "scholar_id": "my-notes", "chunks": [
        {"chunk_id": "mine:romans:17:1", "book_id": "romans", "chapter_num": 17, "text": "A note on a chapter "
         "Romans does not have."}]},
    {"source_id": "my-notes:sermon", "source_type": "sermon", "scholar_id": "my-notes", "chunks": [
        {"chunk_id": "mine:sermon:1", "text": "Sunday's outline."}]},
]


def main() -> int:
    from amicus_desktop.resources import resource_path
    from tests.support.proxy import ProxyProcess

    tmp = Path(tempfile.mkdtemp(prefix="amicus-ingest-shots-"))
    os.environ["AMICUS_HOME"] = str(tmp / "home")
    library = tmp / "sample.db"
    subprocess.run([sys.executable, "-m", "amicus_desktop", "ingest", str(resource_path("corpus",
                    "sample-study-notes.jsonl")), "--db", str(library), "--quiet"], check=True, cwd=ROOT)
    corpus = tmp / "my-notes.jsonl"
    corpus.write_text("".join(json.dumps(d) + "\n" for d in MY_NOTES), encoding="utf-8")
    with ProxyProcess("--rate-limit", "0") as proxy:
        shoot(library, corpus, proxy.url)
    return 0


def shoot(library: Path, corpus: Path, proxy_url: str) -> None:

    from amicus_desktop.ui.ingest_dialog import IngestDialog
    from amicus_desktop.ui.main_window import DEFAULT_SIZE

    async def run() -> None:
        async with opened(library, proxy_url, "romans:8", restore=False,
                          prepare=lambda window: window.resize(*DEFAULT_SIZE)) as (session, window):
            await reach(session, lambda: session.can_ask)
            question = "Can anything separate us from the love of God?"
            await ask(window, session, question, settle=0)
            window.menus.ingest_action.trigger()
            dialog = window.dialogs.ingest_dialog
            assert isinstance(dialog, IngestDialog)
            dialog.corpus_edit.setText(str(corpus))
            dialog.start()
            for _ in range(120 * 20):  # the dialog reads its worker's outcome on the loop: look the same way
                if dialog.report is not None or dialog.error is not None:
                    break
                await asyncio.sleep(0.05)
            assert dialog.report is not None, dialog.error
            for size, suffix in ((DEFAULT_SIZE, ""), ((1000, 650), "-1000x650")):
                window.resize(*size)
                dialog.resize(640, min(560, size[1] - 80))
                await asyncio.sleep(0.5)
                save_with_dialog(window, dialog, OUT / f"ingest-report{suffix}.png")
                print(f"ingest-report{suffix}.png: ok")
            dialog.close_button.click()

    drive(run)


if __name__ == "__main__":
    sys.exit(main())
