"""Judgments that travel (``evaluate/interchange/``): Quepid CSV, TREC qrels and ``_rank_eval``, scales."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate.golden import GoldenQuery, GoldenSet
from amicus_desktop.evaluate.interchange import (
    InterchangeError,
    ScaleError,
    export_file,
    import_file,
    named_judges,
    render,
    scale,
)

QUEPID = (
    "query,docid,rating\n"
    "How is a person justified before God?,mhcc:romans:3:21-26#1,3\n"
    "How is a person justified before God?,abbott-smith:G1342#1,1\n"
    '"Jacob, Esau and election",mhcc:romans:9:6-13#1,2\n'
    '"Jacob, Esau and election",nave:jacob:romans,0\n'
    " =SUM(A1),faq:1,1\n"  # Quepid's guard against a spreadsheet formula
    '"a ""quoted"" word",lex:G26,2\n'
)
IDENTITY = scale("0-3", reading=True)


def test_a_quepid_file_round_trips_through_import_and_export_unchanged(tmp_path: Path) -> None:
    source = tmp_path / "case.csv"
    source.write_text(QUEPID, encoding="utf-8")
    golden, summary = import_file(source, "quepid", None, IDENTITY, judge="quepid-team", at="2026-11-27T10:00:00Z")
    assert summary.ratings == 6 and summary.questions_added == 4 and summary.grades_added == 6
    kept = tmp_path / "golden.json"
    golden_io.save(golden, kept)  # through the golden file too
    again = tmp_path / "again.csv"
    export_file(golden_io.load(kept), again, "quepid", scale("0-3", reading=False))
    assert again.read_bytes() == source.read_bytes()
    q = golden_io.load(kept).queries[0]
    assert q.judgments == {"mhcc:romans:3:21-26#1": 3, "abbott-smith:G1342#1": 1}
    assert [r.to_json() for r in q.ratings["mhcc:romans:3:21-26#1"]] == [
        {"by": "quepid-team", "grade": 3, "at": "2026-11-27T10:00:00Z"}]
    # a formula is read without its guard, and written with it
    assert golden_io.load(kept).queries[2].query == "=SUM(A1)"


def test_scales_are_explicit_both_ways(tmp_path: Path) -> None:
    source = tmp_path / "ten.csv"
    source.write_text("query,docid,rating\ngrace,a,7\ngrace,b,1\n", encoding="utf-8")
    with pytest.raises(InterchangeError, match="line 2: rating 7 is not on the scale 0-3"):
        import_file(source, "quepid", None, IDENTITY)
    golden, _ = import_file(source, "quepid", None, scale("1=0,7=3", reading=True), judge="ana")
    assert golden.queries[0].judgments == {"a": 3, "b": 0}
    binary = scale("0-1", reading=False)
    assert render(golden, "quepid", binary) == "query,docid,rating\ngrace,a,1\ngrace,b,0\n"
    assert scale("0-1", reading=True).grade(1.0, "x") == 2
    with pytest.raises(ScaleError, match="grade 2 has no rating"):
        scale("0=0,1=0,3=1", reading=False)
    with pytest.raises(ScaleError, match="not a grade"):
        scale("1=4", reading=True)


def test_trec_qrels_with_topics_into_an_existing_set(tmp_path: Path) -> None:
    existing = GoldenSet("mine", (GoldenQuery("rom-9", "Why Jacob and not Esau?", {"a": 2}),))
    qrels = tmp_path / "run.qrels"
    qrels.write_text("rom-9 0 a 3\nrom-9 0 b 1\nnew-1 0 c 2\n", encoding="utf-8")
    with pytest.raises(InterchangeError, match="line 3: question 'new-1' is not in the set"):
        import_file(qrels, "trec", existing, IDENTITY, judge="ben")
    topics = tmp_path / "run.topics.tsv"
    topics.write_text("new-1\tWhat is agape?\n", encoding="utf-8")
    merged, summary = import_file(qrels, "trec", existing, IDENTITY, judge="ben", topics=topics)
    # the set's grade of "a" is kept (2), ben's 3 is recorded beside it
    assert merged.query("rom-9").judgments == {"a": 2, "b": 1}
    assert [(r.by, r.grade) for r in merged.query("rom-9").ratings["a"]] == [("ben", 3)]
    assert merged.query("new-1").query == "What is agape?"
    assert summary.grades_differing == 1 and summary.questions_added == 1
    replaced, summary = import_file(qrels, "trec", existing, IDENTITY, judge="ben", topics=topics,
                                    replace_grades=True)
    assert replaced.query("rom-9").judgments["a"] == 3 and summary.grades_replaced == 1
    out, out_topics = tmp_path / "out.qrels", tmp_path / "out.topics.tsv"
    export_file(merged, out, "trec", scale("0-3", reading=False), topics=out_topics)
    assert out.read_text().splitlines() == ["rom-9 0 a 2", "rom-9 0 b 1", "new-1 0 c 2"]
    assert out_topics.read_text() == "rom-9\tWhy Jacob and not Esau?\nnew-1\tWhat is agape?\n"


def test_rank_eval_requests_read_and_written(tmp_path: Path) -> None:
    body = {"requests": [
        {"id": "amsterdam", "request": {"query": {"match": {"text": "amsterdam"}}},
         "ratings": [{"_index": "idx", "_id": "d1", "rating": 3}, {"_index": "idx", "_id": "d2", "rating": 0}]},
        {"id": "berlin", "request": {"query": {"multi_match": {"query": "berlin wall"}}},
         "ratings": [{"_index": "idx", "_id": "d3", "rating": 1}]}],
        "metric": {"dcg": {"k": 10, "normalize": True}}}
    path = tmp_path / "rank_eval.json"
    path.write_text(json.dumps(body))
    golden, _ = import_file(path, "rank-eval", None, IDENTITY, judge="ana")
    assert [(q.id, q.query, q.judgments) for q in golden.queries] == [
        ("amsterdam", "amsterdam", {"d1": 3, "d2": 0}), ("berlin", "berlin wall", {"d3": 1})]
    written = json.loads(render(golden, "rank-eval", scale("0-3", reading=False), index="idx"))
    assert written["metric"] == {"dcg": {"k": 10, "normalize": True}}
    assert written["requests"][0] == body["requests"][0]
    path.write_text(json.dumps({"requests": [{"id": "x", "ratings": [{"_id": "d", "rating": "high"}]}]}))
    with pytest.raises(InterchangeError, match=r"requests\[0\]\.ratings\[0\]\.rating: expected a number"):
        import_file(path, "rank-eval", None, IDENTITY)


def test_bad_files_name_their_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("question,doc,grade\n", encoding="utf-8")
    with pytest.raises(InterchangeError, match="line 1: a Quepid ratings file starts with the header"):
        import_file(bad, "quepid", None, IDENTITY)
    bad.write_text("query,docid,rating\ngrace,a,lots\n", encoding="utf-8")
    with pytest.raises(InterchangeError, match="line 2: the rating 'lots' is not a number"):
        import_file(bad, "quepid", None, IDENTITY)
    qrels = tmp_path / "bad.qrels"
    qrels.write_text("q1 0 a\n", encoding="utf-8")
    with pytest.raises(InterchangeError, match="line 1: a qrels line is"):
        import_file(qrels, "trec", None, IDENTITY)


def test_a_judge_is_a_person_named_by_the_file_or_the_importer_never_the_file_name(tmp_path: Path) -> None:
    """Quepid's CSV and TREC qrels name no judge: the importer must; a ``judge`` column names each line's."""
    plain = tmp_path / "ana-quepid.csv"
    plain.write_text("query,docid,rating\ngrace,a,3\n", encoding="utf-8")
    assert named_judges(plain, "quepid") == []
    with pytest.raises(InterchangeError, match="line 2: the file does not say whose rating this is"):
        import_file(plain, "quepid", None, IDENTITY)
    golden, _ = import_file(plain, "quepid", None, IDENTITY, judge="  Ana Ruiz ")
    assert golden.judges() == ["Ana Ruiz"]
    qrels = tmp_path / "x.qrels"
    qrels.write_text("q1 0 a 2\n", encoding="utf-8")
    assert named_judges(qrels, "trec") == []
    several = tmp_path / "team.csv"
    several.write_text("query,docid,rating,judge\ngrace,a,3,ana\ngrace,b,1,ben\nfaith,c,2,\nfaith,a,0,ana\n",
                       encoding="utf-8")
    assert named_judges(several, "quepid") == ["ana", "ben"]
    with pytest.raises(InterchangeError, match="line 4: the file does not say"):
        import_file(several, "quepid", None, IDENTITY)
    golden, summary = import_file(several, "quepid", None, IDENTITY, judge="cleo")
    assert golden.judges() == ["ana", "ben", "cleo"] and summary.ratings == 4
    grace = golden.queries[0]
    assert {c: [r.by for r in rs] for c, rs in grace.ratings.items()} == {"a": ["ana"], "b": ["ben"]}
