"""Real int8 arithmetic for the local model (the opt-in ``local-int8`` backend): speed and how far its vectors move.

    OPENBLAS_NUM_THREADS=1 nice .venv/bin/python research/measure/int8_compute.py [--books jude,philemon,titus]

The shipped ``model.onnx`` computes in float32 (its weights are int8 only on disk). The ``local-int8`` backend
(``embedding/int8_graph.py``) runs the fused graph (``embedding/fused_graph.py``) folded to float32 and then
dynamically quantised by ``onnxruntime.quantization.quantize_dynamic`` (int8 weights per output channel,
activations per batch: ``MatMulInteger``, ``QAttention``). This compares it, the fused graph (the default) and
the shipped graph on the builder's texts for the chosen books, one onnxruntime thread each, in one process:
CPU-seconds, and against the shipped graph's vectors the cosine of every text and how many of each demo golden
question's ten nearest texts are the same.

Its vectors are a model id of their own; docs/PERFORMANCE.md ("The model's graph") records what this printed and
docs/RELEVANCE.md the relevance beside the default.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--books", default="jude,philemon,titus")
    args = parser.parse_args()
    import numpy as np

    from amicus_desktop.corpus.build import collect_chunks, embedding_text
    from amicus_desktop.corpus.library import Library
    from amicus_desktop.corpus.sources.common import BibleText, Scope
    from amicus_desktop.embedding.local import LocalMiniLMBackend

    library = Library()
    whole = BibleText.whole(library)
    _, records = collect_chunks(Scope.of(args.books.split(",")), library, whole=whole)
    texts = [embedding_text(r, whole.verses) for r in records if r.source_type != "meta_faq"]
    golden = json.loads((ROOT / "resources/golden/demo.json").read_text(encoding="utf-8"))
    queries = [q["query"] for q in golden["queries"]]

    models = {"shipped": LocalMiniLMBackend(threads=1, fused=False),
              "fused": LocalMiniLMBackend(threads=1),
              "int8": LocalMiniLMBackend(threads=1, int8=True)}
    for model in models.values():
        model.embed(texts[:8])
    print(f"{len(texts)} chunks of {args.books}, {len(queries)} golden questions")
    vectors, cpu = {}, {}
    for name, model in models.items():
        c0 = time.process_time()
        vectors[name] = model.embed(texts)
        cpu[name] = time.process_time() - c0
        print(f"{name:8} {cpu[name]:7.1f} CPU-s {len(texts) / cpu[name]:6.1f} chunks/CPU-s", flush=True)
    ref = vectors["shipped"]
    q_ref = models["shipped"].embed(queries)
    top_ref = np.argsort(-(q_ref @ ref.T), axis=1)[:, :10]
    for name in ("fused", "int8"):
        cos = (vectors[name] * ref).sum(axis=1)
        q = models[name].embed(queries)
        top = np.argsort(-(q @ vectors[name].T), axis=1)[:, :10]
        same = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(top, top_ref, strict=True)])
        ordered = np.mean([np.array_equal(a, b) for a, b in zip(top, top_ref, strict=True)])
        print(f"{name:8} {cpu['shipped'] / cpu[name]:.2f}× less CPU than shipped; cosine with shipped: "
              f"mean {cos.mean():.5f}, 1st percentile {np.percentile(cos, 1):.5f}, lowest {cos.min():.5f}; "
              f"questions' top 10: {same:.1%} the same texts, {ordered:.0%} of lists identical in order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
