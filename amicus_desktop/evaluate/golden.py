"""Golden sets: judged questions in a plain JSON file a curator can keep in git (CONTRACT section 8).

::

    {"name": "...", "queries": [
      {"id": "q1", "query": "...", "mode": "hybrid", "chapter": "romans:9",
       "profile": {"scholars": ["..."], "traditions": ["..."]},
       "judgments": {"<chunk_id>": 3, "<chunk_id>": 0}}]}

``mode``, ``chapter`` and ``profile`` are optional; grades are 0–3. ``judges`` (optional) records who gave
each grade and when, several judges per chunk (:mod:`amicus_desktop.evaluate.judges`). Keys the format does not name
(a query's ``notes``, a judgment's ``why`` in ``rationale``, a set's ``provenance``) are kept as they
are when the file is read and written again, so a curator's notes survive. :func:`load` names the line
or the key of whatever is wrong (:class:`GoldenError`) — a bad ``mode`` or ``chapter``, a grade out of
range, text that is not text, a file that is too large, too deep or not a regular file — and never
raises anything else but ``OSError``; :func:`save` writes atomically.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core.query import SearchMode
from ..core.text import echo
from ..files import FileReadError, read_small
from ..schemas import NotJson, loads
from ..understand import PassageError, parse_passage
from . import judges as judges_io
from .judges import Rating, Ratings

GRADES = range(0, 4)
#: a query's key for the reason behind each grade: chunk id → a sentence (Quepid's notes per result)
RATIONALE = "rationale"
#: a golden set of 100,000 judgments is ~5 MB; past this a file is not one (and is not read into memory)
MAX_FILE_BYTES = 32 << 20


class GoldenError(ValueError):
    """A golden file that is not valid; the message names the line or the key."""


@dataclass(frozen=True)
class GoldenQuery:
    """One judged question."""

    id: str
    query: str
    judgments: dict[str, int]
    mode: SearchMode | None = None
    chapter: str | None = None
    scholars: tuple[str, ...] = ()
    traditions: tuple[str, ...] = ()
    #: keys of the query object this format does not name, kept as they were
    extra: dict[str, Any] = field(default_factory=dict)
    #: each judge's own grade of a chunk, and when (``judges``); ``judgments`` is the set's grade
    ratings: Ratings = field(default_factory=dict)

    @property
    def kind(self) -> str:
        """What kind of question this is, for reporting per kind: the file's ``kind`` key, else ``chapter``
        for a question asked with a chapter open and ``question`` for one without."""
        kind = self.extra.get("kind")
        if isinstance(kind, str) and kind:
            return kind
        return "chapter" if self.chapter else "question"

    def judge(self, chunk_id: str, grade: int | None, by: str | None = None, at: str = "") -> GoldenQuery:
        """This query with ``chunk_id`` graded (``None`` removes the judgment). With ``by``, the grade is
        also recorded as that judge's (replacing their earlier one; ``None`` removes it), at ``at``."""
        judgments = dict(self.judgments)
        if grade is None:
            judgments.pop(chunk_id, None)
        else:
            judgments[chunk_id] = _grade(grade, f"judgment {chunk_id!r}")
        ratings = self.ratings
        if by is not None:
            ratings = judges_io.with_rating(ratings, chunk_id, None if grade is None else Rating(by, grade, at), by)
        return replace(self, judgments=judgments, ratings=ratings)

    def rate(self, chunk_id: str, rating: Rating) -> GoldenQuery:
        """This query with ``rating`` recorded for ``chunk_id`` (the set's grade unchanged)."""
        return replace(self, ratings=judges_io.with_rating(self.ratings, chunk_id, rating, rating.by))

    def why(self, chunk_id: str) -> str:
        """The curator's reason for ``chunk_id``'s grade (the query's ``rationale``), ``""`` when none is given."""
        reasons = self.extra.get(RATIONALE)
        value = reasons.get(chunk_id) if isinstance(reasons, dict) else None
        return value if isinstance(value, str) else ""

    def with_why(self, chunk_id: str, text: str) -> GoldenQuery:
        """This query with ``text`` as the reason for ``chunk_id``'s grade (blank removes it); the other
        reasons and keys kept as they were."""
        current = self.extra.get(RATIONALE)
        reasons = dict(current) if isinstance(current, dict) else {}
        text = " ".join(text.split())
        if text:
            reasons[chunk_id] = text
        else:
            reasons.pop(chunk_id, None)
        extra = dict(self.extra)  # the key keeps its place in the file
        if reasons:
            extra[RATIONALE] = reasons
        else:
            extra.pop(RATIONALE, None)
        return replace(self, extra=extra)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "query": self.query}
        if self.mode is not None:
            out["mode"] = self.mode.value
        if self.chapter is not None:
            out["chapter"] = self.chapter
        if self.scholars or self.traditions:
            out["profile"] = {"scholars": list(self.scholars), "traditions": list(self.traditions)}
        out.update(self.extra)
        out["judgments"] = dict(self.judgments)
        if self.ratings:
            out[judges_io.KEY] = judges_io.to_json(self.ratings)
        return out


