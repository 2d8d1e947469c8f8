"""The three formats judgments travel in, read into :class:`Rated` items and written from a golden set.

* **Quepid CSV** — ``query,docid,rating`` with that header, one rating a line, grouped by query (what
  Quepid's "Basic" export writes and its ratings import reads). Quepid's file names no judge; a fourth
  column headed ``judge`` (a project extension, for files gathered from several people) names whose rating
  each line is, and a line with it empty is the importer's judge's. Written as Quepid writes it: fields quoted
  only when they must be, ``\\n`` line ends, and a value starting with ``=``, ``+``, ``-`` or ``@`` led by
  one space so a spreadsheet never runs it as a formula (the space is taken off again when read).
* **TREC qrels** — ``QUERY_ID 0 DOC_ID RELEVANCE`` per line, whitespace-separated; the text of the
  questions travels in a topics file beside it (``QUERY_ID<TAB>TEXT`` per line, as ``ir_datasets`` writes
  queries). A qrels file names no judge (its second column, the iteration, is read past): the importer
  says whose ratings they are.
* **Elasticsearch ``_rank_eval``** — the request body: ``requests`` of ``{"id", "request": {"query":
  {"match": {FIELD: TEXT}}}, "ratings": [{"_index", "_id", "rating"}]}`` and a ``metric``; written with
  ``dcg`` at k 10, normalised — the same nDCG@10 as ``eval`` (gains 2^r − 1, log2 discount).

Every reader names the line (or the key) of whatever it cannot read (:class:`InterchangeError`).

**To judge elsewhere**, the questions whose top 10s hold unjudged chunks travel in the same two formats with
no rating yet (:func:`write_unjudged_quepid`, :func:`write_unjudged_trec`): an empty ``rating`` in the CSV, and
``-`` as the relevance in qrels (a project convention: trec_eval reads no such file, a judge fills it in). A
line still without its rating is skipped when read, so a file comes back with only what was judged.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ...core.text import echo
from ..gaps import Gap
from ..golden import GoldenQuery, GoldenSet
from .scales import Scale, number, parse_rating

FORMULA_START = ("=", "+", "-", "@")
QUEPID_HEADER = ("query", "docid", "rating")
#: the optional column of a Quepid CSV that names each line's judge
JUDGE_COLUMN = "judge"
#: the relevance of a qrels line not judged yet (an exported queue of gaps)
TREC_UNRATED = "-"


class InterchangeError(ValueError):
    """A file that is not in the format it was read as; the message names the line or the key."""


@dataclass(frozen=True)
class Rated:
    """One rating read from a file: the question (its text, its id, or both), the chunk and the rating."""

    query: str | None
    query_id: str | None
    chunk_id: str
    rating: float
    where: str
    #: whose rating this is, when the file says (a Quepid CSV's ``judge`` column)
    judge: str | None = None


def _graded(golden: GoldenSet) -> Iterator[tuple[GoldenQuery, str, int]]:
    for q in golden.queries:
        for chunk_id, grade in q.judgments.items():
            yield q, chunk_id, grade


# -- Quepid CSV -------------------------------------------------------------------------------------
def _unguard(value: str) -> str:
    return value[1:] if value.startswith(" ") and value[1:].startswith(FORMULA_START) else value


def _guard(value: str) -> str:
    return f" {value}" if value.lstrip().startswith(FORMULA_START) else value


def read_quepid(text: str) -> list[Rated]:
    rows = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    header = next(rows, None)
    if header is None or tuple(h.strip().lower() for h in header[:3]) != QUEPID_HEADER:
        raise InterchangeError("line 1: a Quepid ratings file starts with the header query,docid,rating")
    extra = [h.strip().lower() for h in header[3:]]
    judge_at = 3 + extra.index(JUDGE_COLUMN) if JUDGE_COLUMN in extra else None
    out = []
    for row in rows:
        where = f"line {rows.line_num}"
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) < 3:
            raise InterchangeError(f"{where}: expected query,docid,rating")
        query, docid = _unguard(row[0]).strip(), _unguard(row[1]).strip()
        if not query or not docid:
            raise InterchangeError(f"{where}: the query and the docid must not be empty")
        if not row[2].strip():  # not judged yet (an exported queue of gaps)
            continue
        try:
            rating = parse_rating(row[2], where)
        except ValueError as exc:
            raise InterchangeError(str(exc)) from None
        judge = _unguard(row[judge_at]).strip() if judge_at is not None and judge_at < len(row) else ""
        out.append(Rated(query, None, docid, rating, where, judge or None))
    return out


def judges_named(rated: list[Rated]) -> list[str]:
    """The judges a file's ratings name, in the order first met (none: the file does not say)."""
    return list(dict.fromkeys(r.judge for r in rated if r.judge))


def write_quepid(golden: GoldenSet, scale: Scale) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(QUEPID_HEADER)
    for q, chunk_id, grade in _graded(golden):
        writer.writerow((_guard(q.query), _guard(chunk_id), number(scale.rating(grade))))
    return buf.getvalue()


