"""``golden import|export`` and ``eval``'s curator tools: --agreement, --gaps, --search-weights, the history,
and what a comparison says about the judged share of each side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate import history
from tests.support.cli import run
from tests.support.corpora import corpus
from tests.support.dbs import build_db
from tests.support.scripted_proxy import ScriptedProxy

from .test_eval import GOLDEN

QUEPID = ("query,docid,rating\n"
          "justified by faith,h-justify,3\njustified by faith,h-law,2\njustified by faith,lex-1,1\n"
          "potter and clay,h-potter,3\npotter and clay,s-esau,1\n"
          '"grace, and works",s-grace,2\n')


@pytest.fixture
def setup(tmp_path: Path):
    db = build_db(tmp_path / "scripture.db", corpus())
    golden = tmp_path / "golden.json"
    golden.write_text(json.dumps(GOLDEN))
    with ScriptedProxy(dims=16) as proxy:
        yield db, golden, proxy


def test_a_quepid_csv_round_trips_through_import_and_export_unchanged(tmp_path: Path) -> None:
    source, kept, again = tmp_path / "case.csv", tmp_path / "kept.json", tmp_path / "again.csv"
    source.write_text(QUEPID, encoding="utf-8")
    code, out, err = run("golden", "import", str(source), "--format", "quepid", "--into", str(kept), "--judge", "ana")
    assert code == 0, err
    assert "6 ratings read, 3 questions added, 6 grades added" in out
    assert golden_io.load(kept).judges() == ["ana"] and golden_io.load(kept).name == "kept"
    code, out, err = run("golden", "export", str(kept), "--format", "quepid", "--out", str(again))
    assert code == 0, err
    assert again.read_bytes() == source.read_bytes()
    # a second judge on another scale: their ratings recorded, the set's grades kept
    second = tmp_path / "ben.csv"
    second.write_text("query,docid,rating\njustified by faith,h-justify,1\njustified by faith,h-law,0\n")
    code, out, _ = run("golden", "import", str(second), "--format", "quepid", "--into", str(kept), "--judge", "ben",
                       "--scale", "0-1")
    assert code == 0 and "2 differ from the set's grade" in out
    code, out, _ = run("eval", str(kept), "--agreement", "--json")
    found = json.loads(out)
    assert code == 0 and found["judges"] == ["ana", "ben"] and found["items"] == 2
    assert found["pairs"][0]["confusion"][3][2] == 1 and found["pairs"][0]["confusion"][2][0] == 1
    code, text, _ = run("eval", str(kept), "--agreement")
    assert "Krippendorff's α (ordinal)" in text and "Cohen's κ (linear weights)" in text


def test_bad_import_and_export_exit_2_naming_the_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_text("query,docid,rating\ngrace,a,9\n")
    code, _, err = run("golden", "import", str(bad), "--format", "quepid", "--into", str(tmp_path / "g.json"))
    assert code == 2 and "line 2: rating 9 is not on the scale 0-3" in err and not (tmp_path / "g.json").exists()
    code, _, err = run("golden", "export", str(bad), "--format", "trec", "--out", str(tmp_path / "x.qrels"))
    assert code == 2 and "error:" in err
    golden = tmp_path / "g.json"
    golden.write_text(json.dumps(GOLDEN))
    code, _, err = run("golden", "export", str(golden), "--format", "trec", "--out", str(tmp_path / "x.db"))
    assert code == 2 and "looks like a database file" in err


def test_eval_says_what_the_scores_rest_on_and_keeps_the_run(setup) -> None:
    db, golden, proxy = setup
    code, out, err = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--mode", "hybrid", "--json")
    assert code == 0, err
    report = json.loads(out)
    for q in report["queries"]:
        judged = {g["id"]: g["judgments"] for g in GOLDEN["queries"]}[q["id"]]
        assert q["unjudged"] == [c for c in q["ranked"] if c not in judged]
    assert report["misses"]["search"] + report["misses"]["rerank"] >= 0 and 0 <= report["pool_recall"] <= 1
    runs = history.load(paths.history_dir(), "axes")
    assert len(runs) == 1 and runs[0].metrics["ndcg@10"] == pytest.approx(report["mean"]["ndcg@10"])
    assert runs[0].library == str(db) and runs[0].source == "eval"
    run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--no-history")
    assert len(history.load(paths.history_dir(), "axes")) == 1

    code, text, _ = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--gaps")
    assert code == 0 and ("unjudged chunks in the top 10s" in text or "is judged" in text)
    code, text, _ = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--compare", "mode=keyword")
    assert code == 0 and "Judged share of the top 10s: A" in text
    code, out, _ = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--compare", "mode=keyword",
                       "--json")
    assert set(json.loads(out)["judged_share"]) == {"a", "b"}


def test_search_weights_reports_train_and_held_out(setup) -> None:
    db, golden, proxy = setup
    code, out, err = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--preset", "app",
                         "--search-weights", "--budget", "20", "--json")
    assert code == 0, err
    found = json.loads(out)
    assert found["train"]["questions"] + found["held_out"]["questions"] == 3
    assert found["held_out"]["ci95"][0] <= found["held_out"]["delta"] <= found["held_out"]["ci95"][1]
    assert any("held-out questions" in w for w in found["warnings"])
    code, _, err = run("eval", str(golden), "--db", str(db), "--search-weights", "--gaps")
    assert code == 2 and "choose one of" in err


@pytest.mark.parametrize("fmt", ["quepid", "trec"])
def test_the_unjudged_chunks_go_out_to_be_judged_and_come_back(setup, tmp_path: Path, fmt: str) -> None:
    """``eval --gaps --out`` writes the queue with no ratings; read back unchanged it adds nothing (and a second
    export is the same bytes); with ratings filled in by a judge elsewhere, those grades join the set."""
    db, golden, proxy = setup
    out, topics = tmp_path / f"gaps.{'csv' if fmt == 'quepid' else 'qrels'}", tmp_path / "topics.tsv"
    extra = ["--topics", str(topics)] if fmt == "trec" else []
    args = ("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--no-history", "--gaps")
    code, _, err = run(*args, "--out", str(out), "--format", fmt, *extra, "--json")
    assert code == 0, err
    code, listed, _ = run(*args, "--json")
    gaps = json.loads(listed)["gaps"]
    assert gaps, "the test set must leave something unjudged"
    sent = out.read_bytes()
    lines = out.read_text(encoding="utf-8").splitlines()
    if fmt == "quepid":
        assert lines[0] == "query,docid,rating" and len(lines) == len(gaps) + 1
        assert all(line.endswith(",") for line in lines[1:])  # no rating yet
    else:
        assert len(lines) == len(gaps) and all(line.endswith(" -") for line in lines)
        assert {line.split("\t")[0] for line in topics.read_text(encoding="utf-8").splitlines()} == {
            g["query_id"] for g in gaps}
    before = golden.read_bytes()
    imported = ("golden", "import", str(out), "--format", fmt, "--into", str(golden), "--judge", "ana", *extra)
    code, said, err = run(*imported)
    assert code == 0, err
    assert "0 ratings read" in said and golden.read_bytes() == before  # nothing judged yet: nothing changes
    code, _, err = run(*args, "--out", str(out), "--format", fmt, *extra)
    assert code == 0 and out.read_bytes() == sent, err  # the same queue, byte for byte

    # a judge fills in the first two ratings elsewhere
    if fmt == "quepid":
        judged = [lines[0], lines[1] + "3", lines[2] + "1", *lines[3:]]
    else:
        judged = [lines[0][:-1] + "3", lines[1][:-1] + "1", *lines[2:]]
    out.write_text("\n".join(judged) + "\n", encoding="utf-8")
    code, said, err = run(*imported)
    assert code == 0 and "2 grades added" in said, err
    back = golden_io.load(golden)
    assert back.query(gaps[0]["query_id"]).judgments[gaps[0]["chunk_id"]] == 3
    assert back.query(gaps[1]["query_id"]).judgments[gaps[1]["chunk_id"]] == 1


def test_gaps_out_is_refused_before_anything_is_asked(setup, tmp_path: Path) -> None:
    db, golden, proxy = setup
    code, _, err = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--out", str(tmp_path / "x.csv"))
    assert code == 2 and "--gaps" in err
    code, _, err = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--gaps", "--out", str(tmp_path))
    assert code == 2 and "error" in err
