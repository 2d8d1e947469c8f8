"""Context assembly: budget, dropping whole chunks from the bottom, grouping, Bible order, cutting."""

from __future__ import annotations

import pytest

from amicus_desktop.context import Format, WordPieceCounter, assemble
from amicus_desktop.context.assemble import CUT_MARK
from amicus_desktop.core.results import Candidate, ChunkMetadata, RetrievedChunk, ScoreBreakdown
from amicus_desktop.present import citation
from amicus_desktop.rerank.factors import contract_factors

COUNT = WordPieceCounter()
WORDS = ("grace mercy faith hope love righteousness justification covenant promise kingdom spirit "
         "resurrection glory peace truth light").split()


def prose(n_tokens: int, seed: int) -> str:
    """About ``n_tokens`` word pieces of plain English words."""
    words = [WORDS[(seed * 7 + i * 3) % len(WORDS)] for i in range(n_tokens)]
    return " ".join(words) + "."


def chunk(rank: int, cid: str, text: str, meta: ChunkMetadata, source_id: str = "") -> RetrievedChunk:
    c = Candidate(rank, cid, "section_panel", source_id or cid, text, meta, distance=0.5)
    return RetrievedChunk(rank, c, ScoreBreakdown(0.5, 0.5, contract_factors()))


def test_word_piece_counter_counts_without_truncation() -> None:
    assert COUNT("") == 0
    long = prose(2000, 1)
    assert COUNT(long) > 1500  # the model's own 256-token truncation is off for counting


def test_twenty_chunks_of_500_tokens_trimmed_to_fit_8000() -> None:
    results = [chunk(i, f"c{i:02d}", prose(500, i), ChunkMetadata(f"s{i % 4}", None, "romans", i, 1, 2))
               for i in range(1, 21)]
    block = assemble(results, budget=8000, count=COUNT, cite=citation)
    assert block.used_tokens == COUNT(block.text) <= 8000
    n = len(block.included)
    assert 10 <= n < 20
    assert list(block.included) == [f"c{i:02d}" for i in range(1, n + 1)]  # the top of the ranking
    assert list(block.dropped) == [f"c{i:02d}" for i in range(n + 1, 21)]  # dropped whole from the bottom
    for cid in block.included:
        r = next(r for r in results if r.chunk_id == cid)
        assert r.candidate.text in block.text  # never cut mid-chunk
    one_more = assemble(results[: n + 1], budget=10**6, count=COUNT, cite=citation)
    assert one_more.used_tokens > 8000  # the next chunk really did not fit


def test_one_source_is_grouped_in_bible_order() -> None:
    henry = ChunkMetadata("matthew-henry", "reformed", "romans", 9, None, None)
    verses = {1: (20, 24), 2: (1, 5), 3: (14, 18), 4: (6, 13), 5: (25, 29)}  # rank → verses
    results = [chunk(rank, f"mh-{v[0]}", f"Henry on verses {v[0]} to {v[1]}.",
                     ChunkMetadata(henry.scholar_id, henry.tradition, "romans", 9, *v)) for rank, v in verses.items()]
    block = assemble(results, budget=8000, count=COUNT, cite=citation)
    order = [block.text.index(f"verses {v} to") for v in (1, 6, 14, 20, 25)]
    assert order == sorted(order)
    assert "----" not in block.text  # one group
    assert block.text.startswith("[2] ")  # verse 1 comes first, whatever its rank


def test_groups_follow_their_best_rank_and_citations_name_source_and_place() -> None:
    results = [
        chunk(1, "scof", "Scofield's note.", ChunkMetadata("c-i-scofield", None, "romans", 3, 28, 28)),
        chunk(2, "henry-a", "Henry on 21.", ChunkMetadata("matthew-henry", None, "romans", 3, 21, 26)),
        chunk(3, "lex", "dikaioo: to render righteous.", ChunkMetadata(), source_id="G1344"),
        chunk(4, "henry-b", "Henry on 19.", ChunkMetadata("matthew-henry", None, "romans", 3, 19, 20)),
    ]
    block = assemble(results, budget=8000, count=COUNT, cite=citation, fmt=Format.MARKDOWN)
    text = block.text
    assert text.index("Scofield") < text.index("Henry on 19") < text.index("Henry on 21") < text.index("dikaioo")
    assert "Romans 3:28" in text and "Romans 3:19-20" in text
    assert text.count("---") == 2  # three groups


def test_a_single_chunk_larger_than_the_budget_is_cut_at_a_word_and_marked() -> None:
    big = chunk(1, "big", prose(3000, 3), ChunkMetadata("matthew-henry", None, "john", 1, 1, 18))
    rest = chunk(2, "small", "A small note.", ChunkMetadata("x", None, "john", 1, 1, 1))
    block = assemble([big, rest], budget=300, count=COUNT, cite=citation)
    assert block.included == ("big",) and block.dropped == ("small",) and block.cut == "big"
    assert block.used_tokens <= 300 and block.text.endswith(CUT_MARK)
    body = block.text.split("\n", 1)[1].removesuffix(CUT_MARK)
    assert big.candidate.text.startswith(body) and big.candidate.text[len(body)] == " "  # a word boundary


def test_empty_result_is_an_empty_block() -> None:
    block = assemble([], budget=8000, count=COUNT, cite=citation, fmt=Format.JSON)
    assert block.to_json() == {"budget": 8000, "used_tokens": 0, "included": [], "dropped": [], "text": ""}


def test_budget_must_be_positive() -> None:
    with pytest.raises(ValueError):
        assemble([], budget=0, count=COUNT, cite=citation)
