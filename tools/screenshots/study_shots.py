"""Regenerate the screenshots of the study aids (docs/UI.md, "Study aids").

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/study_shots.py --db PATH/demo.db

Each state is reached in-process through the real window and session on the demo library, and saved at the
window's default size and at 1000×650 (``-1000x650``):

* ``study-xrefs.png`` — Romans 3:23 in the reader, its cross-references in the Study dock, best first, each
  saying where it comes from (Scofield's note and chain, Nave's topic, nearest in meaning);
* ``study-xrefs-nave.png`` — the same list filtered to Nave's topics;
* ``study-strongs.png`` — John 3 in the KJV, "loved" looked up: ἀγαπάω (G25), Strong's entry and word
  studies, and the concordance with the word marked in each verse;
* ``study-strongs-book.png`` — the concordance of G26 (ἀγάπη) narrowed to Romans;
* ``study-bookmarks.png`` — Romans 8 with its highlights in the text (8:28 yellow, 8:38-39 green), and the
  Bookmarks tab: a few bookmarks and highlights with labels, searched for "promise";
* ``study-strongs-beside.png`` — John 3 in the WEB with the KJV beside, "loved" clicked in the KJV column
  (one click, the Strong's tab open): G25 again;
* ``study-menu.png`` — the reader's context menu on a KJV word: cross-references, Strong's, bookmark,
  highlight, label.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from shotkit import SMALL, drive, opened, reach, run, save


def main() -> int:
    return run(__doc__ or "", shots)


def shots(db: Path, proxy_url: str, out: Path) -> None:
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QApplication

    from amicus_desktop.core.references import PassageRef
    from amicus_desktop.notes import NotesStore
    from amicus_desktop.notes.marks import MarkKind
    from amicus_desktop.study import XrefSource

    with NotesStore() as store:
        marks = store.workspace("personal").marks()
        marks.add(MarkKind.HIGHLIGHT, PassageRef("romans", 8, 28, 28), colour="yellow", labels=["promises"])
        marks.add(MarkKind.HIGHLIGHT, PassageRef("romans", 8, 38, 39), colour="green", labels=["promises", "comfort"])
        marks.add(MarkKind.BOOKMARK, PassageRef("romans", 3, 21, 26), labels=["sermon 12"])
        marks.add(MarkKind.BOOKMARK, PassageRef("john", 3, 16, 16), labels=["promises"])
        marks.add(MarkKind.HIGHLIGHT, PassageRef("john", 1, 14, 14), colour="blue")

    async def settle(seconds: float = 0.4) -> None:
        await asyncio.sleep(seconds)

    async def run() -> None:
        async with opened(db, proxy_url, "romans:3") as (session, window):
            control = window.study_control
            xrefs = control.panel.xrefs
            session.open_passage(PassageRef("romans", 3, 23, 23), peek=True)
            control.show_xrefs(PassageRef("romans", 3, 23, 23))
            await reach(session, lambda: xrefs.list.count() > 0, timeout=120)
            await settle()
            await save(window, out, "study-xrefs.png")
            xrefs.source.setCurrentIndex(xrefs.source.findData(XrefSource.NAVE.value))
            await save(window, out, "study-xrefs-nave.png")

            session.open_passage(PassageRef("romans", 8, 28, 28), peek=True)
            await reach(session, lambda: session.reader.loaded_chapter is not None
                        and session.reader.loaded_chapter.chapter == 8)
            marks = control.panel.marks
            control.panel.show_tab(marks)
            control.refresh_marks()
            await reach(session, lambda: len(marks.marks) == 5, timeout=30)
            marks.search.setText("promise")
            await reach(session, lambda: len(control.margin.marks) == 2, timeout=30)
            await settle()
            await save(window, out, "study-bookmarks.png")

            session.set_translation("kjv")
            session.open_passage(PassageRef("john", 3, 16, 16), peek=True)
            await reach(session, lambda: session.reader.text is not None and session.reader.text.translation == "KJV"
                        and session.reader.loaded_chapter is not None and session.reader.loaded_chapter.chapter == 3)
            await settle()
            reader = window.reader
            anchors = {v: p for p, v in reader._anchors()}
            at = reader.text.document().toPlainText().index("loved", anchors[16])
            cursor = reader.text.textCursor()
            cursor.setPosition(at + 1)
            reader.text.setTextCursor(cursor)
            found = control.word_under_cursor(16)
            assert found is not None
            async def grab_menu(name: str) -> None:
                from PySide6.QtGui import QPainter

                from amicus_desktop.ui.main_window import DEFAULT_SIZE
                for size, suffix in ((DEFAULT_SIZE, ""), (SMALL, "-1000x650")):
                    window.resize(*size)
                    await settle()
                    rect = reader.text.cursorRect(reader.text.textCursor())
                    reader._context_menu(QPoint(rect.x(), rect.bottom()))  # the reader's own menu, as a right-click
                    await settle()
                    menu = QApplication.activePopupWidget()
                    assert menu is not None
                    shot = window.grab()
                    painter = QPainter(shot)
                    painter.drawPixmap(window.mapFromGlobal(menu.pos()), menu.grab())
                    painter.end()
                    shot.save(str(out / name.replace(".png", f"{suffix}.png")))
                    print(f"{name.replace('.png', suffix + '.png')}: ok")
                    menu.hide()
                window.resize(*DEFAULT_SIZE)

            await grab_menu("study-menu.png")
            strongs = control.panel.strongs
            control.strongs_of_word(PassageRef("john", 3, 16, 16), found[1])
            await reach(session, lambda: strongs.study is not None and strongs.study.number == "G25", timeout=60)
            await save(window, out, "study-strongs.png")
            control.show_strongs("G26", "romans")
            await reach(session, lambda: strongs.study is not None and strongs.study.number == "G26", timeout=60)
            await save(window, out, "study-strongs-book.png")

            session.set_translation("web")  # the WEB read with the KJV beside: a click on a KJV word
            window.actions_by_id["parallel"].trigger()
            await reach(session, lambda: reader.showing_parallel and reader.translation_of(1) == "KJV", timeout=30)
            await settle()
            from amicus_desktop.ui.study.margin import anchor_positions
            doc = reader.text.document()
            cursor = reader.text.textCursor()
            cursor.setPosition(doc.toPlainText().index("loved", anchor_positions(doc, "b")[16]) + 1)
            reader.text.setTextCursor(cursor)
            reader.wordClicked.emit(16, "loved", 1)  # what a click on the word says
            await reach(session, lambda: strongs.study is not None and strongs.study.number == "G25", timeout=60)
            await save(window, out, "study-strongs-beside.png")

    drive(run)


if __name__ == "__main__":
    sys.exit(main())
