"""Snapshots: the top 10 of every golden question under one configuration, saved under a name.

A snapshot is what Quepid calls one: a ranking frozen in time so a later one can be compared with
it. It keeps the rankings, not the scores, so two snapshots are compared on the golden set's
*current* judgments (a grade given after the snapshot still counts). Plain JSON, written atomically::

    {"name": "before-tuning", "created": "2026-11-23T19:40:00Z", "golden": "demo",
     "config": "hybrid, chapter ×1.5, …", "model": "all-MiniLM-L6-v2",
     "settings": {"knobs": {"mode": "hybrid", …}, "policy": {…}, "overlay": null, "label": ""},
     "library": {"path": "…/scripture.db", "chunks": 4645, "model": "all-MiniLM-L6-v2", "built": "…"},
     "metrics": {"mean": {"ndcg@10": 0.64, …}, "questions": {"q1": {"ndcg@10": 0.8, …}}},
     "queries": [{"id": "q1", "query": "…", "ranked": ["<chunk_id>", …]}]}

``settings`` is the configuration that made it (:mod:`.configs`: the request model's knobs, the policy, the
overlay, the workspace), so a snapshot can be asked again on today's library (:mod:`.replay`); ``library``
which library it ranked and ``metrics`` its scores on the judgments of that day. A snapshot saved before
these were recorded has none of the three: it still compares, but cannot be replayed.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.text import echo
from ..files import read_small
from . import configs, metrics
from .golden import GoldenSet, write_json
from .run import METRICS, EvalReport

SUFFIX = ".json"
#: a snapshot of 1,000 questions is ~0.5 MB; past this a file is not one (and is not read into memory)
MAX_FILE_BYTES = 16 << 20


class SnapshotError(ValueError):
    """A snapshot file that cannot be read; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Snapshot:
    """The top 10 of each golden question, by question id."""

    name: str
    created: str
    golden: str
    config: str
    model: str
    queries: tuple[tuple[str, str, tuple[str, ...]], ...]  # (id, query, ranked)
    #: the configuration that made it (:func:`.configs.to_json`); empty in a snapshot saved before it was kept
    settings: Mapping[str, Any] = field(default_factory=dict)
    #: the library it ranked: its path, chunk count, model and build
    library: Mapping[str, Any] = field(default_factory=dict)
    #: its scores when it was made: ``mean`` and per question (``questions``)
    metrics: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, name: str, report: EvalReport, library: Mapping[str, Any] | None = None) -> Snapshot:
        created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        scores = {"mean": dict(report.mean), "pool_recall": report.pool_recall, "judged_share": report.judged_share,
                  "questions": {q.id: dict(q.scores) for q in report.queries}}
        return cls(name, created, report.name, report.config.describe(), report.model,
                   tuple((q.id, q.query, q.ranked) for q in report.queries), configs.to_json(report.config),
                   dict(library or {}), scores)

    @property
    def replayable(self) -> bool:
        """Whether the snapshot kept the configuration that made it (one saved before it was kept did not)."""
        return bool(self.settings)

    def ranked(self, query_id: str) -> tuple[str, ...] | None:
        return next((r for qid, _q, r in self.queries if qid == query_id), None)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "created": self.created, "golden": self.golden,
                               "config": self.config, "model": self.model}
        for key in ("settings", "library", "metrics"):
            if getattr(self, key):
                out[key] = dict(getattr(self, key))
        out["queries"] = [{"id": i, "query": q, "ranked": list(r)} for i, q, r in self.queries]
        return out


@dataclass(frozen=True)
class QueryChange:
    """One question's nDCG@10 in snapshot A and B (``None``: the snapshot lacks the question)."""

    id: str
    query: str
    a: float | None
    b: float | None

    @property
    def delta(self) -> float | None:
        return None if self.a is None or self.b is None else self.b - self.a


