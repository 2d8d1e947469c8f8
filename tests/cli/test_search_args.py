"""The search flags every retrieving sub-command shares (``cli/search_args.py``): values that cannot
mean anything are usage errors (exit 2)."""

from __future__ import annotations

from pathlib import Path

from tests.support.cli import run
from tests.support.corpora import corpus_db as corpus_db  # the fixture ``db``
from tests.support.corpora import corpus_proxy as corpus_proxy  # the fixture ``proxy``
from tests.support.scripted_proxy import ScriptedProxy


def test_filter_on_an_unknown_book_or_type_is_a_usage_error(db: Path, proxy: ScriptedProxy) -> None:
    for flags in (["--book", "Narnia"], ["--source-type", "sermon"], ["--testament", "middle"]):
        code, _out, err = run("query", "q", "--db", str(db), "--proxy", proxy.url, *flags)
        assert code == 2 and "error" in err, flags


def test_usage_errors(db: Path, proxy: ScriptedProxy) -> None:
    for flags in (["--min-similarity", "nan"], ["--min-similarity", "0.2", "--mode", "keyword"],
                  ["--mode", "fuzzy"], ["--alpha", "1.5", "--mode", "hybrid"], ["--chapter-boost", "0"],
                  ["--scholar-cap", "0"], ["--chapter", "romans"]):
        code, _out, err = run("query", "q", "--db", str(db), "--proxy", proxy.url, *flags)
        assert code == 2, (flags, err)
