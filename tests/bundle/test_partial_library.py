"""A partial library says what it covered: ``diagnostics.coverage`` and the ``books_not_searchable`` warning."""

from __future__ import annotations

from pathlib import Path

import pytest

from amicus_desktop.bundle.warnings import books_not_searchable
from amicus_desktop.core.bundle import Coverage, WarningCode
from amicus_desktop.understand.books import books_needed
from amicus_desktop.understand.query import plan
from tests.support.cli import query_json
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.scripted_proxy import ScriptedProxy

DEMO = Coverage(("john", "romans"))


@pytest.mark.parametrize(("question", "books"), [
    ("What happened to Noah's ark?", ("genesis",)),
    ("noah’s ark and the flood", ("genesis",)),
    ("What does Genesis say about creation?", ("genesis",)),
    ("David and Goliath", ("1-samuel",)),
    ("Compare Exodus 20 with Romans 13", ("exodus", "romans")),
    ("the acts of the apostles and their judges", ()),  # common words are not books without a chapter
    ("what is grace?", ()),
])
def test_the_books_a_question_names_or_needs(question: str, books: tuple[str, ...]) -> None:
    assert books_needed(question, plan(question).references) == books


def test_the_warning_names_the_missing_books_and_what_the_library_holds() -> None:
    w = books_not_searchable(["genesis"], DEMO)
    assert w is not None and w.code is WarningCode.BOOKS_NOT_SEARCHABLE
    assert w.message.startswith("Genesis has no study material in this library (2 of 66 books: John, Romans)")
    assert "build-db --all" in w.message
    growing = books_not_searchable(["genesis", "exodus", "romans"], Coverage(("john", "romans"), growing=True))
    assert growing is not None
    assert growing.message.startswith("Genesis and Exodus are still being prepared: 2 of 66 books searchable")
    assert books_not_searchable(["romans"], DEMO) is None  # the library has it
    assert books_not_searchable([], DEMO) is None
    assert books_not_searchable(["genesis"], Coverage(tuple(f"b{i}" for i in range(66)))) is None  # complete
    assert books_not_searchable(["genesis"], Coverage(())) is None  # no Bible books at all: not a Bible library
    assert books_not_searchable(["genesis"], Coverage((), growing=True)) is not None  # a build just begun


def test_a_search_says_what_it_covered(db: Path, proxy: ScriptedProxy) -> None:
    code, out = query_json("What happened to Noah's ark?", "--db", str(db), "--proxy", proxy.url)
    assert code == 0
    coverage = out["diagnostics"]["coverage"]
    assert coverage == {"study_books": ["john", "romans"], "count": 2, "of": 66, "growing": False}
    (w,) = [w for w in out["warnings"] if w["code"] == "books_not_searchable"]
    assert w["message"].startswith("Genesis has no study material in this library (2 of 66 books: John, Romans)")
    code, out = query_json("justified by faith", "--db", str(db), "--proxy", proxy.url)
    assert code == 0 and "books_not_searchable" not in [w["code"] for w in out["warnings"]]
    # a book filter on a book without study material says why nothing matched
    code, out = query_json("justified by faith", "--db", str(db), "--proxy", proxy.url, "--book", "genesis")
    assert code == 0 and "books_not_searchable" in [w["code"] for w in out["warnings"]]


@pytest.mark.slow
@pytest.mark.timeout(1200)
def test_noahs_ark_on_the_demo_library_says_genesis_is_missing(demo_db: Path, local_proxy) -> None:
    """The demo library (Romans and John, the whole Bible's text): the warning names Genesis, and the words of
    the Bible's text are no misspellings ("Did you mean nah's ark?" was offered before)."""
    from amicus_desktop.retrieval import retrieve
    from amicus_desktop.session.controller import app_context
    from amicus_desktop.settings import Settings
    from amicus_desktop.store import ScriptureStore

    result = retrieve(app_context(Settings(), "What happened to Noah's ark?"), db=demo_db, proxy=local_proxy.url)
    codes = [w.code for w in result.warnings]
    assert codes[0] is WarningCode.BOOKS_NOT_SEARCHABLE and "Genesis" in result.warnings[0].message
    assert all(w.suggestion is None for w in result.warnings)
    assert result.diagnostics.coverage == Coverage(("john", "romans"))
    with ScriptureStore(demo_db) as store:  # every book's text is in the demo library
        assert len(store.books()) == 66 and "ship of gopher wood" in dict(store.chapter("genesis", 6))[14]
