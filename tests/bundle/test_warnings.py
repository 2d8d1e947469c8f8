"""The bundle's warnings (``bundle/warnings.py``, CONTRACT section 7): a named passage the library does
not hold, a filter that leaves few chunks, and no strong match (with a re-spelt question)."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.bundle.warnings import no_strong_match
from tests.support.cli import query_json
from tests.support.corpora import DIMS
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.dbs import unit
from tests.support.scripted_proxy import ScriptedProxy


def test_reference_not_in_corpus_warns(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("Psalm 23:1 and Rom 9", "--db", str(db), "--proxy", proxy.url)
    assert code == 0
    codes = [w["code"] for w in out["warnings"]]
    assert codes.count("reference_not_in_corpus") == 1
    (w,) = [w for w in out["warnings"] if w["code"] == "reference_not_in_corpus"]
    assert "Psalms 23:1" in w["message"]
    assert [r["book_id"] for r in out["query_trace"]["references"]] == ["psalms", "romans"]


def test_a_filter_that_leaves_few_chunks_warns(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("q", "--db", str(db), "--proxy", proxy.url, "--source-type", "lexicon_entry")
    assert code == 0 and len(out["results"]) == 2  # three entries, all Strong's: the cap keeps two
    codes = {w["code"] for w in out["warnings"]}
    assert {"few_results", "single_source_type"} <= codes


def test_no_strong_match_below_the_floor_and_never_in_keyword_mode(db: Path, proxy: ScriptedProxy) -> None:
    q = "grase and fath"
    proxy.vectors[q] = unit([0.0] * (DIMS - 1) + [1.0]).tolist()  # orthogonal to every chunk
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url)
    assert code == 0
    (w,) = [w for w in out["warnings"] if w["code"] == "no_strong_match"]
    assert "Nothing in the library matches this question well" in w["message"]
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url, "--mode", "hybrid")
    (w,) = [w for w in out["warnings"] if w["code"] == "no_strong_match"]
    assert w["suggestion"] == "grace and faith"  # both words are unknown; the index knows close ones
    code, out = query_json(q, "--db", str(db), "--proxy", proxy.url, "--mode", "keyword")
    assert "no_strong_match" not in {w["code"] for w in out["warnings"]}



@pytest.mark.parametrize(
    ("question", "spelling"),
    [("Grace", {"grace": "grace"}), ("ZOE life", {"zoe": "Zoe"}), ("agape  love", {"agape": "agape"})],
)
def test_did_you_mean_never_proposes_the_question_itself(question: str, spelling: dict[str, str]) -> None:
    """#20.22: the suggestion could be the question, only cased or spaced differently."""
    warning = no_strong_match([], 0.4, spelling, question)
    assert warning is not None and warning.suggestion is None
    assert "Did you mean" not in warning.message and "Try other words" in warning.message


def test_a_real_respelling_is_proposed() -> None:
    warning = no_strong_match([], 0.4, {"propitation": "propitiation"}, "what is propitation")
    assert warning is not None and warning.suggestion == "what is propitiation"
    assert warning.message.endswith("Did you mean “what is propitiation”?")
