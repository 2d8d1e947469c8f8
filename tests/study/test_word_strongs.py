"""The word-level Strong's table ``build-db`` writes (store/word_strongs.py), on the real demo library."""

from __future__ import annotations

from pathlib import Path

from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.store.word_strongs import WORD, decode, encode, positions


def test_positions_follow_the_words_and_phrases() -> None:
    text = "In the beginning God created the heaven and the earth."
    tokens = [("In the beginning", ("H7225",)), ("God", ("H430",)), ("created", ("H1254", "H853")),
              ("the heaven", ("H8064",)), ("and", ()), ("the earth", ("H776",)), ("missing", ("H1",))]
    got = positions(text, tokens)
    assert got["H7225"] == [(0, 2)] and got["H430"] == [(3, 3)] and got["H853"] == [(4, 4)]
    assert got["H776"] == [(8, 9)] and "H1" not in got
    assert decode(encode([(0, 2), (7, 7)])) == [(0, 2), (7, 7)] == decode("0-2,7")


def test_the_demo_library_knows_which_kjv_words_carry_agape(demo_db: Path) -> None:
    with ScriptureStore(demo_db) as store:
        rows = store.rows("SELECT v.text, w.words FROM word_strongs w JOIN verse_keys k ON k.rowid = w.verse_rowid "
                          "JOIN verses_kjv v USING (book_id, chapter_num, verse_num) "
                          "WHERE w.translation_id = 'kjv' AND w.strongs = 'G26'")
        assert len(rows) > 10
        marked = [WORD.findall(text)[a] for text, words in rows for a, _ in decode(words)]
        assert {w.lower() for w in marked} >= {"love"}
        (translations,) = store.rows("SELECT group_concat(DISTINCT translation_id) FROM word_strongs")[0]
        assert translations == "kjv"
