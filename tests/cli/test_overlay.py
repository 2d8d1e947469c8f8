"""``query``, ``context`` and ``eval`` with ``--overlay`` (CONTRACT section 12), on the library the sample
corpus builds and the shipped sample overlay: a forbidden hit and a vocabulary boost, flags given explicitly
winning over the overlay's policy, an invalid overlay as a usage error naming its first problem's pointer,
``query_trace.overlay`` and ``provenance``, and ``no_overlay``: a bundle asked without one says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amicus_desktop.resources import resource_path
from tests.support.cli import query_json, run

SAMPLE = str(resource_path("overlays", "sample-pastor.json"))
COVENANT = "What does the new covenant promise?"


def ask(db: Path, *args: str, question: str = COVENANT) -> dict[str, Any]:
    code, out = query_json(question, "--db", str(db), *args)
    assert code == 0, out
    return out


def test_the_sample_overlay_shows_a_forbidden_hit_and_a_vocabulary_boost(sample_db: Path) -> None:
    out = ask(sample_db, "--overlay", SAMPLE, "--mode", "keyword")  # keyword: no proxy needed
    assert out["query_trace"]["overlay"] == "sample-pastor"
    # the word study on "covenant" is the best keyword match, and forbidden: rejected with its rule
    assert out["rejected"][0] == {**out["rejected"][0], "chunk_id": "sample:word:covenant",
                                  "reason": "forbidden_source", "rule": "/source_policy/forbidden_source_types"}
    assert "sample:word:covenant" not in [r["chunk_id"] for r in out["results"]]
    assert out["diagnostics"]["rejected_by_reason"]["forbidden_source"] == 1
    assert out["warnings"][0]["code"] == "forbidden_hit"
    assert "sample-pastor" in out["warnings"][0]["message"] and "word study" in out["warnings"][0]["message"]
    # covenant language first: Jeremiah 31 holds "covenant" and is boosted ×1.2 (the overlay's weight)
    top = out["results"][0]
    assert top["chunk_id"] == "sample:jeremiah:31" and top["breakdown"]["vocabulary_boost"] == 1.2
    b = top["breakdown"]
    assert top["score"] == pytest.approx(b["base"] * b["chapter_boost"] * b["scholar_boost"] * b["tradition_boost"]
                                         * b["reference_boost"] * b["vocabulary_boost"])
    # the boost terms joined the keyword search's words
    assert out["query_trace"]["keywords"] == ["new", "covenant", "promise", "promises"]
    # the preferred sources are the profile: Example Pastor ×1.1, reformed ×1.05
    pastor = next(r for r in out["results"] if r["metadata"]["scholar_id"] == "example-pastor")
    assert (pastor["breakdown"]["scholar_boost"], pastor["breakdown"]["tradition_boost"]) == (1.1, 1.05)
    assert out["provenance"] == [
        {"scholar_id": "example-pastor", "name": "Example Pastor (sample author)", "count": 2},
        {"scholar_id": "example-teacher", "name": "Example Teacher (sample author)", "count": 1},
    ]


def test_a_suppress_term_counts_against_a_chunk(sample_db: Path) -> None:
    out = ask(sample_db, "--overlay", SAMPLE, "--mode", "keyword", question="the Word became flesh tabernacle")
    john = next(r for r in out["results"] if r["chunk_id"] == "sample:john:1:14")  # holds "tabernacle"
    assert john["breakdown"]["vocabulary_boost"] == pytest.approx(1 / 1.2)


def test_no_overlay_the_bundle_says_none_was_used_and_keeps_the_contracts_keys(sample_db: Path) -> None:
    out = ask(sample_db, "--mode", "keyword")
    assert out["query_trace"]["overlay"] is None
    assert "sample:word:covenant" in [r["chunk_id"] for r in out["results"]]  # nothing is forbidden
    assert all("vocabulary_boost" not in r["breakdown"] for r in out["results"])
    assert out["query_trace"]["keywords"] == ["new", "covenant", "promise"]
    assert {p["scholar_id"] for p in out["provenance"]} == {"example-pastor", "example-teacher"}


def test_the_overlays_policy_applies_and_a_flag_given_explicitly_wins(sample_db: Path, tmp_path: Path) -> None:
    overlay = tmp_path / "o.json"
    overlay.write_text(json.dumps({"role_id": "tight", "vocabulary": {"boost": ["covenant"]},
                                   "retrieval_policy": {"mode": "keyword", "k": 2, "scholar_cap": None,
                                                        "weights": {"vocabulary": 2.0, "scholar": 3.0}},
                                   "source_policy": {"preferred_scholars": ["example-teacher"]}}))
    out = ask(sample_db, "--overlay", str(overlay))
    assert out["mode"] == "keyword" and len(out["results"]) == 2  # the overlay's mode and k
    assert out["results"][0]["breakdown"]["vocabulary_boost"] == 2.0
    assert out["results"][0]["breakdown"]["scholar_boost"] == 3.0  # Example Teacher, preferred by the overlay
    # explicit flags win, in any spelling argparse accepts (an abbreviation, --flag=value)
    out = ask(sample_db, "--overlay", str(overlay), "--k=3", "--vocab", "1.5", "--prefer-scholar", "example-pastor")
    assert len(out["results"]) == 3
    assert {r["breakdown"]["vocabulary_boost"] for r in out["results"]} <= {1.0, 1.5}
    teacher = [r for r in out["results"] if r["metadata"]["scholar_id"] == "example-teacher"]
    assert teacher and all(r["breakdown"]["scholar_boost"] == 1.0 for r in teacher)
    # a preset's value yields to the overlay's; a flag to neither
    assert ask(sample_db, "--overlay", str(overlay), "--preset", "app")["mode"] == "keyword"


def test_a_pinned_chunk_the_overlay_forbids_is_never_shown(sample_db: Path) -> None:
    out = ask(sample_db, "--overlay", SAMPLE, "--mode", "keyword", "--pin", "sample:thread:beginning",
              "--pin", "sample:psalms:23")
    assert [r["chunk_id"] for r in out["results"] if r.get("pinned")] == ["sample:psalms:23"]
    assert {"chunk_id": "sample:thread:beginning", "reason": "forbidden_source"}.items() <= next(
        r for r in out["rejected"] if r["chunk_id"] == "sample:thread:beginning").items()


@pytest.mark.parametrize(("content", "pointer"), [
    ('{"role_id": "Bad Id"}', "/role_id"),
    ('{"role_id": "r", "retrieval_policy": {"k": 99}}', "/retrieval_policy/k"),
    ('{"role_id": "r", "vocabulary": {"boost": "covenant"}}', "/vocabulary/boost"),
    ('{"role_id": "r", "source_policy": {"forbidden_source_types": ["sermons"]}}',
     "/source_policy/forbidden_source_types/0"),
    ("{not json", "/"),
])
def test_an_invalid_overlay_is_a_usage_error_naming_its_first_problem(sample_db: Path, tmp_path: Path,
                                                                      content: str, pointer: str) -> None:
    overlay = tmp_path / "bad.json"
    overlay.write_text(content)
    for command in (["query", "grace"], ["context", "grace"], ["eval", SAMPLE]):
        code, out, err = run(*command, "--db", str(sample_db), "--overlay", str(overlay), "--mode", "keyword")
        assert code == 2 and out == "", err
        assert f"--overlay: bad.json is not a valid overlay: {pointer}: " in err


def test_an_overlay_policy_that_clashes_with_a_flag_is_a_usage_error(sample_db: Path, tmp_path: Path) -> None:
    overlay = tmp_path / "o.json"
    overlay.write_text('{"role_id": "r", "retrieval_policy": {"k": 20}}')
    code, _out, err = run("query", "grace", "--db", str(sample_db), "--overlay", str(overlay), "--candidates", "10")
    assert code == 2 and "candidates (10) must be at least k (20)" in err


def test_context_under_the_overlay_leaves_out_what_it_forbids(sample_db: Path) -> None:
    code, out, err = run("context", COVENANT, "--db", str(sample_db), "--overlay", SAMPLE, "--mode", "keyword",
                         "--format", "json")
    assert code == 0, err
    block = json.loads(out)
    assert block["included"][0] == "sample:jeremiah:31" and "sample:word:covenant" not in block["included"]


def test_eval_with_an_overlay_scores_the_golden_set_its_eval_profile_names(sample_db: Path) -> None:
    code, out, err = run("eval", "--db", str(sample_db), "--overlay", SAMPLE, "--mode", "keyword", "--json")
    assert code == 0, err
    report = json.loads(out)
    assert report["name"] == "sample-study-notes" and "overlay sample-pastor" in report["config"]
    ranked = {q["id"]: q["ranked"] for q in report["queries"]}
    assert ranked["covenant"][0] == "sample:jeremiah:31" and "sample:word:covenant" not in ranked["covenant"]
    code, out, _ = run("eval", "--db", str(sample_db), "--mode", "keyword", "--json",
                       str(resource_path("golden", "sample.json")))
    assert "sample:word:covenant" in {q["id"]: q["ranked"] for q in json.loads(out)["queries"]}["covenant"]
    code, _out, err = run("eval", "--db", str(sample_db))
    assert code == 2 and "GOLDEN.json is required" in err


def test_the_sample_overlay_on_the_real_proxy_in_its_own_hybrid_mode(sample_db: Path, local_proxy: Any) -> None:
    out = ask(sample_db, "--overlay", SAMPLE, "--proxy", local_proxy.url)
    assert out["mode"] == "hybrid" and len(out["results"]) <= 5
    assert "forbidden_hit" in [w["code"] for w in out["warnings"]]
    assert out["results"][0]["chunk_id"] == "sample:jeremiah:31"
    assert out["results"][0]["breakdown"]["vocabulary_boost"] == 1.2
    forbidden = {r["chunk_id"] for r in out["rejected"] if r["reason"] == "forbidden_source"}
    assert "sample:word:covenant" in forbidden
    assert not forbidden & {r["chunk_id"] for r in out["results"]}
