"""Titles, snippets and citation lines: over every chunk of a real demo build, and odd inputs."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from amicus_desktop.core.names import Names
from amicus_desktop.core.query import SOURCE_TYPES
from amicus_desktop.core.results import Candidate, ChunkMetadata
from amicus_desktop.core.scholars import KNOWN_SCHOLARS, Scholar
from amicus_desktop.corpus import build_database
from amicus_desktop.present.titles import citation, snippet, source_label, title
from amicus_desktop.store import ScriptureStore
from tests.support.embedders import StandInEmbedder


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Candidate], Names]:
    """The demo build (Romans and John; stand-in vectors), read back through the store."""
    path: Path = tmp_path_factory.mktemp("titles") / "demo.db"
    build_database(path, ["romans", "john"], StandInEmbedder())
    with ScriptureStore(path) as store:
        rows = store.fetch(range(1, store.info.chunk_count + 1))
        names = store.names()
    chunks = {cid: Candidate(rowid, cid, st_, sid, text, metadata=meta, distance=0.0)
              for rowid, (cid, st_, sid, text, meta) in rows.items()}
    return chunks, names


EXPECTED_TITLES = {
    "wordstudy:G1344:romans": "δικαιόω (dikaióō, G1344) — word study in Romans",
    "strongs:G1344": "Strong's G1344 δικαιόω — to render just or innocent",
    "strongs:G26": "Strong's G26 ἀγάπη — love",
    "mhcc:romans:9:6-13#1": "Matthew Henry, Concise Commentary — Romans 9:6-13",
    "mhcc:romans:9:outline": "Matthew Henry, Concise Commentary — outline of Romans 9",
    "mhcc:romans:intro#1": "Matthew Henry, Concise Commentary — introduction to Romans",
    "scofield:romans:intro#1": "Scofield Reference Notes — introduction to Romans (part 1 of 3)",
    "nave:demons:john": "Nave's Topical Bible — Demons, in John",
    "scofield:romans:3:21:note:quote#1": "John Bunyan, quoted by C. I. Scofield — Romans 3:21",
    "scofield-chain:Rom.3.23:romans": "Scofield reference chain — sinned (Romans 3:23), in Romans",
    "abbott-smith:G1344#1": "Abbott-Smith G1344 δικαιόω — to deem right; to do one justice (part 1 of 2)",
    "abbott-smith:G1344#2": "Abbott-Smith G1344 δικαιόω — continued (part 2 of 2)",
    "mhcc:john:3:11-21#2": "Matthew Henry, Concise Commentary — John 3:11-21 (part 2 of 6)",
    "faq:scoring": "Help — How are results scored?",
}


def test_known_chunks_get_the_titles_a_reader_expects(demo) -> None:
    chunks, names = demo
    got = {cid: title(chunks[cid], names) for cid in EXPECTED_TITLES}
    assert got == EXPECTED_TITLES
    assert title(chunks["strongs:G2182"], names).startswith("Strong's G2182 ἐφευρετής — ")


def test_snippets_skip_the_header_the_title_came_from(demo) -> None:
    chunks, _ = demo
    assert snippet(chunks["strongs:G2182"]) == "a discoverer, i.e. contriver. KJV renders it: inventor."
    assert snippet(chunks["wordstudy:G1344:romans"]).startswith(
        "Meaning (Strong): to render (i.e. show or regard as) just or innocent. Used in ")
    assert snippet(chunks["nave:demons:john"]).startswith("Jesus falsely accused of being possessed of:")
    assert snippet(chunks["faq:scoring"]).startswith("Amicus turns your question into a vector")
    assert snippet(chunks["scofield:romans:3:21:note:quote#1"]).startswith("“The believer in Christ")
    assert snippet(chunks["abbott-smith:G1344#1"]).startswith("39 times in the NT. Glosses: to deem right")
    # a sentence is not cut after "i.e." or "Mt."
    assert "Mt. Sinai" in snippet(chunks["scofield:romans:3:21:note:quote#1"])


def test_citation_lines_name_kind_scholar_and_reference(demo) -> None:
    chunks, names = demo
    assert citation(chunks["mhcc:romans:9:6-13#1"], names) == (
        "Section note: Matthew Henry, Concise Commentary — Romans 9:6-13")
    assert citation(chunks["strongs:G2182"], names) == (
        "Lexicon entry: James Strong, Strong's Exhaustive Concordance — G2182 ἐφευρετής")
    assert citation(chunks["nave:demons:john"], names) == (
        "Cross-reference: Orville J. Nave, Nave's Topical Bible — Demons, in John")
    assert citation(chunks["wordstudy:G1344:romans"], names) == (
        "Word study: James Strong, Strong's Exhaustive Concordance — δικαιόω (dikaióō, G1344) in Romans")
    assert citation(chunks["faq:scoring"], names) == "Help — How are results scored?"


def test_every_demo_chunk_reads_well(demo) -> None:
    chunks, names = demo
    assert len(chunks) > 4000
    ids = set(KNOWN_SCHOLARS)
    for cid, c in chunks.items():
        t, s, cit = title(c, names), snippet(c), citation(c, names)
        for line in (t, s, cit):
            assert line and "\n" not in line and line == line.strip(), cid
            assert "None" not in line and "  " not in line, cid
        assert len(t) <= 120 and len(s) <= 160, cid
        assert not any(sid in t or sid in cit for sid in ids), cid  # names, never ids
        assert cit.startswith(source_label(c.source_type)), cid
        if c.metadata.scholar_id:
            assert names.scholar(c.metadata.scholar_id).name in cit, cid
        if c.source_type in ("section_panel", "chapter_panel") and c.metadata.book_id:
            assert names.book(c.metadata.book_id) in t, cid
        if c.source_type in ("word_study", "meta_faq") or ("#" not in cid and c.source_type == "cross_ref_thread_note"):
            first = c.text.split("\n", 1)[0]
            assert not s.startswith(first[:40]), cid  # the header is not repeated


def test_no_two_parts_of_a_note_share_a_title(demo) -> None:
    """Read back from the database: every note cut into parts names each part ("part 2 of 3")."""
    chunks, names = demo
    notes: dict[str, list[str]] = {}
    for cid in chunks:
        base, sep, n = cid.rpartition("#")
        if sep and n.isdigit():
            notes.setdefault(base, []).append(cid)
    multi = {base: cids for base, cids in notes.items() if len(cids) > 1}
    assert len(multi) > 100
    for base, cids in multi.items():
        titles = [title(chunks[cid], names) for cid in cids]
        assert len(set(titles)) == len(titles), base
        assert all(f" of {len(cids)})" in t for t in titles), base


def test_database_names_change_titles(demo) -> None:
    chunks, _ = demo
    own = Names(books={"romans": "Epistle to the Romans"},
                scholars={"matthew-henry": Scholar("matthew-henry", "M. Henry", None, "Exposition")})
    assert title(chunks["mhcc:romans:9:6-13#1"], own) == "M. Henry, Exposition — Epistle to the Romans 9:6-13"


@dataclass(frozen=True)
class Row:
    """A chunk as another builder's database might hold it."""

    source_type: str
    source_id: str
    text: str
    metadata: ChunkMetadata = field(default_factory=ChunkMetadata)


