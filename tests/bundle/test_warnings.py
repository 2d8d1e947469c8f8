"""The bundle's warnings (``bundle/warnings.py``, CONTRACT section 7): a named passage the library does
not hold, a filter that leaves few chunks, no strong match (with a re-spelt question, and a meaning floor
in hybrid), and why a list is short."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import pytest

from amicus_desktop.bundle.floors import MatchFloor, floor_for
from amicus_desktop.bundle.warnings import chosen_by_reader, few_results, no_strong_match, ranking_warnings
from amicus_desktop.core.query import BoostWeights, Filters, RetrievalContext, SearchMode
from amicus_desktop.core.results import Candidate, ChunkMetadata, WarningCode
from amicus_desktop.rerank import rerank
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


# -- on hand-made candidates ----------------------------------------------------------------------
_ids = itertools.count()


def cand(distance: float | None, lexical: float | None = None, source_type: str = "section_panel",
         **meta: Any) -> Candidate:
    cid = f"c{next(_ids):03d}"
    return Candidate(0, cid, source_type, cid, "text", ChunkMetadata(**meta), distance, lexical)


def test_one_shared_keyword_does_not_pass_for_a_match_in_hybrid() -> None:
    # "Noah's ark" against "the ark of the testimony": a strong keyword score, a weak meaning
    ctx = RetrievalContext(query="Noah's ark", mode=SearchMode.HYBRID)
    results, _ = rerank([cand(0.65, lexical=0.9)], ctx)
    assert results[0].breakdown.base >= 0.45  # 0.7 × 0.35 + 0.3 × 0.9: over the base floor alone
    floor = MatchFloor(base=0.40, meaning=0.42)
    w = no_strong_match(results, floor, {}, ctx.query)
    assert w is not None and "none is close in meaning" in w.message and "0.35" in w.message
    # a close meaning passes; and semantic mode has no meaning floor (its base is the similarity)
    results, _ = rerank([cand(0.45, lexical=0.9)], ctx)
    assert no_strong_match(results, floor, {}, ctx.query) is None
    assert floor_for("any-model", SearchMode.SEMANTIC).meaning is None  # type: ignore[union-attr]
    assert floor_for("any-model", SearchMode.HYBRID).meaning is not None  # type: ignore[union-attr]
    assert floor_for("any-model", SearchMode.KEYWORD) is None


def test_few_results_names_the_cap_when_the_cap_cut_the_list() -> None:
    ctx = RetrievalContext(query="q", k=5)
    results, rejected = rerank([cand(0.1 + i / 100, scholar_id="henry") for i in range(6)], ctx)
    w = few_results(results, rejected, ctx)
    assert w is not None and "per-scholar cap (at most 2 from each author) set aside 4 more" in w.message
    assert "filter" not in w.message


def test_few_results_names_the_threshold_the_filters_or_the_library() -> None:
    ctx = RetrievalContext(query="q", k=5, min_similarity=0.5)
    results, rejected = rerank([cand(0.2), cand(0.9), cand(0.95)], ctx)
    assert "minimum similarity" in few_results(results, rejected, ctx).message  # type: ignore[union-attr]
    ctx = RetrievalContext(query="q", k=5, filters=Filters.of(books=["romans"]))
    results, rejected = rerank([cand(0.2, book_id="romans")], ctx)
    assert "filters that are set" in few_results(results, rejected, ctx).message  # type: ignore[union-attr]
    ctx = RetrievalContext(query="q", k=5, weights=BoostWeights(per_scholar_cap=None))
    results, rejected = rerank([cand(0.2)], ctx)
    message = few_results(results, rejected, ctx).message  # type: ignore[union-attr]
    assert "no more chunks that match" in message and "filter" not in message


def test_one_kind_of_material_is_not_shown_when_the_reader_chose_it() -> None:
    ctx = RetrievalContext(query="q", filters=Filters.of(source_types=["lexicon_entry"]))
    results, rejected = rerank([cand(0.2, source_type="lexicon_entry"), cand(0.3, source_type="lexicon_entry")], ctx)
    warnings = ranking_warnings(results, rejected, ctx, None)
    single = [w for w in warnings if w.code is WarningCode.SINGLE_SOURCE_TYPE]
    assert single and chosen_by_reader(single[0], ctx)  # the bundle keeps it (the contract); the app hides it
    assert not chosen_by_reader(single[0], ctx.replace(filters=Filters()))

@pytest.mark.parametrize(
    ("question", "spelling"),
    [("Grace", {"grace": "grace"}), ("ZOE life", {"zoe": "Zoe"}), ("agape  love", {"agape": "agape"})],
)
def test_did_you_mean_never_proposes_the_question_itself(question: str, spelling: dict[str, str]) -> None:
    """#20.22: the suggestion could be the question, only cased or spaced differently."""
    warning = no_strong_match([], MatchFloor(0.4), spelling, question)
    assert warning is not None and warning.suggestion is None
    assert "Did you mean" not in warning.message and "Try other words" in warning.message


def test_a_real_respelling_is_proposed() -> None:
    warning = no_strong_match([], MatchFloor(0.4), {"propitation": "propitiation"}, "what is propitation")
    assert warning is not None and warning.suggestion == "what is propitiation"
    assert warning.message.endswith("Did you mean “what is propitiation”?")
