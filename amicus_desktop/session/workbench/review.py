"""What a curator reviews in the open golden set: the judgment gaps of the last evaluation (a queue to
judge) and how far the set's judges agree (the items they disagree on most). No Qt, no I/O: both are
computed from the set and the last report, again only when either changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...evaluate.agreement import Agreement, agreement
from ...evaluate.gaps import Coverage, Gap, coverage, queue
from ...evaluate.golden import GoldenSet
from ...evaluate.run import EvalReport

if TYPE_CHECKING:
    from .facade import Workbench


class ReviewJob:
    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self._gaps: tuple[GoldenSet | None, EvalReport | None, list[Gap]] = (None, None, [])
        self._agreement: tuple[GoldenSet | None, Agreement | None] = (None, None)

    def gaps(self) -> list[Gap]:
        """The unjudged chunks of the last evaluation's top 10s, question by question, in rank order. A
        chunk graded since stays in the queue (with its grade) until the next evaluation, so the cursor does
        not jump under the curator."""
        golden, report = self._bench.golden, self._bench.report
        if golden is None or report is None:
            return []
        _g, r, found = self._gaps
        if r is not report:
            found = queue(golden, [report])
            self._gaps = (golden, report, found)
        return found

    def coverage(self) -> Coverage | None:
        golden, report = self._bench.golden, self._bench.report
        return coverage(golden, report) if golden is not None and report is not None else None

    def agreement(self) -> Agreement | None:
        golden = self._bench.golden
        if golden is None:
            return None
        g, found = self._agreement
        if g is not golden or found is None:
            found = agreement(golden)
            self._agreement = (golden, found)
        return found
