"""What every measurement of the benchmark's children shares: the constants of what is asked, the
statistics of a list of samples, and the progress line (no Qt).
"""

from __future__ import annotations

import sys
import time

import numpy as np

from ..core.query import BoostWeights, Profile

K = 40  # CONTRACT section 3: 40 candidates by default
#: What the workbench's what-if does on each spin-box step: a new chapter boost (and no cap) over
#: the kept candidates; alternating values so every re-rank reorders.
WHAT_IF = (BoostWeights(chapter=1.3, per_scholar_cap=None), BoostWeights(chapter=2.0, scholar=1.3))
WARMUP = 3
FILTER_BOOK = "romans"
PROFILE = Profile.of(scholars=("calvin", "spurgeon"), traditions=("reformed",))


def stats(samples_ms: list[float]) -> dict[str, float]:
    """p50/p95 (numpy's linear interpolation), mean, min, max and the sample count."""
    a = np.asarray(samples_ms, dtype=np.float64)
    if a.size == 0:
        return {}
    p50, p95 = np.percentile(a, [50, 95])
    return {
        "p50": float(p50), "p95": float(p95), "mean": float(a.mean()),
        "min": float(a.min()), "max": float(a.max()), "n": int(a.size),
    }


def ms_since(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def log(msg: str) -> None:
    print(f"  {msg}", file=sys.stderr, flush=True)
