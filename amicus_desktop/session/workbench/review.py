"""What a curator reviews in the open golden set: the judgment gaps of the last evaluation (a queue to
judge) and how far the set's judges agree (the items they disagree on most). No Qt: both are computed from
the set and the last report, again only when either changed; the titles their rows show (a curator reads
"Matthew Henry, Concise Commentary — Romans 9:6-13", not ``mhcc:romans:9:6``) are read from the open
database on its thread, once each."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ...core.errors import AmicusError
from ...evaluate.agreement import Agreement, agreement
from ...evaluate.gaps import Coverage, Gap, coverage, queue
from ...evaluate.golden import GoldenSet
from ...evaluate.run import EvalReport
from ..engine import Engine
from .preview import read_titles

if TYPE_CHECKING:
    from .facade import Workbench


class ReviewJob:
    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self._gaps: tuple[GoldenSet | None, EvalReport | None, list[Gap]] = (None, None, [])
        self._agreement: tuple[GoldenSet | None, Agreement | None] = (None, None)
        self._titles: dict[str, str] = {}
        self._asked: set[str] = set()

    def titles(self, chunk_ids: Iterable[str]) -> dict[str, str]:
        """The titles known so far (chunk id → title); those of ``chunk_ids`` not read yet are read from the open
        database in the background, and :attr:`Workbench.changed` says when they arrive. A chunk the database
        does not hold keeps its id."""
        wanted = [c for c in dict.fromkeys(chunk_ids) if c not in self._titles and c not in self._asked]
        session = self._bench.session
        engine = session.engine
        if wanted and engine is not None and session.library.ready:
            self._asked.update(wanted)
            engine.spawn(self._read(engine, wanted))
        return self._titles

    def forget_titles(self) -> None:
        """Another database opened: its chunks may be titled otherwise."""
        self._titles, self._asked = {}, set()

    async def _read(self, engine: Engine, chunk_ids: list[str]) -> None:
        names = self._bench.session.library.names
        try:
            found = await engine.run_db(lambda store: read_titles(store, chunk_ids, names))
        except AmicusError:
            return
        self._titles.update(found)
        self._bench.changed.emit(None)

    def gaps(self) -> list[Gap]:
        """The unjudged chunks of the last evaluation's top 10s, question by question, in rank order. A
        chunk graded since stays in the queue (with its grade) until the next evaluation, so the cursor does
        not jump under the curator."""
        golden, report = self._bench.golden_job.golden, self._bench.eval_job.report
        if golden is None or report is None:
            return []
        _g, r, found = self._gaps
        if r is not report:
            found = queue(golden, [report])
            self._gaps = (golden, report, found)
        return found

    def coverage(self) -> Coverage | None:
        golden, report = self._bench.golden_job.golden, self._bench.eval_job.report
        return coverage(golden, report) if golden is not None and report is not None else None

    def agreement(self) -> Agreement | None:
        golden = self._bench.golden_job.golden
        if golden is None:
            return None
        g, found = self._agreement
        if g is not golden or found is None:
            found = agreement(golden)
            self._agreement = (golden, found)
        return found