@dataclass(frozen=True)
class GoldenSet:
    """A named list of judged questions."""

    name: str
    queries: tuple[GoldenQuery, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    def query(self, query_id: str) -> GoldenQuery | None:
        return next((q for q in self.queries if q.id == query_id), None)

    def with_query(self, query: GoldenQuery) -> GoldenSet:
        """This set with ``query`` added, or replacing the query with the same id."""
        if self.query(query.id) is None:
            return replace(self, queries=(*self.queries, query))
        return replace(self, queries=tuple(query if q.id == query.id else q for q in self.queries))

    def judged_ids(self) -> set[str]:
        return {cid for q in self.queries for cid in q.judgments}

    def judges(self) -> list[str]:
        """Every judge the set records, in the order first met."""
        return list(dict.fromkeys(r.by for q in self.queries for rs in q.ratings.values() for r in rs))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, **self.extra, "queries": [q.to_json() for q in self.queries]}


def _grade(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in GRADES:
        raise GoldenError(f"{where}: a grade is an integer from 0 to 3, not {echo(value, 40)}")
    return value


def _strings(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise GoldenError(f"{where}: expected a list of strings")
    return tuple(value)


def _chapter(value: Any, where: str) -> str | None:
    """A query's ``chapter``: ``BOOK:CHAPTER`` as ``--chapter`` reads it (any book: the database decides)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise GoldenError(f"{where}: expected BOOK:CHAPTER as a string")
    try:
        parse_passage(value, check_bounds=False)
    except PassageError:
        raise GoldenError(f"{where}: '{echo(value, 40)}' is not BOOK:CHAPTER, e.g. romans:9") from None
    return value


def _not_text(data: Any) -> str | None:
    """Where in decoded JSON a string holds a lone surrogate (``"\\ud800"``: not text any file or
    terminal can hold), as ``queries[3].query``; ``None`` when every string is text."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, str):
            items: list[tuple[Any, str]] = []
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return where or "the file"
        elif isinstance(value, dict):
            items = []
            for k, v in value.items():
                try:
                    k.encode("utf-8")
                except UnicodeEncodeError:
                    return f"a key in {where or 'the file'}"
                items.append((v, f"{where}.{k}" if where else k))
        elif isinstance(value, list):
            items = [(v, f"{where}[{i}]") for i, v in enumerate(value)]
        else:
            items = []
        stack.extend(reversed(items))
    return None


def parse(data: Any) -> GoldenSet:
    """A :class:`GoldenSet` from decoded JSON (``GoldenError`` naming the key that is wrong)."""
    if not isinstance(data, dict):
        raise GoldenError("the file does not hold a JSON object")
    bad = _not_text(data)
    if bad is not None:
        raise GoldenError(f"{echo(bad)}: holds characters that are not text (a lone surrogate)")
    name = data.get("name")
    if not isinstance(name, str):
        raise GoldenError("key 'name': expected a string")
    raw_queries = data.get("queries")
    if not isinstance(raw_queries, list):
        raise GoldenError("key 'queries': expected a list")
    queries: list[GoldenQuery] = []
    seen: set[str] = set()
    for i, q in enumerate(raw_queries):
        where = f"queries[{i}]"
        if not isinstance(q, dict):
            raise GoldenError(f"{where}: expected an object")
        qid, text = q.get("id"), q.get("query")
        if not isinstance(qid, str) or not qid:
            raise GoldenError(f"{where}.id: expected a non-empty string")
        if qid in seen:
            raise GoldenError(f"{where}.id: '{echo(qid)}' appears twice")
        seen.add(qid)
        if not isinstance(text, str) or not text.strip():
            raise GoldenError(f"{where}.query: expected a non-empty string")
        mode = q.get("mode")
        if mode is not None and (not isinstance(mode, str) or mode not in {m.value for m in SearchMode}):
            raise GoldenError(f"{where}.mode: {echo(mode, 40)} is not semantic, hybrid or keyword")
        chapter = _chapter(q.get("chapter"), f"{where}.chapter")
        profile = q.get("profile", {})
        if not isinstance(profile, dict):
            raise GoldenError(f"{where}.profile: expected an object")
        judgments = q.get("judgments", {})
        if not isinstance(judgments, dict):
            raise GoldenError(f"{where}.judgments: expected an object of chunk id → grade")
        extra = {k: v for k, v in q.items()
                 if k not in ("id", "query", "mode", "chapter", "profile", "judgments", judges_io.KEY)}
        try:
            ratings = judges_io.parse(q.get(judges_io.KEY, {}), f"{where}.{judges_io.KEY}", _grade)
        except GoldenError:
            raise
        except ValueError as exc:
            raise GoldenError(str(exc)) from None
        queries.append(
            GoldenQuery(
                id=qid,
                query=text,
                judgments={str(c): _grade(g, f"{where}.judgments['{echo(c, 60)}']") for c, g in judgments.items()},
                mode=SearchMode(mode) if mode is not None else None,
                chapter=chapter,
                scholars=_strings(profile.get("scholars", []), f"{where}.profile.scholars"),
                traditions=_strings(profile.get("traditions", []), f"{where}.profile.traditions"),
                extra=extra,
                ratings=ratings,
            )
        )
    extra = {k: v for k, v in data.items() if k not in ("name", "queries")}
    return GoldenSet(name, tuple(queries), extra)


def load(path: str | Path) -> GoldenSet:
    """Read a golden file. ``GoldenError`` for a file that is not valid (naming the line or the key), that
    is not a regular file (a FIFO would block, ``/dev/zero`` never ends) or is larger than
    :data:`MAX_FILE_BYTES`; ``OSError`` when it cannot be read."""
    name = Path(path).name
    try:
        raw = read_small(path, MAX_FILE_BYTES)
    except FileReadError as exc:
        raise GoldenError(f"{exc.strerror}") from None
    try:
        data = loads(raw.decode("utf-8"))
    except NotJson as exc:  # NaN, Infinity, 1e999
        raise GoldenError(f"{name}: {_key(exc.problem.path)}: {exc.problem.message}") from None
    except UnicodeDecodeError as exc:
        raise GoldenError(f"{name} is not UTF-8 text (byte {exc.start})") from None
    except json.JSONDecodeError as exc:
        raise GoldenError(f"{name}, line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise GoldenError(f"{name} is nested too deeply to be a golden set") from None
    except ValueError as exc:  # a number of more than 4,300 digits
        raise GoldenError(f"{name}: {echo(str(exc))}") from None
    return parse(data)


def _key(pointer: str) -> str:
    """A JSON pointer as this module names keys: ``/queries/0/judgments/a`` → ``queries[0].judgments['a']``."""
    out = ""
    parent = ""
    for raw in (p for p in pointer.split("/") if p):
        part = raw.replace("~1", "/").replace("~0", "~")
        if part.isdigit():
            out += f"[{part}]"
        elif parent == "judgments":
            out += f"['{echo(part, 60)}']"
        else:
            out += f".{part}" if out else part
        parent = part
    return out or "the file"


def save(golden: GoldenSet, path: str | Path) -> None:
    """Write ``golden`` to ``path`` atomically (a temporary file beside it, then a rename)."""
    write_json(golden.to_json(), path)


def write_json(data: Any, path: str | Path) -> None:
    """Write ``data`` as indented UTF-8 JSON atomically (a temporary file beside ``path``, fsynced, renamed)."""
    path = Path(path)
    raw = (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
