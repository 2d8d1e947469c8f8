"""A dozen chunks with meaningful text and vectors along axes: exact checks of every retrieval rule.

Text feeds the keyword search; each vector lies along one or two axes, so cosine similarities are
known to the test (the scripted proxy answers a chosen vector for a question).

Two fixtures serve tests that ask ``amicus-desktop query`` about this corpus: ``db`` (the corpus
in each schema) and ``proxy`` (a scripted proxy for it). A test module takes them with
``from tests.support.corpora import corpus_db as corpus_db, corpus_proxy as corpus_proxy``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from amicus_desktop.core.results import ChunkMetadata
from tests.support.dbs import Chunk, build_db
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy

DIMS = 16


def axis(i: int, j: int | None = None, w: float = 0.0) -> list[float]:
    v = [0.0] * DIMS
    v[i] = 1.0
    if j is not None:
        v[j] = w
    return v


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


TEXTS = {
    "justify": "Being justified by faith we have peace with God through our Lord.",
    "agape": "Agápē is the love of God poured into our hearts.",
    "grace": "By grace you have been saved, through faith, the gift of God.",
    "law": "By the works of the law no flesh will be justified in his sight.",
    "potter": "Has the potter no right over the clay, to make one vessel for honour?",
    "esau": "Jacob I loved, but Esau I hated: the purpose of election might stand.",
    "psalm": "The Lord is my shepherd; I shall lack nothing.",
    "plain": "Some words about nothing in particular, for the table.",
}


def corpus() -> list[Chunk]:
    """Twelve chunks: text for the keyword search, vectors along axes for exact cosine checks."""
    m = ChunkMetadata
    return [
        Chunk("h-justify", axis(0, 1, 0.2), TEXTS["justify"], "section_panel",
              meta=m("henry", "reformed", "romans", 5, 1, 2)),
        Chunk("h-law", axis(0, 2, 0.5), TEXTS["law"], "section_panel",
              meta=m("henry", "reformed", "romans", 3, 19, 20)),
        Chunk("h-potter", axis(0, 3, 0.9), TEXTS["potter"], "section_panel",
              meta=m("henry", "reformed", "romans", 9, 19, 24)),
        Chunk("s-esau", axis(3), TEXTS["esau"], "section_panel",
              meta=m("scofield", "dispensational", "romans", 9, 10, 13)),
        Chunk("s-grace", axis(1, 0, 0.3), TEXTS["grace"], "cross_ref_thread_note",
              meta=m("scofield", "dispensational")),
        Chunk("n-agape", axis(4), TEXTS["agape"], "cross_ref_thread_note", meta=m("nave", None, "romans", 5, 5, 5)),
        Chunk("lex-1", axis(5), "dikaioo: to render righteous.", "lexicon_entry", meta=m("strong")),
        Chunk("lex-2", axis(6), "charis: graciousness, grace.", "lexicon_entry", meta=m("strong")),
        Chunk("lex-3", axis(7), "agape: love, a love-feast.", "lexicon_entry", meta=m("strong")),
        Chunk("ws-rom9", axis(8), "Word study in Romans 9.", "word_study", meta=m(None, None, "romans", 9)),
        Chunk("faq", axis(9), TEXTS["plain"], "meta_faq"),
        Chunk("john-3", axis(10), "For God so loved the world.", "section_panel",
              meta=m("henry", "reformed", "john", 3, 16, 16)),
    ]


@pytest.fixture(name="db", params=["full", "minimal", "two-stage"])
def corpus_db(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Both schemas, and the full one with the two-stage tables, used (``AMICUS_TWO_STAGE=on``)."""
    two_stage = request.param == "two-stage"
    if two_stage:
        monkeypatch.setenv("AMICUS_TWO_STAGE", "on")
    return build_db(tmp_path / "scripture.db", corpus(), full_schema=request.param != "minimal", two_stage=two_stage)


@pytest.fixture(name="proxy")
def corpus_proxy() -> Iterator[ScriptedProxy]:
    with ScriptedProxy(dims=DIMS, model="test-model") as p:
        yield p


def dead_proxy() -> str:
    return f"http://127.0.0.1:{free_port()}"
