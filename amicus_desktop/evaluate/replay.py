"""A snapshot asked again on today's library, and the difference explained per question.

A snapshot keeps the configuration that made it (:mod:`.configs`); :func:`replay` rebuilds it, asks every
golden question under it on the library open now, and :func:`explain` sets the two rankings side by side on
the set's current judgments. Per question it says which judged chunks moved — from #2 to #7, into or out of the
top 10 — and which of them the library no longer holds, so a drop reads as "the grade-3 chunk left the top 10"
or "the library lost it", not a bare number. What changed between the two days is said too: the library (its
chunk count, model, build) and the judgments (scores are always on today's).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..retrieval import Retriever
from . import configs
from .golden import GoldenSet
from .lineup import rank_of
from .run import evaluate
from .snapshots import EPSILON, Snapshot, SnapshotDiff, diff


@dataclass(frozen=True)
class Moved:
    """A judged chunk whose rank differs: ``before`` and ``after`` (``None``: not in that top 10)."""

    chunk_id: str
    grade: int
    before: int | None
    after: int | None
    #: the library open now does not hold it
    gone: bool = False

    def words(self, title: Callable[[str], str] = str) -> str:
        """``“Henry — Romans 9:6-13” (grade 3) #2 → #7``, ``… left the top 10 (the library no longer holds it)``."""
        name = f"“{title(self.chunk_id)}” (grade {self.grade})"
        if self.after is None:
            why = " (the library no longer holds it)" if self.gone else ""
            return f"{name} left the top 10 (was #{self.before}){why}"
        if self.before is None:
            return f"{name} entered at #{self.after}"
        return f"{name} #{self.before} → #{self.after}"

    def to_json(self) -> dict[str, Any]:
        return {"chunk_id": self.chunk_id, "grade": self.grade, "before": self.before, "after": self.after,
                "gone": self.gone}


@dataclass(frozen=True)
class Explained:
    """One question's nDCG@10 then and now and the judged chunks that moved, the most relevant first."""

    id: str
    query: str
    before: float
    after: float
    moved: tuple[Moved, ...]

    @property
    def delta(self) -> float:
        return self.after - self.before

    def sentence(self, title: Callable[[str], str] = str, most: int = 3) -> str:
        """``nDCG@10 0.612 → 0.540: “…” (grade 3) #2 → #7; 1 more moved``."""
        head = f"nDCG@10 {self.before:.3f} → {self.after:.3f}"
        if not self.moved:
            return head + (": no judged chunk moved (unjudged ones did)" if abs(self.delta) > EPSILON else "")
        more = f"; {len(self.moved) - most} more moved" if len(self.moved) > most else ""
        return f"{head}: " + "; ".join(m.words(title) for m in self.moved[:most]) + more


@dataclass(frozen=True)
class Replay:
    """A snapshot (``then``) beside the same configuration asked today (``now``), question by question."""

    then: Snapshot
    now: Snapshot
    diff: SnapshotDiff
    questions: tuple[Explained, ...]

    def changes(self) -> list[str]:
        """What differs between the two days besides the rankings: the library, the model, the judgments."""
        out = []
        a, b = self.then.library, self.now.library
        if a.get("chunks") != b.get("chunks") and a.get("chunks") is not None:
            out.append(f"the library held {a.get('chunks')} chunks, now {b.get('chunks')}")
        if self.then.model != self.now.model:
            out.append(f"the embedding model was {self.then.model or 'not recorded'}, now {self.now.model}")
        if a.get("id") and a.get("id") != b.get("id"):
            out.append(f"the library is another build (built {a.get('built') or 'at an unknown time'}, "
                       f"now {b.get('built') or 'at an unknown time'})")
        then_mean = self.then.metrics.get("mean", {}) if isinstance(self.then.metrics.get("mean"), dict) else {}
        rescored = self.diff.mean("before").get("ndcg@10")
        if then_mean.get("ndcg@10") is not None and rescored is not None and \
                abs(float(then_mean["ndcg@10"]) - rescored) > 1e-6:
            out.append(f"the judgments changed: the snapshot scored nDCG@10 {float(then_mean['ndcg@10']):.3f} on the "
                       f"day, {rescored:.3f} on today's")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"snapshot": self.then.name, "config": self.then.config, "library": {"then": dict(self.then.library),
                                                                                   "now": dict(self.now.library)},
                "changes": self.changes(), **{k: v for k, v in self.diff.to_json().items() if k != "questions"},
                "questions": [{"id": q.id, "query": q.query, "before": q.before, "after": q.after, "delta": q.delta,
                               "moved": [m.to_json() for m in q.moved]} for q in self.questions]}


def explain(then: Snapshot, now: Snapshot, golden: GoldenSet, gone: set[str] | frozenset[str] = frozenset()) -> Replay:
    """``then`` and ``now`` on ``golden``'s current judgments; ``gone``: the judged chunks today's library lacks."""
    d = diff(then, now, golden)
    out = []
    for qd in d.questions:
        q = golden.query(qd.id)
        if q is None:
            continue
        ra, rb = then.ranked(q.id) or (), now.ranked(q.id) or ()
        moved = [Moved(c, g, rank_of(ra, c), rank_of(rb, c), c in gone)
                 for c, g in sorted(q.judgments.items(), key=lambda item: (-item[1], item[0]))]
        kept = tuple(m for m in moved if m.before != m.after and g_relevant(m))
        out.append(Explained(q.id, q.query, qd.before["ndcg@10"], qd.after["ndcg@10"], kept))
    return Replay(then, now, d, tuple(out))


def g_relevant(m: Moved) -> bool:
    """A chunk graded 0 moving says nothing about the score: only relevant ones (grade ≥ 1) explain it."""
    return m.grade >= 1


async def replay(snapshot: Snapshot, retriever: Retriever, golden: GoldenSet,
                 library: Mapping[str, Any] | None = None,
                 progress: Callable[[int, int], None] | None = None) -> Replay:
    """Ask every question of ``golden`` again under ``snapshot``'s configuration on ``retriever``'s library
    (``library``: how that library is described in the new snapshot). ``ValueError`` for a snapshot saved
    before its configuration was kept."""
    if not snapshot.replayable:
        raise ValueError(f"the snapshot {snapshot.name} was saved before snapshots kept their configuration: it can be "
                         "compared, not replayed")
    config = configs.from_json(snapshot.settings)
    report = await evaluate(retriever, golden, config, progress=progress)
    now = Snapshot.of(f"{snapshot.name}, replayed", report, library)
    return explain(snapshot, now, golden, frozenset(report.missing))


def library_of(path: str, chunks: int | None, model: str, meta: Mapping[str, str]) -> dict[str, Any]:
    """How a snapshot records the library it ranked: its path, size and model, its build's id (``build_id``:
    random per build, so two builds are told apart) and when it was built (``built_at``)."""
    return {"path": path, "id": meta.get("build_id", ""), "chunks": chunks, "model": model,
            "built": meta.get("built_at", "")}
