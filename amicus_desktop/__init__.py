"""Amicus Desktop: a desktop study companion with retrieval you can see into."""

import os

# One BLAS thread, set before numpy loads (a value the user sets wins). The app's matrix work is small (a
# question against a few hundred rows) and runs beside the service's lanes and the window: OpenBLAS's second
# thread only spins between calls. Measured on 2 cores at 200k × 1536 (docs/PERFORMANCE.md, "The service
# under load"): 29 → 14.7 ms of the service's CPU per answer, one client's latency 33 → 15 ms p50.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
