"""What-if: the question on screen re-ranked with weights being tried, against the saved ones. No Qt."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ...core.query import BoostWeights
from ...core.results import RetrievalResult
from ...retrieval import rerank_result

if TYPE_CHECKING:
    from .facade import Workbench


@dataclass(frozen=True)
class WhatIf:
    """The question on screen re-ranked with the what-if weights.

    ``saved_ranks``: each chunk's rank under the saved weights (the Move column compares with it);
    ``ms``: how long the re-rank took.
    """

    result: RetrievalResult
    weights: BoostWeights
    saved_ranks: Mapping[str, int]
    ms: float

    def move(self, chunk_id: str, rank: int) -> int | None:
        """Places moved up (+) or down (−) against the saved weights; ``None``: new in the top k."""
        before = self.saved_ranks.get(chunk_id)
        return None if before is None else before - rank


class WhatIfJob:
    """The weights being tried (:attr:`weights`) and the ranking they give (:attr:`whatif`)."""

    def __init__(self, bench: Workbench) -> None:
        self._bench = bench
        self.weights: BoostWeights = bench.session.prefs.settings.weights
        self.whatif: WhatIf | None = None
        self._last_saved = self.weights

    @property
    def saved_weights(self) -> BoostWeights:
        return self._bench.session.prefs.settings.weights

    @property
    def dirty(self) -> bool:
        """Whether the what-if weights differ from the saved ones."""
        return self.weights != self.saved_weights

    def set_weights(self, weights: BoostWeights) -> None:
        """Try ``weights``: the question on screen re-ranks from its kept candidates."""
        if weights != self.weights:
            self.weights = weights
            self.rerank()

    def save_weights(self) -> None:
        """Make the what-if weights the saved ones (the settings file; every later ask uses them)."""
        w = self.weights
        session = self._bench.session
        s = session.prefs.settings.replace(
            chapter_boost=w.chapter, scholar_boost=w.scholar, tradition_boost=w.tradition,
            reference_boost=w.reference, per_scholar_cap=w.per_scholar_cap)
        session.apply_settings(s)

    def reset(self) -> None:
        """Back to the saved weights."""
        self.set_weights(self.saved_weights)

    def settings_changed(self) -> None:
        """New saved weights (here or in the settings dialog): what-if weights that were the old saved
        ones follow them; weights being tried stay."""
        if self.weights == self._last_saved:
            self.weights = self.saved_weights
        self._last_saved = self.saved_weights
        self.rerank()

    def rerank(self) -> None:
        session = self._bench.session
        view = session.question.view
        if view is None:
            self.whatif = None
        else:
            ctx = session.context(view.result.query).replace(weights=self.weights)
            t0 = time.perf_counter()
            result = rerank_result(view.result, ctx)
            ms = (time.perf_counter() - t0) * 1000
            self.whatif = WhatIf(result, self.weights, {r.chunk_id: r.rank for r in view.result.results}, ms)
        self._bench.changed.emit(None)
