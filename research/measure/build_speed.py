"""How fast ``build-db`` embeds, beside the model alone on the same texts (the ceiling): chunks per second.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python research/measure/build_speed.py [--books jude,philemon,titus]

Reads the chosen books' chunks as the builder does (``collect_chunks``, the texts ``embedding_text`` makes),
then times, in one process and one after the other on the same texts:

* ``build``: the builder's loop (``embed_batches``, batches of 64 in the sources' order), with the
  real local model — what ``build-db`` and ``build-db --resume`` do;
* ``build-512``: the same loop with batches of 512 (the model sorts each call's texts by length, so a
  bigger call pads less);
* ``model``: the model alone, one call with every text (sorted by length once, no loop around it);
* ``model-1t``: the same with one onnxruntime thread (what one core gives);
* ``build-lanes``: the builder's loop on two lanes (``corpus/lanes.py``: one single-threaded session per core,
  alternate batches side by side) — what ``build-db`` does now; its vectors are compared with ``build``'s
  (the largest difference of any component is printed);
* ``file-1t``, ``file-lanes``: ``model-1t`` and ``build-lanes`` on the model file's graph as shipped
  (``LocalMiniLMBackend(fused=False)``), the graph every run above replaced (``embedding/fused_graph.py``):
  the old graph beside the new one in one run, with the largest difference of any vector component.

``--runs build,build-lanes,model`` picks the runs (default: all). ``--graphs`` runs only the four that compare
the graphs (``model-1t,file-1t,build-lanes,file-lanes``). Each line gives chunks/s, word pieces/s (after
truncation, as the model sees them) and CPU seconds.

On a shared machine give ratios to ``model`` measured in the same run, not absolute numbers.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--books", default="jude,philemon,titus")
    parser.add_argument("--runs", default="build,build-lanes,model,build-512,model-1t,file-1t,file-lanes")
    parser.add_argument("--graphs", action="store_true", help="only model-1t,file-1t,build-lanes,file-lanes")
    args = parser.parse_args()
    if args.graphs:
        args.runs = "model-1t,file-1t,build-lanes,file-lanes"
    import numpy as np
    from tokenizers import Tokenizer

    from amicus_desktop.corpus.build import collect_chunks, embed_batches, embedding_text
    from amicus_desktop.corpus.lanes import lanes_for
    from amicus_desktop.corpus.library import Library
    from amicus_desktop.corpus.sources.common import BibleText, Scope
    from amicus_desktop.embedding.local import MAX_TOKENS, TOKENIZER_PATH, LocalMiniLMBackend

    library = Library()
    whole = BibleText.whole(library)
    _, records = collect_chunks(Scope.of(args.books.split(",")), library, whole=whole)
    records = [r for r in records if r.source_type != "meta_faq"]
    texts = [embedding_text(r, whole.verses) for r in records]
    model = LocalMiniLMBackend()
    model.embed(texts[:8])  # load and warm up
    one = LocalMiniLMBackend(threads=1)
    one.embed(texts[:8])
    lanes = lanes_for(model, 2)
    file_model = LocalMiniLMBackend(fused=False)
    file_one = file_model.single_threaded()
    file_lanes = lanes_for(file_model, 2)
    for warm in [*lanes, file_one, *file_lanes]:
        warm.embed(texts[:8])
    assert model.graph == "fused" and file_one.graph == "file"
    tokenizer = Tokenizer.from_file(str(TOKENIZER_PATH))
    tokenizer.enable_truncation(MAX_TOKENS)
    pieces = sum(len(e.ids) for e in tokenizer.encode_batch(texts))
    runs: dict[str, Callable[[], object]] = {
        "build": lambda: [v for _, v in embed_batches(model, records, batch=64, verses=whole.verses)],
        "build-lanes": lambda: [v for _, v in embed_batches(model, records, batch=64, verses=whole.verses,
                                                            lanes=lanes)],
        "build-512": lambda: [v for _, v in embed_batches(model, records, batch=512, verses=whole.verses)],
        "model": lambda: model.embed(texts),
        "model-1t": lambda: one.embed(texts),
        "file-1t": lambda: file_one.embed(texts),
        "file-lanes": lambda: [v for _, v in embed_batches(file_model, records, batch=64, verses=whole.verses,
                                                           lanes=file_lanes)],
    }
    print(f"{len(records)} chunks of {args.books} ({pieces} word pieces, {pieces / len(records):.0f} a chunk); "
          f"load average {os.getloadavg()[0]:.1f} at the start")
    rates: dict[str, float] = {}
    cpus: dict[str, float] = {}
    vectors: dict[str, np.ndarray] = {}
    for name in args.runs.split(","):
        fn = runs[name]
        t0, c0 = time.perf_counter(), time.process_time()
        out = fn()
        vectors[name] = np.concatenate(out) if isinstance(out, list) else np.asarray(out)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        rates[name] = len(records) / wall
        print(f"{name:11} {wall:7.1f} s wall {cpu:7.1f} s CPU ({cpu / wall:4.0%} of a core) "
              f"{rates[name]:6.1f} chunks/s {pieces / wall:7.0f} word pieces/s "
              f"{len(records) / cpu:6.1f} chunks/CPU-s  load {os.getloadavg()[0]:.1f}", flush=True)
        cpus[name] = cpu
    if "build" in vectors and "build-lanes" in vectors:
        a, b = vectors["build"], vectors["build-lanes"]
        print(f"build-lanes vs build: largest difference {float(np.abs(a - b).max()):.2e}, "
              f"identical bit for bit: {bool(np.array_equal(a, b))}")
    for new, old in (("model-1t", "file-1t"), ("build-lanes", "file-lanes")):
        if new in vectors and old in vectors:
            a, b = vectors[new], vectors[old]
            print(f"{new} (fused graph) vs {old} (file's graph): {rates[new] / rates[old]:.2f}× the chunks/s, "
                  f"{cpus[old] / cpus[new]:.2f}× less CPU; largest difference {float(np.abs(a - b).max()):.2e}, "
                  f"lowest cosine {float((a * b).sum(axis=1).min()):.7f}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    base = rates.get("model")
    for name, rate in rates.items():
        if base:
            print(f"{name:11} {rate / base:.2f}× the model alone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
