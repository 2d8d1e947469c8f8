"""The search flags every retrieving sub-command shares (``cli/search_args.py``): values that cannot
mean anything are usage errors (exit 2)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

import pytest

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


@pytest.mark.parametrize("flag", ["--scholar", "--tradition", "--pin", "--db", "--prefer-scholar", "--book",
                                  "--chapter", "--proxy"])
def test_bytes_that_are_not_utf8_are_usage_errors(small_db: Path, flag: str) -> None:
    """#20.8: ``--scholar $'\\xff'`` reached SQLite and the terminal as a lone surrogate: a traceback."""
    value = os.fsdecode(b"\xff\xfe")  # what Python makes of such argv bytes (surrogateescape)
    args = ["--db", str(small_db)] if flag != "--db" else []
    code, out, err = run("query", "grace", "--mode", "keyword", *args, flag, value)
    assert code == 2 and "not valid UTF-8" in err and flag in err and "Traceback" not in err
    assert "\x1b" not in out + err


def test_boosts_are_bounded_and_every_score_is_finite_json(small_db: Path) -> None:
    """#20.16: ``--chapter-boost 1e308 --scholar-boost 1e308`` scored ``Infinity``, which is not JSON."""
    code, _, err = run("query", "grace", "--db", str(small_db), "--mode", "keyword",
                       "--chapter-boost", "1e308", "--scholar-boost", "1e308")
    assert code == 2 and "at most 100" in err
    flags = ["--chapter", "romans:5", "--prefer-scholar", "john-calvin", "--prefer-tradition", "reformed",
             *[x for b in ("chapter", "scholar", "tradition", "reference") for x in (f"--{b}-boost", "100")]]
    code, out, err = run("query", "grace Romans 5", "--db", str(small_db), "--mode", "keyword", "--json", *flags)
    assert code == 0, err

    def refuse(constant: str) -> float:
        raise AssertionError(f"{constant} in the JSON output")

    bundle = json.loads(out, parse_constant=refuse)
    scores = [r["score"] for r in bundle["results"]] + [r["score"] for r in bundle["rejected"]]
    assert scores and all(math.isfinite(s) for s in scores)
    assert max(scores) > 10  # the boosts did multiply
