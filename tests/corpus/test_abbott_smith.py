"""Abbott-Smith's Manual Greek Lexicon, read from the installed TEI file (Debian's bibledit-data)."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from amicus_desktop.corpus.chunking import MAX_WORDS
from amicus_desktop.corpus.library import DATA_FILES, DataFileNotInstalled, Library
from amicus_desktop.corpus.sources.abbott_smith import (
    abbott_smith_chunks,
    normalise_number,
    parse_entry,
    read_entries,
)

NS = "http://www.crosswire.org/2013/TEIOSIS/namespace"


@pytest.fixture(scope="module")
def entries(library: Library):
    return read_entries(library.data_file("abbott-smith"))


@pytest.fixture(scope="module")
def all_chunks(library: Library):
    return list(abbott_smith_chunks(library, None))


def test_the_file_is_the_1922_lexicon(library: Library):
    root = ET.parse(library.data_file("abbott-smith")).getroot()
    title = root.find(f".//{{{NS}}}titleStmt/{{{NS}}}title")
    author = root.find(f".//{{{NS}}}titleStmt/{{{NS}}}author")
    assert title is not None and "GREEK LEXICON" in (title.text or "")
    assert author is not None and "ABBOTT-SMITH" in (author.text or "")


def test_an_entry_keeps_lemma_count_glosses_and_references(entries):
    by_number = {e.number: e for e in entries}
    e = by_number["G1344"]
    assert e.lemma == "δικαιόω" and e.occurrences == 39
    assert "to declare, pronounce righteous" in e.glosses
    assert "Ro 3:24" in e.body and "צדק" in e.body  # references and the Hebrew of the LXX note
    parts = e.parts()
    assert parts[0].startswith("δικαιόω (Strong's G1344) — G. Abbott-Smith, Manual Greek Lexicon")
    assert "39 times in the NT" in parts[0] and "Glosses: to deem right" in parts[0]
    assert all(p.split("\n", 1)[0].startswith("δικαιόω (Strong's G1344)") for p in parts)


def test_numbers_are_normalised_and_pointers_skipped(entries, all_chunks):
    assert normalise_number("G0901a") == "G901a" and normalise_number("G26") == "G26"
    assert normalise_number("x12") is None and normalise_number("") is None
    by_number = {e.number: e for e in entries}
    assert by_number["G901a"].is_pointer  # "βαθέως, v.s. βαθύς"
    ids = {r.chunk_id for r in all_chunks}
    keys = {cid.split("#")[0] for cid in ids}
    assert "abbott-smith:G901a" not in keys and {"abbott-smith:G901", "abbott-smith:G26"} <= keys
    # two entries share G1328 (διερμηνευτής, ἑρμηνευτής): both kept, ids stay unique
    assert {"abbott-smith:G1328", "abbott-smith:G1328.2"} <= ids
    assert len(ids) == len(all_chunks) > 5000


def test_chunks_are_clean_attributed_and_sized(all_chunks):
    for r in all_chunks:
        m = r.metadata
        assert r.source_type == "lexicon_entry" and r.source_id.startswith("AbbottSmith:G")
        assert (m.scholar_id, m.tradition, m.book_id) == ("g-abbott-smith", None, None)
        assert "Transcriber" not in r.text and "Editor note" not in r.text
        assert not re.search(r"</?[A-Za-z]", r.text), r.chunk_id  # no markup ("< βαρός" is "from")
        assert "  " not in r.text and r.text == r.text.strip()
    long = [r for r in all_chunks if len(r.text.split()) > MAX_WORDS + 50]
    assert long == []
    parts = [r for r in all_chunks if r.chunk_id.startswith("abbott-smith:G1722#")]
    assert len(parts) >= 3 and "continued" in parts[1].text.split("\n", 1)[0]


def test_a_scoped_build_keeps_the_numbers_it_uses(library: Library):
    chunks = list(abbott_smith_chunks(library, {"G26", "G1344", "G901"}))
    keys = {r.chunk_id.split("#")[0] for r in chunks}
    # G901 is βαθύς; G901a (βαθέως) shares its number but only points to it
    assert keys == {"abbott-smith:G26", "abbott-smith:G1344", "abbott-smith:G901"}


def test_an_entry_without_a_number_is_not_a_chunk():
    el = ET.fromstring(f'<entry xmlns="{NS}" lemma="Ἀβειληνή"><form><orth>Ἀβειληνή</orth></form></entry>')
    assert parse_entry(el) is None
    el = ET.fromstring(
        f'<entry xmlns="{NS}" lemma="x" strong="G5|G0007"><note type="occurrencesNT">3</note>'
        f'<note>Transcriber: check</note><sense n="1."><gloss>a gloss</gloss> text , here</sense></entry>'
    )
    entry = parse_entry(el)
    assert entry is not None and entry.numbers == ("G5", "G7") and entry.occurrences == 3
    assert entry.glosses == ("a gloss",) and entry.body == "1. a gloss text, here"


def test_a_missing_file_names_the_package(monkeypatch):
    spec = DATA_FILES["abbott-smith"]
    monkeypatch.setitem(DATA_FILES, "abbott-smith", type(spec)(spec.key, ("/nonexistent/a.xml",),
                                                               spec.package, spec.title))
    lib = Library()
    with pytest.raises(DataFileNotInstalled) as exc:
        lib.data_file("abbott-smith")
    assert "apt-get install bibledit-data" in str(exc.value)
    assert any("bibledit-data" in m for m in lib.check())
