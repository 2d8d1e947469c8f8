"""1,000 generated questions through the real pipeline: no crash, only contract error codes."""

from __future__ import annotations

import asyncio
import collections
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.query import RetrievalContext
from amicus_desktop.retrieval import Retriever
from tests.support.figures import record_figure
from tests.support.proxy import ProxyProcess

NASTY = [
    "'; DROP TABLE chunk_text; --", '" OR 1=1 --', "NEAR(faith grace)", "faith AND NOT grace", "justif*",
    "^start", "col:value", "(unbalanced", '"unterminated', "\x00nul\x00", "\u202eRTL override\u202c",
    "שָׁלוֹם עֲלֵיכֶם", "بسم الله", "🙏✝️🕊️" * 50, "\U0001f600\U00010348\U000e0041", "ἐν ἀρχῇ ἦν ὁ λόγος",
    "\r\n\t\x0b\x0c", "%s%n%x", "{{7*7}}", "../../etc/passwd", "x" * 2000, "x" * 2001, "   ", "",
]
queries = st.one_of(
    st.sampled_from(NASTY),
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


def test_thousand_generated_queries(guarded_db: Path, fast_proxy: ProxyProcess) -> None:
    loop = asyncio.new_event_loop()
    retriever = Retriever(guarded_db, fast_proxy.url)
    outcomes: collections.Counter[str] = collections.Counter()
    allowed = {ErrorCode.QUERY_INVALID}  # everything else means the pipeline broke on input

    @settings(max_examples=1000, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(text=queries)
    def check(text: str) -> None:
        try:
            result = loop.run_until_complete(retriever.retrieve(RetrievalContext(text)))
        except AmicusError as err:
            assert err.code in allowed, (err.code, err.message)
            assert text.strip() == "" or len(text) > 2000 or "not valid text" in err.message
            if len(text) > 20:
                assert text not in err.message
            outcomes[err.code.value] += 1
        else:
            assert len(result.results) <= 10
            assert all(r.score == r.breakdown.final for r in result.results)
            outcomes["ok"] += 1

    try:
        check()
    finally:
        loop.run_until_complete(retriever.aclose())
        loop.close()
    total = sum(outcomes.values())
    record_figure("queries fuzzed (outcomes)", f"{total} {dict(outcomes)}")
    assert total >= 1000 and outcomes["ok"] > 500
