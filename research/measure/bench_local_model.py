"""Measure the local embedding backend: ``.venv/bin/python research/measure/bench_local_model.py [N [THREADS]]``.

Prints query latency (one short text, warm) and batch throughput on N chunks of 40..200 words of
English prose-like text taken from the standard library's docstrings, in words/s and word pieces/s.
"""

from __future__ import annotations

import importlib
import statistics
import sys
import time
import warnings

import numpy as np

from amicus_desktop.embedding import get_backend

MODULES = ("argparse", "asyncio", "collections", "json", "logging", "os", "pathlib", "re",
           "subprocess", "threading", "unittest", "email", "http.client", "urllib.request",
           "decimal", "datetime", "inspect", "textwrap", "shutil")


def corpus(n: int) -> list[str]:
    words: list[str] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in MODULES:
            module = importlib.import_module(name)
            for attr in dir(module):
                doc = getattr(getattr(module, attr, None), "__doc__", None)
                if isinstance(doc, str):
                    words += doc.split()
    rng = np.random.default_rng(0)
    chunks, i = [], 0
    while len(chunks) < n:
        length = int(rng.integers(40, 200))
        chunks.append(" ".join(words[i : i + length]))
        i = (i + length) % (len(words) - 300)
    return chunks


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 400
    chunks = corpus(n)
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else None
    backend = get_backend("local", threads=threads)
    t = time.perf_counter()
    backend.load()
    load_s = time.perf_counter() - t
    backend.embed(["warm up"])
    latencies = []
    for q in ["justification by faith", "what does Paul mean by grace in Romans 9",
              "who was Melchizedek"] * 20:
        t = time.perf_counter()
        backend.embed([q])
        latencies.append((time.perf_counter() - t) * 1000)
    words = sum(len(c.split()) for c in chunks)
    pieces = sum(len(e.ids) for e in backend._tokenizer.encode_batch(chunks))
    t, cpu = time.perf_counter(), time.process_time()
    backend.embed(chunks)
    took, cpu = time.perf_counter() - t, time.process_time() - cpu
    print(f"{backend.model_id}: load {load_s:.2f} s; query p50 {statistics.median(latencies):.1f} ms"
          f" (p95 {sorted(latencies)[int(0.95 * len(latencies))]:.1f} ms); {n} chunks, {words}"
          f" words in {took:.1f} s = {words / took:.0f} words/s, {pieces / took:.0f} pieces/s"
          f" ({backend.threads} threads; {words / cpu:.0f} words per CPU-second)")


if __name__ == "__main__":
    main()
