"""The WEB and the KJV side by side where they number the text differently (study/versification.py), on the
real demo library: the WEB's doxology at the end of its Romans 14:23 gets a row of its own beside where the
KJV has it, and the KJV's Romans 16:25-27 say where the WEB has them; every other difference the library
holds is a verse the WEB omits (what the module's docstring measured on the whole Bible)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QApplication

from amicus_desktop.core.references import ChapterRef
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.study.versification import MOVED, aligned_rows
from amicus_desktop.ui.reader_text import Page, page_html

#: the verses the WEB module lacks, as measured on the whole Bible (the doxology's are moved, not lost)
OMITTED = {("luke", 17): {36}, ("acts", 8): {37}, ("acts", 15): {34}, ("acts", 24): {7}, ("romans", 16): {25, 26, 27}}


def _numbers(store: ScriptureStore, table: str) -> dict[tuple[str, int], set[int]]:
    out: dict[tuple[str, int], set[int]] = {}
    for book, chapter, verse in store.rows(f"SELECT book_id, chapter_num, verse_num FROM {table}"):
        out.setdefault((str(book), int(chapter)), set()).add(int(verse))
    return out


def _chapter(store: ScriptureStore, table: str, book: str, chapter: int) -> list[tuple[int, str]]:
    return [(int(n), str(t)) for n, t in store.rows(
        f"SELECT verse_num, text FROM {table} WHERE book_id = ? AND chapter_num = ? ORDER BY verse_num",
        [book, chapter])]


def test_the_librarys_translations_differ_only_where_the_module_says(demo_db: Path) -> None:
    with ScriptureStore(demo_db) as store:
        web, kjv = _numbers(store, "verses"), _numbers(store, "verses_kjv")
    differing = {key: kjv.get(key, set()) - web.get(key, set()) for key in web.keys() | kjv.keys()
                 if web.get(key) != kjv.get(key)}
    assert differing and all(web.get(key, set()) <= kjv.get(key, set()) for key in differing)  # the KJV has more
    assert all(OMITTED.get(key) == lost for key, lost in differing.items()), differing
    assert ("romans", 16) in differing  # the demo holds Romans: the moved doxology is a real case here


def test_the_webs_doxology_sits_beside_the_kjvs_romans_16_25(demo_db: Path, qapp: QApplication) -> None:
    with ScriptureStore(demo_db) as store:
        web14, kjv14 = _chapter(store, "verses", "romans", 14), _chapter(store, "verses_kjv", "romans", 14)
        web16, kjv16 = _chapter(store, "verses", "romans", 16), _chapter(store, "verses_kjv", "romans", 16)
    move = MOVED[0]
    assert move.opening in dict(web14)[23] and move.opening not in dict(kjv14)[23]  # the library's own text

    rows = aligned_rows(ChapterRef("romans", 14), web14, "WEB", kjv14, "KJV")
    own, moved = rows[-2], rows[-1]
    assert (own.verse, moved.verse) == (23, 23) and moved.moved and not own.moved
    assert own.left is not None and own.left.endswith("whatever is not of faith is sin.")
    assert moved.left is not None and moved.left.startswith(move.opening) and moved.right is None
    assert moved.right_note == "(KJV at Romans 16:25-27)"
    assert [r.verse for r in rows[:-1]] == list(range(1, 24))  # every other verse by its number

    flipped = aligned_rows(ChapterRef("romans", 14), kjv14, "KJV", web14, "WEB")  # the WEB on the right
    assert flipped[-1].right is not None and flipped[-1].left_note == "(KJV at Romans 16:25-27)"

    sixteen = aligned_rows(ChapterRef("romans", 16), web16, "WEB", kjv16, "KJV")
    tail = {r.verse: r for r in sixteen if r.verse >= 25}
    assert set(tail) == {25, 26, 27}
    assert all(r.left is None and r.left_note == "(in the WEB at the end of Romans 14:23)" for r in tail.values())
    assert aligned_rows(None, web16, "WEB", kjv16, "KJV")[-1].left_note is None  # no chapter: by number only

    page = Page("Romans 14", verses=web14, translation="WEB", beside=kjv14, beside_translation="KJV",
                ref=ChapterRef("romans", 14))
    document = page_html(page, qapp.palette())
    assert "(KJV at Romans 16:25-27)" in document and document.count("name='v23'") == 1
    page16 = Page("Romans 16", verses=web16, translation="WEB", beside=kjv16, beside_translation="KJV",
                  ref=ChapterRef("romans", 16))
    assert page_html(page16, qapp.palette()).count("(in the WEB at the end of Romans 14:23)") == 3


def test_a_verse_the_web_omits_is_said_so(demo_db: Path) -> None:
    with ScriptureStore(demo_db) as store:
        web, kjv = _chapter(store, "verses", "romans", 16), _chapter(store, "verses_kjv", "romans", 16)
    rows = aligned_rows(ChapterRef("romans", 15), web, "WEB", kjv, "KJV")  # another chapter: nothing moved
    assert [r.verse for r in rows if r.left is None] == [25, 26, 27] and all(r.left_note is None for r in rows)