def file_name(name: str) -> str:
    """A safe file name for a snapshot called ``name`` (letters, digits, ``-`` and ``_``)."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", name.strip()).strip("-")
    if not slug:
        raise ValueError("a snapshot needs a name with at least one letter or digit")
    return slug + SUFFIX


def save(snapshot: Snapshot, folder: Path) -> Path:
    path = folder / file_name(snapshot.name)
    write_json(snapshot.to_json(), path)
    return path


def load(path: Path) -> Snapshot:
    """Read a snapshot; :class:`SnapshotError` naming the file for anything that is not one — a damaged
    or dangling file, a FIFO, one too large or too deeply nested, a value of the wrong type."""
    try:
        data = json.loads(read_small(path, MAX_FILE_BYTES).decode("utf-8"))
        return _snapshot(data)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc) or type(exc).__name__
        raise SnapshotError(f"{echo(path.name)} is not a readable snapshot ({echo(why, 120)})") from None


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} is not text")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError(f"{what} holds characters that are not text") from None
    return value


def _snapshot(data: Any) -> Snapshot:
    if not isinstance(data, dict):
        raise ValueError("it does not hold a JSON object")
    raw_queries = data.get("queries")
    if not isinstance(raw_queries, list):
        raise ValueError("'queries' is not a list")
    queries = []
    for i, q in enumerate(raw_queries):
        if not isinstance(q, dict) or not isinstance(q.get("ranked"), list):
            raise ValueError(f"queries[{i}] is not an object with a 'ranked' list")
        ranked = tuple(_text(c, f"queries[{i}].ranked") for c in q["ranked"])
        queries.append((_text(q.get("id"), f"queries[{i}].id"), _text(q.get("query"), f"queries[{i}].query"), ranked))
    created, golden, config, model = (_text(data.get(k, ""), k) for k in ("created", "golden", "config", "model"))
    kept = []
    for key in ("settings", "library", "metrics"):
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise ValueError(f"'{key}' is not an object")
        kept.append(value)
    if kept[0]:
        configs.from_json(kept[0])  # a configuration that cannot be rebuilt is said now, not at replay
    return Snapshot(_text(data.get("name"), "name"), created, golden, config, model, tuple(queries), *kept)


def listing(folder: Path) -> list[Path]:
    """The snapshot files in ``folder``, newest first (a name whose file is gone — a dangling link — is
    left out: :func:`load` would only say it cannot be read)."""
    try:
        entries = list(folder.iterdir()) if folder.is_dir() else []
    except OSError:
        return []
    dated: list[tuple[int, Path]] = []
    for p in entries:
        if p.suffix != SUFFIX or p.name.startswith("."):
            continue
        try:
            dated.append((p.stat().st_mtime_ns, p))
        except OSError:
            continue
    return [p for _mtime, p in sorted(dated, key=lambda t: t[0], reverse=True)]


def compare(a: Snapshot, b: Snapshot, golden: GoldenSet) -> list[QueryChange]:
    """Each golden question's nDCG@10 in ``a`` and ``b`` on the set's current judgments, the
    biggest changes first (questions missing from both snapshots are left out)."""
    out = []
    for q in golden.queries:
        ra, rb = a.ranked(q.id), b.ranked(q.id)
        if ra is None and rb is None:
            continue
        out.append(QueryChange(q.id, q.query,
                               None if ra is None else metrics.ndcg(ra, q.judgments),
                               None if rb is None else metrics.ndcg(rb, q.judgments)))
    return sorted(out, key=lambda c: -abs(c.delta or 0.0))


# -- before and after: what a change to the library did to the golden set's rankings -------------

#: A change smaller than this is no change (float noise in nDCG).
EPSILON = 1e-9


def empty(name: str, golden: GoldenSet, config: str, model: str) -> Snapshot:
    """A snapshot of a library that does not exist yet: every question ranks nothing."""
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    return Snapshot(name, created, golden.name, config, model, tuple((q.id, q.query, ()) for q in golden.queries))


@dataclass(frozen=True)
class QuestionDiff:
    """One golden question before and after: its metrics, and which chunks entered or left its top 10."""

    id: str
    query: str
    before: dict[str, float]
    after: dict[str, float]
    entered: tuple[str, ...]
    left: tuple[str, ...]

    @property
    def delta(self) -> dict[str, float]:
        return {m: self.after[m] - self.before[m] for m in self.after}

    @property
    def verdict(self) -> str:
        """``better``, ``worse`` or ``same``, by nDCG@10 (the set's headline metric, as ``eval --compare``)."""
        d = self.delta["ndcg@10"]
        return "better" if d > EPSILON else "worse" if d < -EPSILON else "same"

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "query": self.query, "verdict": self.verdict, "before": self.before,
                "after": self.after, "delta": self.delta, "entered": list(self.entered), "left": list(self.left)}


@dataclass(frozen=True)
class SnapshotDiff:
    """Every golden question of two snapshots, scored on the set's current judgments."""

    before: Snapshot
    after: Snapshot
    questions: tuple[QuestionDiff, ...]

    @property
    def counts(self) -> dict[str, int]:
        out = {"better": 0, "worse": 0, "same": 0}
        for q in self.questions:
            out[q.verdict] += 1
        return out

    def mean(self, which: str) -> dict[str, float]:
        rows = [q.before if which == "before" else q.after for q in self.questions]
        return {m: (sum(r[m] for r in rows) / len(rows) if rows else 0.0) for m in METRICS}

    def headline(self) -> str:
        """``3 better, 1 worse, 69 same``."""
        c = self.counts
        return f"{c['better']} better, {c['worse']} worse, {c['same']} same"

    def to_json(self) -> dict[str, object]:
        before, after = self.mean("before"), self.mean("after")
        return {"before": self.before.name, "after": self.after.name, "golden": self.after.golden,
                "config": self.after.config, **self.counts,
                "mean": {"before": before, "after": after, "delta": {m: after[m] - before[m] for m in after}},
                "questions": [q.to_json() for q in self.questions]}


def diff(before: Snapshot, after: Snapshot, golden: GoldenSet) -> SnapshotDiff:
    """Each question of ``golden`` in ``before`` and ``after`` (a question a snapshot lacks ranks nothing
    there): all three metrics on the set's current judgments, the biggest nDCG@10 changes first."""
    out = []
    for q in golden.queries:
        ra, rb = before.ranked(q.id) or (), after.ranked(q.id) or ()
        out.append(QuestionDiff(q.id, q.query, metrics.scores(ra, q.judgments), metrics.scores(rb, q.judgments),
                                tuple(c for c in rb if c not in ra), tuple(c for c in ra if c not in rb)))
    out.sort(key=lambda d: (-abs(d.delta["ndcg@10"]), d.id))
    return SnapshotDiff(before, after, tuple(out))