def write_unjudged_quepid(gaps: list[Gap]) -> str:
    """The queue of unjudged chunks as Quepid CSV with the ratings left empty, question by question."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(QUEPID_HEADER)
    for gap in gaps:
        writer.writerow((_guard(gap.query), _guard(gap.chunk_id), ""))
    return buf.getvalue()


# -- TREC qrels and topics --------------------------------------------------------------------------
def read_trec(text: str) -> list[Rated]:
    out = []
    for n, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if not parts or line.lstrip().startswith("#"):
            continue
        if len(parts) != 4:
            raise InterchangeError(f"line {n}: a qrels line is QUERY_ID ITERATION DOC_ID RELEVANCE")
        if parts[3] == TREC_UNRATED:  # not judged yet (an exported queue of gaps)
            continue
        try:
            rating = parse_rating(parts[3], f"line {n}")
        except ValueError as exc:
            raise InterchangeError(str(exc)) from None
        out.append(Rated(None, parts[0], parts[2], rating, f"line {n}"))
    return out


def read_topics(text: str) -> dict[str, str]:
    """A topics file: ``QUERY_ID<TAB>TEXT`` per line."""
    out: dict[str, str] = {}
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        qid, sep, query = line.partition("\t")
        if not sep or not qid.strip() or not query.strip():
            raise InterchangeError(f"topics line {n}: expected QUERY_ID, a tab, then the question")
        out[qid.strip()] = query.strip()
    return out


def write_trec(golden: GoldenSet, scale: Scale) -> str:
    _check_ids(golden)
    return "".join(f"{q.id} 0 {chunk_id} {number(scale.rating(grade))}\n" for q, chunk_id, grade in _graded(golden))


def write_unjudged_trec(gaps: list[Gap]) -> tuple[str, str]:
    """The queue of unjudged chunks as qrels lines rated ``-``, and the topics file of their questions."""
    for gap in gaps:
        if not gap.query_id or any(c.isspace() for c in gap.query_id + gap.chunk_id):
            raise InterchangeError(f"the question id '{echo(gap.query_id, 30)}' or chunk id "
                                   f"'{echo(gap.chunk_id, 40)}' has a space, which a qrels line cannot hold")
    qrels = "".join(f"{g.query_id} 0 {g.chunk_id} {TREC_UNRATED}\n" for g in gaps)
    questions = {g.query_id: " ".join(g.query.split()) for g in gaps}
    return qrels, "".join(f"{qid}\t{text}\n" for qid, text in questions.items())


def write_topics(golden: GoldenSet) -> str:
    _check_ids(golden)
    return "".join(f"{q.id}\t{' '.join(q.query.split())}\n" for q in golden.queries)


def _check_ids(golden: GoldenSet) -> None:
    for q in golden.queries:
        if any(c.isspace() for c in q.id) or any(c.isspace() for c in q.judgments if c):
            raise InterchangeError(f"question '{echo(q.id, 40)}': TREC files cannot hold an id with a space")


# -- Elasticsearch _rank_eval ------------------------------------------------------------------------
def _query_text(request: Any) -> str | None:
    """The question of a ``_rank_eval`` request: a ``match``'s text, a ``multi_match``'s or a
    ``query_string``'s query, else ``None``."""
    query = request.get("query") if isinstance(request, dict) else None
    if not isinstance(query, dict):
        return None
    match = query.get("match")
    if isinstance(match, dict) and len(match) == 1:
        value = next(iter(match.values()))
        value = value.get("query") if isinstance(value, dict) else value
        return value if isinstance(value, str) else None
    for key in ("multi_match", "query_string", "simple_query_string"):
        inner = query.get(key)
        if isinstance(inner, dict) and isinstance(inner.get("query"), str):
            return str(inner["query"])
    return None


def read_rank_eval(text: str) -> list[Rated]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InterchangeError(f"line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    requests = data.get("requests") if isinstance(data, dict) else None
    if not isinstance(requests, list):
        raise InterchangeError("key 'requests': expected the list of a _rank_eval request body")
    out = []
    for i, req in enumerate(requests):
        where = f"requests[{i}]"
        if not isinstance(req, dict) or not isinstance(req.get("id"), str) or not req["id"]:
            raise InterchangeError(f"{where}.id: expected a non-empty string")
        ratings = req.get("ratings", [])
        if not isinstance(ratings, list):
            raise InterchangeError(f"{where}.ratings: expected a list")
        query = _query_text(req.get("request"))
        for j, r in enumerate(ratings):
            at = f"{where}.ratings[{j}]"
            if not isinstance(r, dict) or not isinstance(r.get("_id"), str) or not r["_id"]:
                raise InterchangeError(f"{at}._id: expected a non-empty string")
            value = r.get("rating")
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InterchangeError(f"{at}.rating: expected a number")
            out.append(Rated(query, req["id"], r["_id"], float(value), at))
    return out


def write_rank_eval(golden: GoldenSet, scale: Scale, index: str = "amicus", field: str = "text") -> str:
    requests = []
    for q in golden.queries:
        ratings = [{"_index": index, "_id": cid, "rating": _json_number(scale.rating(g))}
                   for cid, g in q.judgments.items()]
        requests.append({"id": q.id, "request": {"query": {"match": {field: q.query}}}, "ratings": ratings})
    body = {"requests": requests, "metric": {"dcg": {"k": 10, "normalize": True}}}
    return json.dumps(body, indent=2, ensure_ascii=False) + "\n"


def _json_number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value
