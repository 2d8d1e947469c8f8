"""``amicus-desktop ingest`` (CONTRACT section 13): exit codes, the JSON object, the report, the golden diff."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.evaluate import snapshots
from amicus_desktop.resources import resource_path
from amicus_desktop.store import ScriptureStore
from tests.support.cli import cli, query_json, run
from tests.support.ingest import chunk, document, folder_state, notes, write_jsonl
from tests.support.scripted_proxy import ScriptedProxy

KEYS = ["documents_ingested", "chunks_ingested", "chunks_embedded", "chunks_unchanged", "errors"]


def ingest_json(*args: str) -> tuple[int, dict]:
    code, out, err = run("ingest", *args, "--json")
    assert out.count("\n") == 1, out + err
    return code, json.loads(out)


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=8) as p:
        yield p


def test_every_line_ingested_exits_0_with_the_contract_object(tmp_path: Path, proxy: ScriptedProxy) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", [notes(3), notes(2, prefix="m")])
    code, out = ingest_json(str(corpus), "--db", str(tmp_path / "out.db"), "--proxy", proxy.url)
    assert code == 0
    assert list(out)[:5] == KEYS
    assert [out[k] for k in KEYS] == [2, 5, 5, 0, []]
    assert (out["created"], out["written"], out["model"]) == (True, True, "test-model")
    code, out = ingest_json(str(corpus), "--db", str(tmp_path / "out.db"), "--proxy", proxy.url)
    assert (code, [out[k] for k in KEYS], out["written"]) == (0, [2, 5, 0, 5, []], False)


def test_a_skipped_line_exits_1_and_the_good_lines_are_ingested(tmp_path: Path, proxy: ScriptedProxy) -> None:
    bad = document("bad", [chunk("bad:1", "A note on the wrong chapter.", book_id="jude", chapter_num=2)])
    corpus = write_jsonl(tmp_path / "c.jsonl", [notes(2), bad, "not json", notes(1, prefix="m")])
    code, out = ingest_json(str(corpus), "--db", str(tmp_path / "out.db"), "--proxy", proxy.url)
    assert code == 1
    assert [out[k] for k in KEYS[:4]] == [2, 3, 3, 0]
    assert out["errors"] == [{"line": 2, "message": "/chunks/0/chapter_num: Jude has 1 chapter, not 2"},
                             {"line": 3, "message": "not JSON (Expecting value at column 1)"}]
    with ScriptureStore(tmp_path / "out.db") as store:
        assert store.info.chunk_count == 3
    code, text, err = run("ingest", str(corpus), "--db", str(tmp_path / "out.db"), "--proxy", proxy.url, "--quiet")
    assert code == 1 and err == ""
    assert text.splitlines()[:4] == [
        text.splitlines()[0],
        "2 lines skipped:",
        "  line 2: /chunks/0/chapter_num: Jude has 1 chapter, not 2",
        "  line 3: not JSON (Expecting value at column 1)",
    ]
    assert text.startswith(f"Left unchanged {tmp_path / 'out.db'}: 2 documents, 3 chunks "
                           "(0 new, 0 replaced, 3 unchanged)")


@pytest.mark.parametrize(("args", "message"), [
    (["missing.jsonl", "--db", "out.db"], "missing.jsonl cannot be read"),
    (["c.jsonl"], "the following arguments are required: --db"),
    (["c.jsonl", "--db", "out.db", "--snapshots", "s"], "--snapshots goes with --compare-golden"),
    (["c.jsonl", "--db", "out.db", "--compare-golden", "nope.json"], "nope.json"),
])
def test_usage_errors_exit_2_and_write_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str],
                                               message: str) -> None:
    monkeypatch.chdir(tmp_path)
    write_jsonl(tmp_path / "c.jsonl", [notes(1)])
    code, out, err = run("ingest", *args)
    assert code == 2 and message in err and out == ""
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.jsonl"]


def test_a_library_of_another_model_is_refused_with_model_mismatch(tmp_path: Path, proxy: ScriptedProxy) -> None:
    corpus = write_jsonl(tmp_path / "c.jsonl", [notes(1)])
    assert ingest_json(str(corpus), "--db", str(tmp_path / "out.db"), "--proxy", proxy.url)[0] == 0
    before = folder_state(tmp_path)
    with ScriptedProxy(dims=8, model="other-model") as other:
        code, out = ingest_json(str(corpus), "--db", str(tmp_path / "out.db"), "--proxy", other.url)
    assert code == 1 and out["error"]["code"] == "MODEL_MISMATCH"
    assert "test-model" in out["error"]["message"] and "other-model" in out["error"]["message"]
    assert folder_state(tmp_path) == before


# -- what a new resource changed in the golden set's rankings ------------------------------------

def _axis(i: int, tilt: float = 0.0) -> list[float]:
    v = np.eye(8)[i] + tilt * np.eye(8)[7]
    return (v / np.linalg.norm(v)).tolist()


def test_compare_golden_says_which_questions_got_better_or_worse(tmp_path: Path, proxy: ScriptedProxy) -> None:
    words = lambda *pairs: [chunk(cid, text) for cid, text in pairs]  # noqa: E731
    first = document("a", words(("a:1", "alpha note"), ("a:2", "beta note")), source_type="word_study",
                     scholar_id="ann")
    second = document("b", words(("b:1", "gamma note"), ("b:2", "delta note")), source_type="word_study",
                      scholar_id="bob")
    # Chosen vectors: q1 is answered by the new b:1; q2 by a:1, untouched; q3's judged a:2 is pushed to
    # rank 2 by the new, unjudged b:2, which is closer to q3 than a:2.
    proxy.vectors.update({"alpha note": _axis(0), "beta note": _axis(1), "gamma note": _axis(2),
                          "delta note": _axis(1, 0.3), "question one": _axis(2), "question two": _axis(0),
                          "question three": _axis(1, 0.35)})
    golden = tmp_path / "golden.json"
    golden.write_text(json.dumps({"name": "mine", "queries": [
        {"id": "q1", "query": "question one", "mode": "semantic", "judgments": {"b:1": 3}},
        {"id": "q2", "query": "question two", "mode": "semantic", "judgments": {"a:1": 3}},
        {"id": "q3", "query": "question three", "mode": "semantic", "judgments": {"a:2": 3}},
    ]}))
    db = tmp_path / "lib.db"
    assert ingest_json(str(write_jsonl(tmp_path / "a.jsonl", [first])), "--db", str(db), "--proxy", proxy.url)[0] == 0
    code, out = ingest_json(str(write_jsonl(tmp_path / "b.jsonl", [second])), "--db", str(db), "--proxy", proxy.url,
                            "--compare-golden", str(golden), "--snapshots", str(tmp_path / "snaps"))
    assert code == 0, out
    g = out["golden"]
    assert (g["better"], g["worse"], g["same"]) == (1, 1, 1)
    by_id = {q["id"]: q for q in g["questions"]}
    assert by_id["q1"]["verdict"] == "better" and by_id["q1"]["delta"]["ndcg@10"] == pytest.approx(1.0)
    assert by_id["q1"]["entered"][0] == "b:1" and by_id["q1"]["delta"]["mrr@10"] == pytest.approx(1.0)
    assert by_id["q3"]["verdict"] == "worse" and by_id["q3"]["after"]["mrr@10"] == pytest.approx(0.5)
    assert by_id["q2"]["verdict"] == "same" and by_id["q2"]["delta"]["ndcg@10"] == 0
    assert g["mean"]["delta"]["ndcg@10"] == pytest.approx((1.0 + (1 / np.log2(3) - 1)) / 3)
    # the two snapshots are the workbench's: it can load and compare them
    saved = [Path(p) for p in g["saved"]]
    assert [p.parent for p in saved] == [tmp_path / "snaps"] * 2
    before, after = (snapshots.load(p) for p in saved)
    assert before.ranked("q1") and "b:1" not in before.ranked("q1") and after.ranked("q1")[0] == "b:1"
    # and for a person: the headline, one line per changed question, the means
    code, text, _err = run("ingest", str(tmp_path / "b.jsonl"), "--db", str(db), "--proxy", proxy.url,
                           "--compare-golden", str(golden), "--snapshots", str(tmp_path / "snaps"), "--quiet")
    assert code == 0
    assert "Golden set mine (3 questions; hybrid" in text and "0 better, 0 worse, 3 same after the ingest" in text


def test_compare_golden_from_no_library(tmp_path: Path, proxy: ScriptedProxy) -> None:
    golden = tmp_path / "golden.json"
    golden.write_text(json.dumps({"name": "g", "queries": [
        {"id": "q1", "query": "grace and faith", "mode": "semantic", "judgments": {"n:0": 2}}]}))
    code, out = ingest_json(str(write_jsonl(tmp_path / "c.jsonl", [notes(2)])), "--db", str(tmp_path / "new.db"),
                            "--proxy", proxy.url, "--compare-golden", str(golden), "--snapshots", str(tmp_path / "s"))
    assert code == 0 and out["created"]
    assert (out["golden"]["better"], out["golden"]["same"]) == (1, 0)
    assert out["golden"]["questions"][0]["before"]["ndcg@10"] == 0


@pytest.mark.slow
def test_the_sample_corpus_builds_a_library_with_the_real_model(tmp_path: Path, local_proxy) -> None:
    out = tmp_path / "sample.db"
    sample = resource_path("corpus", "sample-study-notes.jsonl")
    proc = cli("ingest", str(sample), "--db", str(out), "--backend", "local", "--json", timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert [report[k] for k in KEYS] == [5, 13, 13, 0, []]
    with ScriptureStore(out) as store:
        assert store.info.model_id.startswith("all-MiniLM-L6-v2")
        names = {s.name for s in store.scholars().values()}
        assert names == {"Example Pastor (sample author)", "Example Teacher (sample author)"}
    # the real proxy serves the model the library was built with: a question finds its note
    code, result = query_json("Who is my shepherd?", "--db", str(out), "--proxy", local_proxy.url)
    assert code == 0, result
    assert result["results"][0]["chunk_id"] == "sample:psalms:23"
    code, result = query_json("the new covenant written on the heart", "--db", str(out), "--proxy", local_proxy.url,
                              "--mode", "hybrid")
    assert result["results"][0]["chunk_id"] == "sample:jeremiah:31"
    again = cli("ingest", str(sample), "--db", str(out), "--proxy", local_proxy.url, "--json", timeout=300)
    assert again.returncode == 0 and json.loads(again.stdout)["chunks_embedded"] == 0


def test_what_the_corpus_says_reaches_the_terminal_without_control_characters(tmp_path: Path,
                                                                              proxy: ScriptedProxy) -> None:
    bad = document("x", [chunk("x:1", "text")], source_type="\x1b[2J\x9b31m")
    corpus = write_jsonl(tmp_path / "c.jsonl", [bad, notes(1)])
    code, out, _err = run("ingest", str(corpus), "--db", str(tmp_path / "out.db"), "--proxy", proxy.url, "--quiet")
    assert code == 1 and "/source_type:" in out
    assert "\x1b" not in out and "\x9b" not in out and "\\u001b[2J" in out
