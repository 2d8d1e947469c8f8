"""The builder lanes' forward passes: CPU per text at other batch caps, and that the vectors do not move.

    OPENBLAS_NUM_THREADS=1 nice .venv/bin/python research/measure/lane_batches.py [--books ruth]
        [--caps 16/2048,16/512,8/512,4/2048,1/2048] [--verses 600] [--rounds 2]

One onnxruntime thread (a lane), the builder's calls (64 texts a call), each call's texts sorted by length and cut
into forward passes of at most ``batch`` texts and ``tokens`` padded word pieces (``LocalMiniLMBackend``'s
``batch_size`` / ``max_batch_tokens``). For each cap: the best CPU-seconds over ``--rounds`` interleaved rounds,
the ratio to the first cap's, and the largest difference of any vector component from the first cap's vectors.
Texts: the builder's embedding texts for ``--books``, and ``--verses`` whole-Bible verses (what the verse vectors
embed). docs/PERFORMANCE.md ("The lanes' batches") records what it printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--books", default="ruth")
    parser.add_argument("--caps", default="16/2048,16/512,8/512,4/2048,1/2048")
    parser.add_argument("--verses", type=int, default=600)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    import numpy as np

    from amicus_desktop.corpus.build import collect_chunks, embedding_text
    from amicus_desktop.corpus.library import Library
    from amicus_desktop.corpus.sources.common import BibleText, Scope
    from amicus_desktop.embedding.local import LocalMiniLMBackend

    library = Library()
    whole = BibleText.whole(library)
    _, records = collect_chunks(Scope.of(args.books.split(",")), library, whole=whole)
    sets = {args.books: [embedding_text(r, whole.verses) for r in records if r.source_type != "meta_faq"],
            "verses": list(whole.verses.values())[27000: 27000 + args.verses]}
    caps = [tuple(int(x) for x in c.split("/")) for c in args.caps.split(",")]
    for label, texts in sets.items():
        best: dict[tuple[int, ...], float] = {}
        first = None
        for _ in range(args.rounds):
            for cap in caps:
                model = LocalMiniLMBackend(threads=1, batch_size=cap[0], max_batch_tokens=cap[1])
                model.embed(texts[:8])
                c0 = time.process_time()
                vectors = np.concatenate([model.embed(texts[i: i + 64]) for i in range(0, len(texts), 64)])
                best[cap] = min(best.get(cap, float("inf")), time.process_time() - c0)
                first = vectors if first is None else first
                print(f"{label} {cap[0]}/{cap[1]}: {time.process_time() - c0:.2f} CPU-s, largest difference from "
                      f"{caps[0][0]}/{caps[0][1]} {float(np.abs(vectors - first).max()):.1e}", flush=True)
        base = best[caps[0]]
        print(f"{label} ({len(texts)} texts), best of {args.rounds}: " + "; ".join(
            f"{c[0]}/{c[1]} {t:.2f} CPU-s {base / t:.2f}×" for c, t in best.items()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
