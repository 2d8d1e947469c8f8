"""Amicus Desktop: a desktop study companion with retrieval you can see into."""

import os
import sys

# One BLAS thread, set before numpy loads (a value the user sets wins). The app's matrix work is small (a
# question against a few hundred rows) and runs beside the service's lanes and the window: OpenBLAS's second
# thread only spins between calls. Measured on 2 cores at 200k × 1536 (docs/PERFORMANCE.md, "The service
# under load"): 29 → 14.7 ms of the service's CPU per answer, one client's latency 33 → 15 ms p50.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

# httpx's package imports its own command line (``httpx._main``, with click and pygments) only to offer
# ``httpx.main``, which nothing here runs. Marked absent before httpx loads, ``import httpx`` takes its own
# fallback for a missing ``httpx[cli]``: ~ 2 MB less in every process (docs/PERFORMANCE.md, "The app's start-up
# memory"). A process that imported httpx first keeps its command line.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

__version__ = "0.1.0"
