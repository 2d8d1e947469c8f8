"""Reading an ingest corpus: good lines become documents, every bad line is skipped and named by line and field."""

from __future__ import annotations

import json

import pytest

from amicus_desktop.core.books import BY_ID
from amicus_desktop.core.query import SOURCE_TYPES
from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.corpus.build import embedding_text
from amicus_desktop.corpus.documents import parse_lines, read_corpus, validator
from amicus_desktop.proxy.server import MAX_CHARS
from amicus_desktop.resources import resource_path
from amicus_desktop.store.writer import ChunkRecord
from tests.support.ingest import chunk, document

GOOD = document("smith-romans", [chunk("smith:romans:9:1", "Paul grieves for Israel.", book_id="romans",
                                       chapter_num=9, verse_start=1, verse_end=5)],
                title="Notes on Romans", scholar_id="john-smith", scholar_name="John Smith", tradition="baptist")


def line(obj: object) -> str:
    return json.dumps(obj)


def test_good_lines_become_documents_and_blank_lines_still_count() -> None:
    other = document("faq", [chunk("faq:1", "How do I search?")], source_type="meta_faq")
    corpus = parse_lines([line(GOOD), "", "   ", line(other)])
    assert corpus.errors == () and corpus.lines == 2
    first, second = corpus.documents
    assert (first.line, second.line) == (1, 4)
    assert (first.title, first.scholar_id, first.scholar_name, first.tradition) == (
        "Notes on Romans", "john-smith", "John Smith", "baptist")
    assert first.records == (ChunkRecord("smith:romans:9:1", "section_panel", "smith-romans",
                                         "Paul grieves for Israel.",
                                         ChunkMetadata("john-smith", "baptist", "romans", 9, 1, 5, None)),)
    assert second.records[0].metadata == ChunkMetadata() and second.scholar_id is None


def _bad(**changes: object) -> dict[str, object]:
    doc = json.loads(json.dumps(GOOD))
    for key, value in changes.items():
        if key.startswith("chunk_"):
            doc["chunks"][0][key[len("chunk_"):]] = value
        else:
            doc[key] = value
    return doc


@pytest.mark.parametrize(("text", "expected"), [
    ("{not json", "not JSON (Expecting property name enclosed in double quotes at column 2)"),
    ("[1, 2]", "/: a document is a JSON object, not a list"),
    (line({k: v for k, v in GOOD.items() if k != "source_id"}), "/source_id: missing (required)"),
    (line(_bad(chunks=[{"chunk_id": "x"}])), "/chunks/0/text: missing (required)"),
    (line(_bad(chunk_chapter_num="nine")), '/chunks/0/chapter_num: must be a whole number or null, not "nine"'),
    (line(_bad(source_type="sermon")), '/source_type: "sermon" is not one of ' + ", ".join(SOURCE_TYPES)),
    (line(_bad(chunk_book_id="rom")), "/chunks/0/book_id: \"rom\" is not a book of the Bible (did you mean 'romans'?)"),
    (line(_bad(chunk_chapter_num=17)), "/chunks/0/chapter_num: Romans has 16 chapters, not 17"),
    (line(_bad(chunk_verse_end=0)), "/chunks/0/verse_end: must be at least 1, not 0"),
    (line(_bad(chunk_verse_start=6)), "/chunks/0/verse_end: 5 comes before verse_start 6"),
    (line(_bad(chunk_book_id=None)), "/chunks/0/chapter_num: a chapter needs a book_id"),
    (line(_bad(scholar_nmae="J. Smith")), "/scholar_nmae: unknown field (the fields are source_id, title, "
     "source_type, scholar_id, scholar_name, tradition, chunks)"),
    (line(_bad(chunks=[])), "/chunks: must hold at least 1 chunk"),
    (line(_bad(chunk_text=" \n ")), "/chunks/0/text: must not be blank"),
    (line(_bad(chunk_text="x" * 8000)), "/chunks/0/text: 8,000 characters; at most 7,900"),
    (line(_bad(chunk_chunk_id="a b")), "/chunks/0/chunk_id: must not contain spaces"),
    (line(_bad(scholar_id=None)), "/scholar_name: needs a scholar_id"),
    (line(_bad(chunks=[GOOD["chunks"][0], GOOD["chunks"][0]])),
     '/chunks/1/chunk_id: "smith:romans:9:1" is also /chunks/0 of this line'),
])
def test_a_bad_line_is_skipped_and_the_field_named(text: str, expected: str) -> None:
    other = document("other", [chunk("other:1", "Another note.")])
    corpus = parse_lines([line(other), text, line(document("last", [chunk("last:1", "The last note.")]))])
    assert [d.line for d in corpus.documents] == [1, 3]
    assert corpus.skipped_lines == (2,)
    assert [e.line for e in corpus.errors] == [2] * len(corpus.errors)
    assert expected in [e.message for e in corpus.errors], corpus.errors


