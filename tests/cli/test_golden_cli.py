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
