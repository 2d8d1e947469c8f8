"""``amicus-desktop eval`` (CONTRACT section 8): metrics from the ranking it reports, compare, exit codes."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from tests.support.cli import run
from tests.support.corpora import corpus
from tests.support.dbs import build_db
from tests.support.scripted_proxy import ScriptedProxy

GOLDEN = {
    "name": "axes",
    "queries": [
        {"id": "justify", "query": "justified by faith",
         "judgments": {"h-justify": 3, "h-law": 2, "lex-1": 1, "gone": 2}},
        {"id": "potter", "query": "potter and clay", "chapter": "romans:9",
         "judgments": {"h-potter": 3, "s-esau": 1}},
        {"id": "none", "query": "nothing relevant", "judgments": {"faq": 0}},
    ],
}


def by_hand(ranked: list[str], judgments: dict[str, int]) -> tuple[float, float, float]:
    """nDCG@10, MRR@10 and Recall@10, written out again from the contract's words."""
    top = ranked[:10]
    gains = [2 ** judgments.get(c, 0) - 1 for c in top]
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains))
    ideal = sorted((2**g - 1 for g in judgments.values() if g >= 1), reverse=True)[:10]
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
    first = next((i for i, c in enumerate(top) if judgments.get(c, 0) >= 2), None)
    relevant = [c for c, g in judgments.items() if g >= 1]
    return (dcg / idcg if idcg else 0.0, 1 / (first + 1) if first is not None else 0.0,
            sum(c in top for c in relevant) / len(relevant) if relevant else 0.0)


@pytest.fixture
def setup(tmp_path: Path):
    db = build_db(tmp_path / "scripture.db", corpus())
    golden = tmp_path / "golden.json"
    golden.write_text(json.dumps(GOLDEN))
    with ScriptedProxy(dims=16) as proxy:
        yield db, golden, proxy


def eval_json(*args: str) -> tuple[int, dict]:
    code, out, err = run("eval", *args, "--json")
    assert out.count("\n") == 1, out + err
    return code, json.loads(out)


@pytest.mark.parametrize("mode", ["semantic", "hybrid", "keyword"])
def test_metrics_follow_from_the_ranking(setup, mode: str) -> None:
    db, golden, proxy = setup
    code, out = eval_json(str(golden), "--db", str(db), "--proxy", proxy.url, "--mode", mode)
    assert code == 0, out
    assert out["name"] == "axes" and [q["id"] for q in out["queries"]] == ["justify", "potter", "none"]
    judged = {q["id"]: q["judgments"] for q in GOLDEN["queries"]}
    for q in out["queries"]:
        assert len(q["ranked"]) <= 10
        n, m, r = by_hand(q["ranked"], judged[q["id"]])
        assert (q["ndcg@10"], q["mrr@10"], q["recall@10"]) == pytest.approx((n, m, r), abs=1e-12)
    for metric in ("ndcg@10", "mrr@10", "recall@10"):
        assert out["mean"][metric] == pytest.approx(sum(q[metric] for q in out["queries"]) / 3)
    assert out["queries"][2]["ndcg@10"] == 0.0 and out["queries"][2]["recall@10"] == 0.0
    assert out["missing_judged_ids"] == ["gone"]
    if mode == "keyword":
        assert out["queries"][0]["ranked"][0] == "h-justify"


def test_a_questions_own_mode_wins(setup, tmp_path: Path) -> None:
    db, _golden, _proxy = setup
    golden = tmp_path / "own.json"
    golden.write_text(json.dumps({"name": "own", "queries": [
        {"id": "k", "query": "potter clay", "mode": "keyword", "judgments": {"h-potter": 3}}]}))
    dead = "http://127.0.0.1:9"  # nothing listens: only a keyword question can be answered
    code, out = eval_json(str(golden), "--db", str(db), "--proxy", dead, "--mode", "semantic")
    assert code == 0 and out["queries"][0]["ranked"][0] == "h-potter"


def test_compare_prints_deltas_and_a_bootstrap_interval(setup) -> None:
    db, golden, proxy = setup
    code, out = eval_json(str(golden), "--db", str(db), "--proxy", proxy.url, "--compare", "mode=keyword,boosts=off")
    assert code == 0, out
    diff = {d["metric"]: d for d in out["difference"]}
    a, b = out["a"], out["b"]
    for metric in ("ndcg@10", "mrr@10", "recall@10"):
        d = diff[metric]
        assert d["delta"] == pytest.approx(b["mean"][metric] - a["mean"][metric])
        assert d["ci95"][0] <= d["delta"] <= d["ci95"][1]
    per = {p["id"]: p for p in out["per_query"]}
    for qa, qb in zip(a["queries"], b["queries"], strict=True):
        assert per[qa["id"]]["ndcg@10"] == pytest.approx(qb["ndcg@10"] - qa["ndcg@10"])
    code, text, _ = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--compare", "mode=keyword")
    assert code == 0 and "95% interval" in text and "better on" in text