def test_every_problem_of_a_line_is_listed_in_the_line_order() -> None:
    bad = _bad(source_type="sermon", chunk_chapter_num="nine", chunk_verse_start="1")
    messages = [e.message for e in parse_lines([line(bad)]).errors]
    assert [m.split(":")[0] for m in messages] == ["/chunks/0/chapter_num", "/chunks/0/verse_start", "/source_type"]


def test_chunk_ids_repeat_across_lines_and_a_skipped_line_claims_none() -> None:
    bad = _bad(chunk_chapter_num=99)  # skipped: its chunk id stays free
    again = document("again", [chunk("smith:romans:9:1", "A second note with the same id.")])
    corpus = parse_lines([line(bad), line(GOOD), line(again)])
    assert [d.line for d in corpus.documents] == [2]
    assert [(e.line, e.message) for e in corpus.errors] == [
        (1, "/chunks/0/chapter_num: Romans has 16 chapters, not 99"),
        (3, '/chunks/0/chunk_id: "smith:romans:9:1" is already on line 2'),
    ]


def test_one_name_and_tradition_per_scholar() -> None:
    same = document("more", [chunk("more:1", "More notes.")], scholar_id="john-smith", scholar_name="John Smith")
    renamed = document("odd", [chunk("odd:1", "Odd notes.")], scholar_id="john-smith", scholar_name="J. Smith",
                       tradition="reformed")
    corpus = parse_lines([line(GOOD), line(same), line(renamed)])
    assert [d.line for d in corpus.documents] == [1, 2]
    assert [e.message for e in corpus.errors] == [
        '/scholar_name: "J. Smith" differs from "John Smith" on line 1 for scholar "john-smith"',
        '/tradition: "reformed" differs from "baptist" on line 1 for scholar "john-smith"',
    ]


def test_bytes_that_are_not_utf8_and_a_byte_order_mark() -> None:
    corpus = parse_lines(["\ufeff".encode() + line(GOOD).encode(), b'{"source_id": "\xff"}'])
    assert [d.line for d in corpus.documents] == [1]
    assert [(e.line, e.message) for e in corpus.errors] == [(2, "not UTF-8 text (byte 16)")]


def test_the_schema_agrees_with_the_code() -> None:
    schema = validator().schema
    assert schema["properties"]["source_type"]["enum"] == list(SOURCE_TYPES)
    # the longest text, with the longest reference the builder puts in front, fits one proxy input
    limit = schema["$defs"]["chunk"]["properties"]["text"]["maxLength"]
    longest = max(BY_ID.values(), key=lambda b: len(b.name))
    rec = ChunkRecord("x", "section_panel", "x", "x" * limit,
                      ChunkMetadata(book_id=longest.book_id, chapter_num=150, verse_start=176, verse_end=176))
    assert len(embedding_text(rec)) <= MAX_CHARS


def test_the_sample_corpus_is_a_sample_and_reads_without_error() -> None:
    corpus = read_corpus(resource_path("corpus", "sample-study-notes.jsonl"))
    assert corpus.errors == () and len(corpus.documents) == 5 and len(corpus.records) == 13
    assert all(d.scholar_name and d.scholar_name.endswith("(sample author)") for d in corpus.documents)
    assert all(d.title and d.title.startswith("Sample Study Notes") for d in corpus.documents)
    assert all(r.text.startswith("Sample ") for r in corpus.records)
