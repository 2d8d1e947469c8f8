"""The optional word-level Strong's table of scripture.db: which words of a verse carry which number.

``word_strongs(translation_id, strongs, verse_rowid, words)`` — one row per translation, Strong's number
and verse (``verse_keys.rowid``) the translation tags with that number; ``words`` says which words: their
positions among the verse text's words (:data:`WORD`, counted from 0), ``"3"`` or a phrase ``"3-5"``,
several joined by commas (``"0-2,14"``). Written by ``build-db`` from the SWORD modules' ``<w lemma=…>``
markup (the KJV's; see :data:`TAGGED`) beside the verse-search tables
(:mod:`.verse_tables`); a database without it still opens — the Strong's panel then says the library
predates it. Its primary key serves the concordance (a number → its verses); ``word_strongs_by_verse``
serves a verse's words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import apsw

WORD_STRONGS = "word_strongs"
#: what counts as one word of a verse's stored text (positions in ``words`` count these)
WORD = re.compile(r"[\w’'-]+")
#: the translations whose words are written: the KJV's tags follow its words; the WEB's module carries
#: tags too, but they drift off its words ("the world" tagged G3956 on "the"), so they are left out
TAGGED = ("kjv",)


def create_sql(schema: str = "main") -> list[str]:
    return [
        f"""CREATE TABLE {schema}.{WORD_STRONGS} (translation_id TEXT NOT NULL, strongs TEXT NOT NULL,
             verse_rowid INTEGER NOT NULL, words TEXT NOT NULL,
             PRIMARY KEY (translation_id, strongs, verse_rowid)) WITHOUT ROWID""",
    ]


def index_sql(schema: str = "main") -> str:
    return f"CREATE INDEX {schema}.word_strongs_by_verse ON {WORD_STRONGS} (verse_rowid, translation_id)"


def positions(text: str, tokens: Sequence[tuple[str, Sequence[str]]]) -> dict[str, list[tuple[int, int]]]:
    """Each Strong's number of a verse → the word positions ``(first, last)`` of ``text`` carrying it.

    ``tokens`` are the verse's words in order with their numbers (the markup reader's tokens); each is
    found in ``text`` at or after the previous one, so a word the plain text lacks is skipped.
    """
    words = WORD.findall(text)
    out: dict[str, list[tuple[int, int]]] = {}
    cursor = 0
    for word, numbers in tokens:
        parts = WORD.findall(word)
        if not parts:
            continue
        n = len(parts)
        at = next((i for i in range(cursor, len(words) - n + 1) if words[i: i + n] == parts), None)
        if at is None:
            continue
        cursor = at + n
        for number in numbers:
            out.setdefault(number, []).append((at, at + n - 1))
    return out


def encode(spans: Iterable[tuple[int, int]]) -> str:
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in spans)


def decode(words: str) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for part in words.split(","):
        a, _, b = part.partition("-")
        if a.isdigit():
            out.append((int(a), int(b) if b.isdigit() else int(a)))
    return out


def write_word_strongs(con: apsw.Connection, translation_id: str,
                       verses: Iterable[tuple[int, str, Sequence[tuple[str, Sequence[str]]]]]) -> int:
    """Write one translation's rows from ``(verse_rowid, text, tokens)``; creates the table and its index
    the first time. Returns how many rows were written (none for a translation not in :data:`TAGGED`)."""
    if translation_id not in TAGGED:
        return 0
    exists = con.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (WORD_STRONGS,)).fetchone()
    if exists is None:
        for sql in create_sql():
            con.execute(sql)
        con.execute(index_sql())
    rows = [(translation_id, number, rowid, encode(spans))
            for rowid, text, tokens in verses for number, spans in positions(text, tokens).items()]
    con.executemany(f"INSERT OR REPLACE INTO {WORD_STRONGS} VALUES (?, ?, ?, ?)", rows)
    return len(rows)
