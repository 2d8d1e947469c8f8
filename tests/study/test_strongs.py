"""Strong's on tap (study/strongs.py) and ``amicus-desktop strongs``, on the real demo library."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import apsw
import pytest

from amicus_desktop.core.errors import AmicusError
from amicus_desktop.store.scripture import ScriptureStore
from amicus_desktop.study import parse_number, strongs_study, verse_words
from amicus_desktop.study.strongs import OLD_LIBRARY
from tests.support.cli import cli, run


def test_numbers_are_read_in_the_forms_people_and_modules_write() -> None:
    assert [parse_number(x) for x in ("G26", "g0026", "strong:H07225", " h430 ")] == ["G26", "G26", "H7225", "H430"]
    for bad in ("26", "X26", "G", "G0", ""):
        with pytest.raises(AmicusError):
            parse_number(bad)


def test_agape_has_its_entry_word_studies_and_a_concordance_with_the_word_marked(demo_db: Path) -> None:
    with ScriptureStore(demo_db) as store:
        study = strongs_study(store, "G26")
        assert study.lemma == "ἀγάπη" and study.language == "Greek" and study.translit
        assert any(e.chunk_id == "strongs:G26" for e in study.entries)
        assert {s.chunk_id for s in study.studies} <= {"wordstudy:G26:romans", "wordstudy:G26:john"}
        assert study.total == len(study.concordance) == sum(study.books.values()) > 10
        # every library holds the whole KJV with its numbers: the concordance spans the New Testament
        assert {"john", "romans", "matthew"} <= set(study.books) and "genesis" not in study.books
        words = {w.lower() for line in study.concordance for w in line.words}
        assert "love" in words and all(line.spans for line in study.concordance)
        romans = strongs_study(store, "G26", book="romans")
        assert {c.ref.book_id for c in romans.concordance} == {"romans"} and romans.total == study.total
        hebrew = strongs_study(store, "H7225")  # "In the beginning": Genesis 1:1, in the text of every library
        assert hebrew.language == "Hebrew" and "genesis" in hebrew.books
        assert any(c.ref.book_id == "genesis" and c.ref.chapter == 1 for c in hebrew.concordance)


def test_a_verse_knows_which_of_its_words_carry_which_number(demo_db: Path) -> None:
    with ScriptureStore(demo_db) as store:
        text, words = verse_words(store, "john", 3, 16)
    assert text.startswith("For God so loved the world")
    by_text = {text[w.start:w.end]: w.numbers for w in words}
    assert by_text["loved"] == ("G25",) and by_text["God"] == ("G2316",) and by_text["the world"] == ("G2889",)


def test_a_library_built_before_the_word_table_says_so(demo_db: Path, tmp_path: Path) -> None:
    old = tmp_path / "old.db"
    shutil.copyfile(demo_db, old)
    con = apsw.Connection(str(old))
    con.execute("DROP TABLE word_strongs")
    con.close()
    with ScriptureStore(old) as store:
        study = strongs_study(store, "G26")
        assert study.concordance == () and study.notice == OLD_LIBRARY and study.entries
        assert verse_words(store, "john", 3, 16)[1] == []


def test_the_command_prints_the_study_and_its_json(demo_db: Path) -> None:
    proc = cli("strongs", "G26", "--book", "John", "--json", "--db", str(demo_db))  # a real process
    assert proc.returncode == 0, proc.stderr
    body = json.loads(proc.stdout)
    assert body["number"] == "G26" and body["book"] == "john" and body["count"] > 0
    first = body["concordance"][0]
    a, b = first["highlight"][0]
    assert first["text"][a:b] == first["words"][0]
    code, out, _ = run("strongs", "G26", "--db", str(demo_db))
    assert code == 0 and "ἀγάπη" in out and "[love]" in out
    code, out, _ = run("strongs", "love", "--json", "--db", str(demo_db))
    assert code == 1 and json.loads(out)["error"]["code"] == "QUERY_INVALID"
    code, _, err = run("strongs", "G26", "--book", "Hezekiah", "--db", str(demo_db))
    assert code == 2 and "Hezekiah" in err