def test_exit_codes(setup, tmp_path: Path) -> None:
    db, golden, proxy = setup
    bad = tmp_path / "bad.json"
    bad.write_text('{"name": "x",\n "queries": [{"id": 1}]}')
    code, _, err = run("eval", str(bad), "--db", str(db), "--proxy", proxy.url)
    assert code == 2 and "queries[0].id" in err
    code, _, err = run("eval", str(tmp_path / "absent.json"), "--db", str(db), "--proxy", proxy.url)
    assert code == 2 and "cannot be read" in err
    code, out = eval_json(str(golden), "--db", str(tmp_path / "absent.db"), "--proxy", proxy.url)
    assert code == 1 and out["error"]["code"] == "DB_NOT_FOUND"
    code, _, err = run("eval", str(golden), "--db", str(db), "--compare", "colour=blue")
    assert code == 2 and "unknown key" in err


def test_table_by_default(setup) -> None:
    db, golden, proxy = setup
    code, text, _ = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url)
    assert code == 0 and "nDCG@10" in text and "mean" in text and "not in this database: gone" in text


# -- hostile inputs (#20.9, #20.10, #20.22) --------------------------------------------------------
@pytest.mark.parametrize(
    "spec",
    ["candidates=0", "candidates=5", "candidates=abc", "alpha=2", "alpha=-0.1", "scholar-cap=0",
     "chapter-boost=-1", "reference-boost=0", "scholar-boost=1e308", "tradition-boost=1e999", "mode=fuzzy",
     "fusion=max", "boosts=maybe"],
)
def test_compare_values_are_checked_exactly_like_the_flags(setup, spec: str) -> None:
    """#20.10: ``candidates=0`` and ``alpha=2`` gave tracebacks, ``scholar-cap=0`` was accepted (and
    described as "cap none"), negative boosts too."""
    db, golden, proxy = setup
    code, _out, err = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--compare", spec)
    assert code == 2 and "--compare" in err and "Traceback" not in err, err
    key, _, value = spec.partition("=")
    if key in ("candidates", "alpha", "scholar-cap", "chapter-boost") and value not in ("abc",):
        flag_code, _, flag_err = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, f"--{key}", value)
        assert flag_code == 2  # the flag with the same value is refused by the same rule
        assert flag_err.rsplit("error: ", 1)[-1] == err.rsplit("--compare: ", 1)[-1]


def test_compare_with_a_malformed_proxy_address_is_a_clear_error(setup) -> None:
    db, golden, proxy = setup
    for url in ("http://[::1", "http://localhost:99999"):
        code, out = eval_json(str(golden), "--db", str(db), "--proxy", proxy.url, "--compare", f"proxy={url}")
        assert code == 1 and out["error"]["code"] == "OFFLINE" and "address" in out["error"]["message"]


def test_one_question_that_cannot_be_asked_fails_alone_by_its_id(setup, tmp_path: Path) -> None:
    """#20.22: one over-long question aborted the whole ``eval`` without naming it."""
    db, _golden, proxy = setup
    golden = tmp_path / "long.json"
    queries = [*GOLDEN["queries"][:2], {"id": "too-long", "query": "grace " * 400, "judgments": {"h-law": 2}},
               GOLDEN["queries"][2]]
    golden.write_text(json.dumps({"name": "long", "queries": queries}))
    code, out = eval_json(str(golden), "--db", str(db), "--proxy", proxy.url, "--mode", "keyword")
    assert code == 0, out
    assert [q["id"] for q in out["queries"]] == ["justify", "potter", "too-long", "none"]
    failed = out["queries"][2]
    assert failed["ranked"] == [] and failed["ndcg@10"] == 0.0 and "2,000" in failed["error"]
    assert out["queries"][0]["ranked"] and "error" not in out["queries"][0]
    code, text, _ = run("eval", str(golden), "--db", str(db), "--proxy", proxy.url, "--mode", "keyword")
    assert code == 0 and "FAILED" in text and "could not be asked" in text and "too-long" in text


@pytest.mark.parametrize(
    "content",
    ['{"name": "x", "queries": [{"id": "a", "query": "b", "chapter": "nowhere"}]}',
     '{"name": "x", "queries": [{"id": "a", "query": "b", "mode": ["hybrid"]}]}',
     '{"name": "x", "queries": [{"id": "a", "query": "b", "judgments": {"c": ' + "7" * 5000 + "}}]}",
     '{"name": "x", "queries": ' + "[" * 3000 + "]" * 3000 + "}",
     '{"name": "x", "queries": [{"id": "\\ud800", "query": "b"}]}'],
)
def test_eval_and_relevance_refuse_bad_golden_files_with_exit_2(setup, tmp_path: Path, content: str) -> None:
    db, _golden, proxy = setup
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    for command in (["eval", str(bad), "--db", str(db), "--proxy", proxy.url],
                    ["relevance", str(bad), "--db", str(db)]):
        code, _out, err = run(*command)
        assert code == 2 and "Traceback" not in err and err.strip(), (command, err)
