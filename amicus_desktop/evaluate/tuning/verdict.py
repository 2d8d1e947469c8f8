"""The weight search's report in words: train and held-out, the interval, how many questions, and the
warnings that keep a curator from applying weights fitted to the training questions. No Qt."""

from __future__ import annotations

from typing import Any

from .search import Outcome
from .space import differences

#: fewer held-out questions than this cannot show a small gain (the interval is too wide)
FEW_QUESTIONS = 30


def changes(outcome: Outcome) -> list[str]:
    """``Chapter × 1.5 → 1.25`` for each setting the search changed."""
    return [f"{k.label} {k.words(a)} → {k.words(b)}" for k, a, b in differences(outcome.start, outcome.best)]


def warnings(outcome: Outcome) -> list[str]:
    """Why the found weights might not be better for a reader; empty when the held-out gain is clear."""
    o = outcome
    out = []
    if not changes(o):
        out.append("The search found nothing better than the current weights on the training questions.")
        return out + _few(o) + _ending(o)
    if o.held_delta < 0:
        out.append(f"Worse on the held-out questions ({o.held_delta:+.3f}): the search fitted the training "
                   "questions. Do not apply these weights.")
    elif not o.significant:
        out.append(f"The held-out gain ({o.held_delta:+.3f}) is within noise: its 95% interval "
                   f"[{o.low:+.3f}, {o.high:+.3f}] includes 0, so these weights are not shown to beat the current "
                   "ones on questions they were not chosen on. Keep the current weights, or judge more questions "
                   "and search again.")
    if o.train_delta > 0 and o.held_delta < o.train_delta / 2:
        out.append(f"Most of the training gain ({o.train_delta:+.3f}) does not carry over to the held-out "
                   f"questions ({o.held_delta:+.3f}): expect the held-out number, not the training one.")
    out += _few(o)
    if abs(o.judged_after - o.judged_before) >= 0.02 or o.judged_after < 0.9:
        out.append(f"Held-out top 10s judged: {o.judged_before:.0%} with the current weights, {o.judged_after:.0%} "
                   "with the found ones. Unjudged results count as not relevant: judge the gaps before trusting "
                   "a difference.")
    return out + _ending(o)


def _few(o: Outcome) -> list[str]:
    if o.held < FEW_QUESTIONS:
        return [f"Only {o.held} held-out questions: an interval this wide cannot show a small gain."]
    return []


def _ending(o: Outcome) -> list[str]:
    if o.ended == "budget":
        return ["The time budget ended the search before it converged; a longer budget may find more."]
    if o.ended == "stopped":
        return ["The search was stopped before it converged."]
    return []


def summary(outcome: Outcome) -> list[str]:
    """The report's lines: what was searched, the change, train and held-out numbers, then the warnings."""
    o = outcome
    found = changes(o)
    lines = [
        f"Tried {o.tried} configurations in {o.seconds:.0f} s ({o.rounds} round{'s' if o.rounds != 1 else ''} of "
        f"coordinate ascent) on {o.train} training questions; the other {o.held} held-out questions were not "
        "seen by the search.",
        "Found: " + ("; ".join(found) if found else "no change") + ".",
        f"Training questions, mean nDCG@10: {o.train_before:.3f} → {o.train_after:.3f} ({o.train_delta:+.3f}).",
        f"Held-out questions, mean nDCG@10: {o.held_mean_before:.3f} → {o.held_mean_after:.3f} "
        f"({o.held_delta:+.3f}; 95% interval [{o.low:+.3f}, {o.high:+.3f}], paired bootstrap over {o.held} "
        "questions).",
    ]
    return lines + warnings(o)


def to_json(outcome: Outcome) -> dict[str, Any]:
    o = outcome
    return {
        "start": o.start.describe(), "best": o.best.describe(),
        "changes": [{"setting": k.name, "from": a, "to": b} for k, a, b in differences(o.start, o.best)],
        "train": {"questions": o.train, "before": o.train_before, "after": o.train_after},
        "held_out": {"questions": o.held, "before": o.held_mean_before, "after": o.held_mean_after,
                     "delta": o.held_delta, "ci95": [o.low, o.high], "significant": o.significant,
                     "judged_share": {"before": o.judged_before, "after": o.judged_after}},
        "tried": o.tried, "rounds": o.rounds, "seconds": o.seconds, "ended": o.ended,
        "warnings": warnings(o),
    }
