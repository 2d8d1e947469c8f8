"""The golden questions asked with no chapter, the chapter they are about and an unrelated one: each chapter
read from the judgments alone, the same on every run."""

from __future__ import annotations

from amicus_desktop.core.references import ChapterRef
from amicus_desktop.evaluate.chapters import about_chapter, unrelated_chapter, variants
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet

LIBRARY = [ChapterRef("romans", n) for n in range(1, 17)] + [ChapterRef("john", n) for n in range(1, 22)]
WHERE = {"r13a": ChapterRef("romans", 13), "r13b": ChapterRef("romans", 13), "r8": ChapterRef("romans", 8),
         "j3": ChapterRef("john", 3)}


def question(qid: str, judgments: dict[str, int], chapter: str | None = "romans:8") -> GoldenQuery:
    return GoldenQuery(qid, "How should Christians treat the government?", judgments, chapter=chapter)


def test_about_is_where_the_judged_gain_concentrates() -> None:
    q = question("g", {"r13a": 2, "r13b": 2, "r8": 3, "j3": 0, "strongs:G1": 3})
    assert about_chapter(q, WHERE, LIBRARY) == ChapterRef("romans", 8)  # one 3 (gain 7) beats two 2s (3 + 3)
    q = question("g", {"r13a": 3, "r13b": 2, "r8": 3})
    assert about_chapter(q, WHERE, LIBRARY) == ChapterRef("romans", 13)  # 7 + 3 beats 7
    assert about_chapter(question("g", {"j3": 0, "strongs:G1": 3}), WHERE, LIBRARY) is None  # nothing in a chapter


def test_unrelated_holds_nothing_relevant_and_is_the_same_every_time() -> None:
    q = question("g", {"r13a": 3, "r8": 1, "j3": 0})
    pick = unrelated_chapter(q, WHERE, LIBRARY)
    assert pick is not None and pick not in {ChapterRef("romans", 13), ChapterRef("romans", 8)}
    assert all(unrelated_chapter(q, WHERE, LIBRARY) == pick for _ in range(3))
    picks = {unrelated_chapter(question(f"q{i}", {"r13a": 3}), WHERE, LIBRARY) for i in range(30)}
    assert len(picks) > 5  # spread over the library by the id's hash


def test_only_the_open_chapter_changes() -> None:
    golden = GoldenSet("g", (question("a", {"r13a": 3}), question("b", {"strongs:G1": 3}, chapter=None)))
    asked = variants(golden, WHERE, LIBRARY)
    assert [q.chapter for q in asked["none"].queries] == [None, None]
    assert [q.chapter for q in asked["about"].queries] == ["romans:13", None]
    assert asked["unrelated"].queries[0].chapter not in (None, "romans:13")
    for v in asked.values():
        assert [(q.id, q.query, q.judgments) for q in v.queries] == [(q.id, q.query, q.judgments)
                                                                     for q in golden.queries]
