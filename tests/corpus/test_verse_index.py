"""The verse-search tables a build writes (corpus/verse_index.py, store/verse_tables.py)."""

from __future__ import annotations

import numpy as np
import pytest

from amicus_desktop.core.books import BY_ID
from amicus_desktop.corpus.build import build_database
from amicus_desktop.store.sqlite import connect


@pytest.mark.timeout(900)  # reads the whole Bible's text (both translations): minutes on a busy machine
def test_a_build_writes_both_translations_their_indexes_vectors_and_strongs(tmp_path, library, stand_in):
    out = tmp_path / "two.db"
    build_database(out, ["jude", "philemon"], stand_in, batch=16, library=library)
    con = connect(out, readonly=True)
    try:
        assert con.execute("select translation_id, name, abbreviation, verse_table, is_default from translations "
                           "order by is_default desc").fetchall() == [
            ("web", "World English Bible", "WEB", "verses", 1),
            ("kjv", "King James Version", "KJV", "verses_kjv", 0)]
        keys = con.execute("select rowid, book_id, chapter_num, verse_num from verse_keys order by rowid").fetchall()
        assert [r for r, *_ in keys] == list(range(1, len(keys) + 1))
        # canonical order, verses in order: the whole Bible's text, whatever the scope
        assert [k[1:] for k in keys] == sorted((k[1:] for k in keys), key=lambda k: (BY_ID[k[0]].ordinal, k[1], k[2]))
        assert keys[0][1:] == ("genesis", 1, 1) and keys[-1][1:] == ("revelation", 22, 21)
        web = dict(((b, c, v), t) for b, c, v, t in con.execute("select * from verses"))
        kjv = dict(((b, c, v), t) for b, c, v, t in con.execute("select * from verses_kjv"))
        assert len(web) == 31095 and len(kjv) == len(keys) == 31102
        assert "contend earnestly for the faith" in web[("jude", 1, 3)]
        assert kjv[("jude", 1, 3)].startswith("Beloved, when I gave all diligence")
        assert not [t for t in kjv.values() if "¶" in t]  # the KJV's paragraph marks are not words
        hits = con.execute("select rowid from verse_fts_kjv where verse_fts_kjv match 'earnestly contend'").fetchall()
        rowid = next(r for r, b, c, v in keys if (b, c, v) == ("jude", 1, 3))
        assert (rowid,) in hits
        # only the scope's verses are embedded
        assert con.execute("select count(*) from verse_embeddings").fetchone()[0] == 25 + 25
        q = stand_in.embed([web[("jude", 1, 3)]])[0].astype(np.float32).tobytes()
        (best, distance), = con.execute("select rowid, distance from verse_embeddings where embedding match ? "
                                        "and k = 1 and book_id = 'jude'", (q,)).fetchall()
        assert best == rowid and distance < 1e-6  # each verse is embedded alone, as its text
        numbers = {n for n, in con.execute("select strongs from verse_strongs where verse_rowid = ?", (rowid,))}
        assert "G1864" in numbers  # ἐπαγωνίζομαι, "contend earnestly"
        assert "G3588" not in numbers  # the article: a function word, left out
    finally:
        con.close()