def test_minimal_and_foreign_chunks_fall_back_sensibly() -> None:
    assert title(Row("section_panel", "x", "")) == "Section note"
    assert title(Row("section_panel", "x", "  \n ")) == "Section note"
    assert title(Row("debate_topic", "d1", "Predestination. Two views.",
                     ChunkMetadata(book_id="romans", chapter_num=9))) == "Debate topic — Romans 9"
    assert title(Row("journey_stop", "j", "Paul reaches Rome after a shipwreck.")) == (
        "Journey stop — Paul reaches Rome after a shipwreck.")
    assert title(Row("weird_kind", "w", "Hello there.")) == "Weird kind — Hello there."
    assert title(Row("section_panel", "c1", "Note text.",
                     ChunkMetadata(scholar_id="john_calvin", book_id="romans", chapter_num=9,
                                   verse_start=1, verse_end=5))) == "John Calvin — Romans 9:1-5"
    assert title(Row("section_panel", "c1", "Note.", ChunkMetadata(book_id="3-maccabees", chapter_num=2))) == (
        "Section note — 3 Maccabees 2")
    assert title(Row("lexicon_entry", "BDB1234", "אָב father")) == "Lexicon — אָב father"
    assert title(Row("lexicon_entry", "H1", "אָב (ʼâb) — a father. Also ancestor.")) == "Lexicon H1 אָב — father"
    assert title(Row("word_study", "ws", "A study of grace.", ChunkMetadata(book_id="john"))) == (
        "Word study — John")
    assert title(Row("cross_ref_thread_note", "t", "A chain about faith.")) == (
        "Cross-reference — A chain about faith.")
    assert title(Row("meta_faq", "f", "")) == "Help"
    assert snippet(Row("meta_faq", "f", "")) == "" and citation(Row("meta_faq", "f", "")) == "Help"
    long = "word " * 200
    assert len(snippet(Row("section_panel", "x", long))) <= 160
    assert snippet(Row("section_panel", "x", long)).endswith("…")


@settings(max_examples=300, deadline=None)
@given(
    source_type=st.sampled_from([*SOURCE_TYPES, "other", ""]),
    text=st.text(max_size=400),
    source_id=st.text(max_size=30),
    scholar=st.one_of(st.none(), st.sampled_from([*KNOWN_SCHOLARS, "x", "john_calvin", "-"])),
    book=st.one_of(st.none(), st.sampled_from(["romans", "john", "made-up-book", ""])),
    chapter=st.one_of(st.none(), st.integers(0, 200)),
    verse=st.one_of(st.none(), st.integers(0, 200)),
    panel=st.one_of(st.none(), st.sampled_from(["note", "outline", "book_intro", "quotation", "intro", "zzz"])),
)
def test_any_chunk_gets_one_line_and_never_raises(source_type, text, source_id, scholar, book, chapter,
                                                  verse, panel) -> None:
    meta = ChunkMetadata(scholar_id=scholar, book_id=book, chapter_num=chapter, verse_start=verse,
                         verse_end=verse, panel_type=panel)
    row = Row(source_type, source_id, text, meta)
    for line in (title(row), snippet(row), citation(row)):
        assert "\n" not in line and "\r" not in line and not line.endswith(" — ")
    assert title(row)  # never empty
    assert len(snippet(row)) <= 160
    assert not re.search(r"\bNone\b", title(row) + citation(row)) or "None" in text + source_id
