"""Each tool's output schema (JSON Schema 2020-12), published with the tool (CONTRACT section 10). No Qt, no I/O.

A tool's structured content is its answer's header, its items (at the call's ``detail``: keys a lower
detail leaves out are optional, those every level keeps are required), ``next_cursor``, ``page`` (what was
cut) and ``library`` (provenance, :mod:`.provenance`). The schemas close every object the server writes
itself (``additionalProperties: false``) and leave open the parts that are other sections' (a result's
``meta`` and ``breakdown``, the bundle's ``query_trace``): those have their own schemas and tests.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

STRING: Schema = {"type": "string"}
INT: Schema = {"type": "integer"}
NUMBER: Schema = {"type": "number"}
OBJECT: Schema = {"type": "object"}
LIST: Schema = {"type": "array"}
TEXT_HASH: Schema = {"type": "string", "pattern": "^sha256:[0-9a-f]{64}$"}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def closed(properties: dict[str, Schema], required: list[str]) -> Schema:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


PAGE = closed({"detail": {"enum": ["ids", "brief", "full"]}, "max_tokens": INT, "tokens": INT,
               "offset": {"type": "integer", "minimum": 0}, "count": {"type": "integer", "minimum": 0},
               "total": {"type": "integer", "minimum": 0}, "cut": {"type": "array", "items": STRING}},
              ["detail", "max_tokens", "tokens", "offset", "count", "total", "cut"])
MODEL = closed({"id": STRING, "dims": INT}, ["id", "dims"])
LIBRARY = closed({"id": {"type": "string", "pattern": "^lib-[0-9a-f]{20}$"}, "model": MODEL,
                  "overlay": nullable(STRING), "workspace": nullable(STRING), "server": STRING},
                 ["id", "model", "overlay", "workspace", "server"])
REF = closed({"book_id": STRING, "chapter_num": INT, "verse_start": nullable(INT), "verse_end": nullable(INT),
              "label": STRING}, ["book_id", "chapter_num", "verse_start", "verse_end"])
WARNINGS: Schema = {"type": "array", "items": {"type": "object", "required": ["code", "message"]}}


def envelope(items_key: str, item: Schema, header: dict[str, Schema], required: list[str]) -> Schema:
    """A tool's structured content: ``header``'s keys, the items, ``next_cursor``, ``page``, ``library``."""
    return closed({**header, items_key: {"type": "array", "items": item}, "next_cursor": nullable(STRING),
                   "page": PAGE, "library": LIBRARY},
                  [*required, items_key, "next_cursor", "page", "library"])


SEARCH = envelope(
    "results",
    closed({"id": STRING, "rank": {"type": "integer", "minimum": 1}, "score": NUMBER, "citation": STRING,
            "text_sha256": TEXT_HASH, "title": STRING, "snippet": STRING, "preview": STRING, "source_type": STRING,
            "source_id": STRING, "meta": OBJECT, "breakdown": OBJECT, "pinned": {"type": "boolean"}},
           ["id", "rank", "score", "citation", "text_sha256"]),
    {"query": STRING, "k": INT, "mode": STRING, "filters": OBJECT, "warnings": WARNINGS, "model": MODEL,
     "timing_ms": OBJECT, "rejected": LIST, "query_trace": OBJECT, "diagnostics": OBJECT, "provenance": LIST},
    ["query", "k", "mode", "filters", "warnings", "model"])

CONTEXT = envelope(
    "chunks",
    closed({"id": STRING, "citation": STRING, "text_sha256": TEXT_HASH, "preview": STRING},
           ["id", "citation", "text_sha256"]),
    {"query": STRING, "budget": INT, "used_tokens": INT, "included": {"type": "array", "items": STRING},
     "dropped": {"type": "array", "items": STRING}, "text": STRING},
    ["query", "budget", "used_tokens", "dropped"])

PASSAGE = envelope(
    "verses",
    closed({"verse": INT, "text": STRING, "preview": STRING, "text_sha256": TEXT_HASH}, ["verse"]),
    {"reference": STRING, "book_id": STRING, "chapter_num": INT, "verse_start": nullable(INT),
     "verse_end": nullable(INT),
     "translation": nullable(closed({"id": STRING, "name": STRING, "abbreviation": STRING},
                                    ["id", "name", "abbreviation"]))},
    ["reference", "book_id", "chapter_num", "verse_start", "verse_end", "translation"])

VERSES = envelope(
    "results",
    closed({"rank": INT, "reference": STRING, "book_id": STRING, "chapter_num": INT, "verse_start": INT,
            "verse_end": INT, "score": NUMBER, "text_sha256": TEXT_HASH, "text": STRING, "preview": STRING,
            "breakdown": OBJECT, "verses": LIST},
           ["rank", "reference", "book_id", "chapter_num", "verse_start", "verse_end", "score", "text_sha256"]),
    {"query": STRING, "mode": STRING, "translation": OBJECT, "model": nullable(MODEL), "warnings": WARNINGS,
     "timing_ms": OBJECT, "query_trace": OBJECT},
    ["query", "mode", "translation", "model", "warnings"])

XREFS = envelope(
    "cross_references",
    closed({"ref": REF, "score": NUMBER, "sources": {"type": "array", "items": STRING}, "text": STRING,
            "preview": STRING, "evidence": LIST, "text_sha256": TEXT_HASH}, ["ref", "score", "sources"]),
    {"verse": REF, "sources": {"type": "array", "items": STRING}, "available": {"type": "array", "items": STRING},
     "notice": STRING},
    ["verse", "sources", "available", "notice"])

STRONGS = envelope(
    "items",
    closed({"kind": {"enum": ["entry", "word_study", "verse"]}, "chunk_id": STRING, "source_type": STRING,
            "title": STRING, "text": STRING, "preview": STRING, "ref": REF, "highlight": LIST,
            "words": {"type": "array", "items": STRING}, "text_sha256": TEXT_HASH}, ["kind", "text_sha256"]),
    {"number": STRING, "language": STRING, "lemma": STRING, "translit": STRING, "book": nullable(STRING),
     "total": INT, "books": {"type": "object", "additionalProperties": INT}, "notice": STRING},
    ["number", "language", "lemma", "total", "notice"])

NOTE_REF = nullable(closed({"book_id": STRING, "chapter_num": INT, "verse_start": nullable(INT),
                            "verse_end": nullable(INT)}, ["book_id", "chapter_num", "verse_start", "verse_end"]))
NOTES = envelope(
    "notes",
    closed({"id": STRING, "ref": NOTE_REF, "label": nullable(STRING), "text_sha256": TEXT_HASH, "text": STRING,
            "preview": STRING, "created": STRING, "updated": STRING}, ["id", "ref", "label", "text_sha256"]),
    {"workspace": STRING, "embedded": {"type": "boolean"}},
    ["workspace"])

OUTPUT: dict[str, Schema] = {"search_library": SEARCH, "get_context": CONTEXT, "read_passage": PASSAGE,
                             "search_verses": VERSES, "cross_references": XREFS, "strongs": STRONGS,
                             "list_notes": NOTES, "add_note": NOTES}


def output_schema(tool: str) -> Schema:
    """The output schema published for ``tool`` (a copy)."""
    import copy

    return copy.deepcopy(OUTPUT[tool])
