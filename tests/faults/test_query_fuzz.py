"""Generated questions through the real pipeline in every mode: no crash, only contract error codes.

``AMICUS_FUZZ_QUESTIONS`` sets the questions per mode (400 in the suite, ~20 s for the three modes on
2 cores; 10,000 per mode were run once for docs/RELIABILITY.md). Besides hostile text, questions full
of references ("Gen 3:11-1Jn 9" crashed every mode inside pythonbible) and numbers.
"""

from __future__ import annotations

import asyncio
import collections
import os
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amicus_desktop.core.books import BOOKS
from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import RetrievalContext, SearchMode
from amicus_desktop.retrieval import Retriever
from tests.support.figures import record_figure
from tests.support.proxy import ProxyProcess

NASTY = [
    "'; DROP TABLE chunk_text; --", '" OR 1=1 --', "NEAR(faith grace)", "faith AND NOT grace", "justif*",
    "^start", "col:value", "(unbalanced", '"unterminated', "\x00nul\x00", "\u202eRTL override\u202c",
    "שָׁלוֹם עֲלֵיכֶם", "بسم الله", "🙏✝️🕊️" * 50, "\U0001f600\U00010348\U000e0041", "ἐν ἀρχῇ ἦν ὁ λόγος",
    "\r\n\t\x0b\x0c", "%s%n%x", "{{7*7}}", "../../etc/passwd", "x" * 2000, "x" * 2001, "   ", "",
]
PER_MODE = int(os.environ.get("AMICUS_FUZZ_QUESTIONS", "400"))
BOOK_NAMES = [b.name for b in BOOKS] + ["Rom", "Jn", "1Jn", "Mt", "Gen", "Ps", "Is", "rom", "jn", "I Cor", "Jude"]
REFERENCES = ["Gen 3:11-1Jn 9", "Romans 3:21-5:2", "Ps 1-150", "John 0", "Rom 9:0", "John 3 16", "rom9",
              "jn3:16", "1Jn 4 8", "Rom. 9.6", "the 3 wise men", "7 churches", "Gen 1 - Rev 22", "Jude 3-999"]
reference_text = st.lists(
    st.one_of(st.sampled_from(BOOK_NAMES), st.integers(0, 2000).map(str), st.sampled_from(REFERENCES),
              st.sampled_from([" ", ":", ".", "-", "–", ",", " and ", "  "])),
    max_size=30,
).map("".join)
queries = st.one_of(
    st.sampled_from(NASTY),
    reference_text,
    st.sampled_from(REFERENCES),
    st.text(min_size=0, max_size=60),  # every plane, control characters, surrogates included
    st.text(alphabet=st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF), max_size=40),
    st.text(alphabet=st.characters(categories=["Cc", "Cf", "Zs", "Zl", "Zp"]), max_size=40),
    st.text(alphabet="\"'*^:()-+NEARORAND_%;\\", max_size=40),
    st.text(alphabet=st.characters(categories=["Cs", "Lo"]), min_size=1, max_size=10),  # lone surrogates
    st.integers(1990, 2010).map(lambda n: "ab" * (n // 2) + "c" * (n % 2)),
)


@pytest.fixture(scope="module")
def fast_proxy():
    with ProxyProcess("--rate-limit", "0") as proxy:
        yield proxy


@pytest.mark.parametrize("mode", list(SearchMode))
def test_generated_queries_in_every_mode(guarded_db: Path, fast_proxy: ProxyProcess, mode: SearchMode) -> None:
    loop = asyncio.new_event_loop()
    retriever = Retriever(guarded_db, fast_proxy.url)
    outcomes: collections.Counter[str] = collections.Counter()
    allowed = {ErrorCode.QUERY_INVALID}  # everything else means the pipeline broke on input
    started = time.perf_counter()

    @settings(max_examples=PER_MODE, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(text=queries)
    def check(text: str) -> None:
        try:
            result = loop.run_until_complete(retriever.retrieve(RetrievalContext(text, mode=mode)))
        except AmicusError as err:
            assert err.code in allowed, (err.code, err.message)
            assert text.strip() == "" or len(text) > 2000 or "not valid text" in err.message
            if len(text) > 20:
                assert text not in err.message
            outcomes[err.code.value] += 1
        else:
            assert len(result.results) <= 10
            assert all(r.score == r.breakdown.final for r in result.results)
            assert len(result.trace.references) <= 24
            outcomes["ok"] += 1
            outcomes["with references"] += bool(result.trace.references)

    try:
        check()
    finally:
        loop.run_until_complete(retriever.aclose())
        loop.close()
    total = outcomes["ok"] + outcomes[ErrorCode.QUERY_INVALID.value]
    took = time.perf_counter() - started
    record_figure(f"queries fuzzed, {mode.value} (outcomes, seconds)", f"{total} {dict(outcomes)} {took:.1f} s")
    assert total >= PER_MODE and outcomes["ok"] > PER_MODE / 2 and outcomes["with references"] > PER_MODE / 10
