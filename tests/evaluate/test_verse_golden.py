"""The shipped verse golden set (resources/golden/verses.json): its shape, and that every verse it judges exists."""

from __future__ import annotations

import json
import re

import pytest
import pythonbible as pb

from amicus_desktop.core.books import BY_ID
from amicus_desktop.evaluate import load
from amicus_desktop.resources import resource_path

KINDS = {"topic", "question", "paraphrase"}
VERSE_ID = re.compile(r"^([a-z0-9-]+):(\d+):(\d+)$")


@pytest.fixture(scope="module")
def raw() -> dict[str, object]:
    data: dict[str, object] = json.loads(resource_path("golden", "verses.json").read_text(encoding="utf-8"))
    return data


def test_it_reads_as_a_golden_set_with_enough_questions() -> None:
    golden = load(resource_path("golden", "verses.json"))
    assert len(golden.queries) >= 60
    assert len({q.id for q in golden.queries}) == len(golden.queries)
    assert golden.extra["provenance"]


def test_every_query_has_a_valid_kind_and_a_source(raw: dict[str, object]) -> None:
    queries = raw["queries"]
    assert isinstance(queries, list)
    for q in queries:
        assert q["kind"] in KINDS, q["id"]
        assert q["id"].startswith(q["kind"] + "-"), q["id"]
        assert isinstance(q["source"], str) and q["source"], q["id"]
    assert {q["kind"] for q in queries} == KINDS


def test_every_grade_is_0_to_3_with_a_reason(raw: dict[str, object]) -> None:
    queries = raw["queries"]
    assert isinstance(queries, list)
    for q in queries:
        judgments, rationale = q["judgments"], q["rationale"]
        assert judgments, q["id"]
        assert set(rationale) == set(judgments), q["id"]
        for verse, grade in judgments.items():
            assert type(grade) is int and 0 <= grade <= 3, (q["id"], verse)
            assert isinstance(rationale[verse], str) and rationale[verse].strip(), (q["id"], verse)
        assert max(judgments.values()) >= 2, f"{q['id']} has no verse that answers it"
        assert set(q["judge_named"]) <= set(judgments), q["id"]


def test_every_judged_verse_exists_in_the_canon(raw: dict[str, object]) -> None:
    queries = raw["queries"]
    assert isinstance(queries, list)
    for q in queries:
        for verse in q["judgments"]:
            m = VERSE_ID.match(verse)
            assert m, (q["id"], verse)
            book, chapter, number = BY_ID.get(m.group(1)), int(m.group(2)), int(m.group(3))
            assert book is not None, (q["id"], verse)
            assert 1 <= chapter <= book.chapters, (q["id"], verse)
            assert 1 <= number <= pb.get_number_of_verses(pb.Book(book.ordinal), chapter), (q["id"], verse)
