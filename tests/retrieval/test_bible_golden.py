"""The whole-Bible topical golden set (issue 33 item 7, docs/RELEVANCE.md "Answers across the whole Bible"): its
judgments are traceable — every grade has its reason, both phrasings of a topic share their judgments, the
halves are equal and fixed — and the rule that made them judges a real library as it says."""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from amicus_desktop.evaluate.golden import load

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "resources/golden/bible.json"
TOPICS = ROOT / "scripts/golden/bible_topics.json"


def test_every_judgment_has_its_reason_and_both_phrasings_share_them() -> None:
    golden = load(GOLDEN)
    raw = {q["id"]: q for q in json.loads(GOLDEN.read_text())["queries"]}
    topics = json.loads(TOPICS.read_text())["topics"]
    assert len(golden.queries) == 2 * len(topics) >= 80
    by_topic: dict[str, list[str]] = {}
    for q in golden.queries:
        assert q.kind in ("topic", "question")
        assert set(raw[q.id]["rationale"]) == set(q.judgments)
        assert all(raw[q.id]["rationale"][c] for c in q.judgments)
        by_topic.setdefault(q.extra["topic_id"], []).append(q.id)
    for ids in by_topic.values():
        assert len(ids) == 2 and raw[ids[0]]["judgments"] == raw[ids[1]]["judgments"]
        assert raw[ids[0]]["split"] == raw[ids[1]]["split"]
    halves = Counter(raw[ids[0]]["split"] for ids in by_topic.values())
    assert abs(halves["train"] - halves["held-out"]) <= 1
    # commentary holds the best answers: every grade 3 is a commentary note naming the topic on a listed verse
    for q in golden.queries:
        for chunk, grade in q.judgments.items():
            if grade == 3:
                assert chunk.startswith(("mhcc:", "scofield:", "tdavid:")), chunk
                assert "listed by Nave's" in raw[q.id]["rationale"][chunk]


def test_the_rule_judges_a_real_library(study_db: Path) -> None:
    sys.path.insert(0, str(ROOT / "scripts/golden"))
    try:
        from bible_judge import judge, splits
    finally:
        sys.path.pop(0)
    from amicus_desktop.corpus.library import Library

    topics = [{"id": "joy", "topic": "joy", "question": "How can a believer rejoice in hard times?",
               "nave": ["JOY"], "terms": ["joy", "rejoic", "glad"]}]
    queries = judge(study_db, topics, Library())
    assert [q["id"] for q in queries] == ["bt-joy", "bq-joy"]
    judged = queries[0]["judgments"]
    why = queries[0]["rationale"]
    # Henry on Romans 5:1-5 covers 5:2 ("rejoice in hope"), which Nave's lists under JOY, and says "rejoice"
    threes = [c for c, g in judged.items() if g == 3]
    assert threes and all(c.startswith(("mhcc:", "scofield:")) for c in threes)
    assert all("JOY" in why[c] for c in threes)
    assert all(g in (1, 2, 3) for g in judged.values())
    assert splits(["a", "b", "c", "d"]) == splits(["d", "c", "b", "a"])
