"""``eval``'s snapshots: ``--snapshot NAME`` keeps a run (its rankings, configuration, library and metrics),
``--replay NAME`` asks a snapshot again on today's library and explains per question what moved, and
``--compare`` given twice or more — or naming a snapshot — sets N rankings side by side against
``--baseline`` (:mod:`amicus_desktop.evaluate.lineup`).

A ``--compare`` SPEC is the first configuration changed by KEY=VALUE pairs (as before), or
``snapshot=NAME`` (a saved snapshot's rankings as they were: nothing is asked), or ``replay=NAME`` (the
configuration a snapshot kept, asked today). NAME is a snapshot's name in the data folder or a file's path.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .. import paths
from ..evaluate import EvalConfig, EvalReport, evaluate
from ..evaluate import configs as configs_io
from ..evaluate import snapshots as snap_io
from ..evaluate.golden import GoldenSet
from ..evaluate.lineup import Lineup, Ranking, lineup
from ..evaluate.replay import Replay, explain, library_of
from ..retrieval import Retriever

_SNAPSHOT_SPEC = re.compile(r"^\s*(snapshot|replay)\s*=\s*(.+?)\s*$", re.IGNORECASE)
#: the first column's name: the configuration the flags give
GIVEN = "as given"


def snapshot_spec(spec: str) -> tuple[str, str] | None:
    """``("snapshot", NAME)`` or ``("replay", NAME)`` for a SPEC naming a snapshot, else ``None``."""
    found = _SNAPSHOT_SPEC.match(spec)
    return (found.group(1).lower(), found.group(2)) if found else None


def snapshot_path(name: str) -> Path:
    """A snapshot by its file's path, else by its name in the data folder's snapshots."""
    given = Path(name)
    if given.suffix == snap_io.SUFFIX and given.is_file():
        return given
    return paths.snapshot_dir() / snap_io.file_name(name)


def load_snapshot(name: str) -> snap_io.Snapshot:
    """The snapshot ``name`` (:class:`~amicus_desktop.evaluate.snapshots.SnapshotError` naming it when it cannot
    be read)."""
    path = snapshot_path(name)
    if not path.is_file():
        raise snap_io.SnapshotError(f"there is no snapshot called {name} (looked for {path})")
    return snap_io.load(path)


@dataclass(frozen=True)
class Side:
    """A column to evaluate: a configuration asked on a library (``None``: a snapshot's rankings as they were)."""

    name: str
    config: EvalConfig | None
    db: Path
    proxy: str
    snapshot: snap_io.Snapshot | None = None


@dataclass(frozen=True)
class Change:
    """One ``--compare`` SPEC: changes to the first configuration (``kind`` ``config``: ``config`` and the
    ``connection``'s db and proxy), or a snapshot by name (``snapshot`` or ``replay``: ``spec`` is its name)."""

    spec: str
    kind: str
    config: EvalConfig | None = None
    connection: dict[str, str] = field(default_factory=dict)

    def side(self, db: Path, proxy: str) -> Side:
        """The column it makes (a snapshot is read now: :class:`SnapshotError` when it cannot be)."""
        if self.kind == "replay":
            return replay_side(self.spec, db, proxy)
        if self.kind == "snapshot":
            return Side(self.spec, None, db, proxy, load_snapshot(self.spec))
        return Side(self.spec, self.config, Path(self.connection.get("db", db)), self.connection.get("proxy", proxy))


async def evaluated(golden: GoldenSet, config: EvalConfig, db: Path, proxy: str,
                    token: str | None) -> tuple[EvalReport, dict[str, object]]:
    """``golden`` under ``config`` on ``db``, and the library as a snapshot records it."""
    retriever = Retriever(db, proxy, token)
    try:
        report = await evaluate(retriever, golden, config)
        info = await retriever.open()
        return report, library_of(str(db), info.chunk_count, info.model_id, info.meta)
    finally:
        await retriever.aclose()


async def run_lineup(golden: GoldenSet, first: EvalReport, sides: Sequence[Side], token: str | None,
                     baseline: int) -> tuple[Lineup, list[EvalReport]]:
    """The first run and each side as rankings of ``golden``, against the ``baseline``-th; the reports of the
    sides asked today (to keep in the history)."""
    rankings = [Ranking.of_report(GIVEN, first)]
    reports: list[EvalReport] = []
    for side in sides:
        if side.snapshot is not None and side.config is None:
            rankings.append(Ranking.of_snapshot(side.snapshot))
            continue
        assert side.config is not None
        report, _library = await evaluated(golden, side.config, side.db, side.proxy, token)
        reports.append(report)
        rankings.append(Ranking(side.name, report.config.describe(), {q.id: q.ranked for q in report.queries}))
    return lineup(rankings, golden, baseline), reports


def replay_side(name: str, db: Path, proxy: str) -> Side:
    """``replay=NAME``: the configuration the snapshot kept, asked on ``db`` today."""
    snapshot = load_snapshot(name)
    if not snapshot.replayable:
        raise snap_io.SnapshotError(f"the snapshot {snapshot.name} was saved before snapshots kept their "
                                    "configuration: compare it (snapshot=NAME), it cannot be replayed")
    return Side(f"{snapshot.name}, replayed", configs_io.from_json(snapshot.settings), db, proxy, snapshot)


async def run_replay(golden: GoldenSet, name: str, db: Path, proxy: str,
                     token: str | None) -> tuple[Replay, EvalReport]:
    """``--replay NAME``: the snapshot asked again on ``db``, explained per question."""
    side = replay_side(name, db, proxy)
    assert side.config is not None and side.snapshot is not None
    report, library = await evaluated(golden, side.config, db, proxy, token)
    now = snap_io.Snapshot.of(side.name, report, library)
    return explain(side.snapshot, now, golden, frozenset(report.missing)), report


def format_replay(found: Replay, shown: int = 20) -> str:
    then, now = found.then, found.now
    lines = [f"Snapshot {then.name} ({then.created}): {then.config}",
             f"Replayed on {now.library.get('path', 'the library')} · model {now.model}", ""]
    changes = found.changes()
    lines.append("Since then: " + "; ".join(changes) + "." if changes else
                 "The library, the model and the judgments are as they were.")
    before, after = found.diff.mean("before"), found.diff.mean("after")
    lines += ["", f"{'metric':<10} {'then':>7} {'now':>7} {'change':>8}"]
    lines += [f"{m:<10} {before[m]:7.3f} {after[m]:7.3f} {after[m] - before[m]:+8.3f}" for m in before]
    lines += ["", f"{found.diff.headline()} (nDCG@10 per question, on today's judgments)."]
    moved = sorted((q for q in found.questions if abs(q.delta) > 1e-9 or q.moved), key=lambda q: -abs(q.delta))
    for q in moved[:shown]:
        lines += ["", f"{q.id}: {q.query[:80]}", f"  {q.sentence()}"]
    if len(moved) > shown:
        lines += ["", f"… and {len(moved) - shown} more questions changed (--json lists every one)."]
    return "\n".join(lines)


def save_snapshot(name: str, report: EvalReport, library: dict[str, object]) -> Path:
    """``--snapshot NAME``: the run kept as a snapshot in the data folder."""
    return snap_io.save(snap_io.Snapshot.of(name, report, library), paths.snapshot_dir())
