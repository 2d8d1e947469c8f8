"""Mixed precision for the local model: int8 arithmetic on part of the graph only — speed and how far the vectors move.

    OPENBLAS_NUM_THREADS=1 nice .venv/bin/python research/measure/mixed_int8.py [--books jude] [--batch 16]
        [--configs all,ffn-up,...]

The fused graph (``embedding/fused_graph.py``, the default) folded to float32 as ``embedding/int8_graph.py`` folds
it, then ``onnxruntime.quantization.quantize_dynamic`` on a chosen set of nodes only (``nodes_to_quantize``; int8
weights per output channel unless the configuration says per tensor; activations per forward pass). Per layer the
graph has four weight products: the attention block (``Attention``: the packed Q/K/V projections and the attention
itself; quantised it becomes ``QAttention``), the attention's output projection (``out``), the feed-forward's
expansion (``up``, 384 → 1536) and its contraction (``down``, 1536 → 384, fed by the GELU). For each configuration,
one onnxruntime thread, on the builder's texts for ``--books``: CPU-seconds (the best of two passes) beside the fused
float graph's, and against the float graph's vectors the cosine of every text and of the demo golden questions
(embedded by the same configuration) and how many of each question's ten nearest texts are the same.
docs/PERFORMANCE.md ("Mixed precision") records what it printed.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

CONFIGS = "all,all-rr,all-pt,ffn-up,ffn,ffn-up+out,no-down,ffn+out,att+ffn-up,all-mid,ffn-mid,down-only"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--books", default="jude")
    parser.add_argument("--batch", type=int, default=16, help="texts per forward pass of the int8 graphs")
    parser.add_argument("--configs", default=CONFIGS)
    args = parser.parse_args()
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnxruntime.quantization import QuantType, quantize_dynamic

    from amicus_desktop.corpus.build import collect_chunks, embedding_text
    from amicus_desktop.corpus.library import Library
    from amicus_desktop.corpus.sources.common import BibleText, Scope
    from amicus_desktop.embedding.fused_graph import fuse_attention
    from amicus_desktop.embedding.local import LocalMiniLMBackend, _packaged_model_path

    logging.getLogger().setLevel(logging.ERROR)
    library = Library()
    whole = BibleText.whole(library)
    _, records = collect_chunks(Scope.of(args.books.split(",")), library, whole=whole)
    texts = [embedding_text(r, whole.verses) for r in records if r.source_type != "meta_faq"]
    golden = json.loads((ROOT / "resources/golden/demo.json").read_text(encoding="utf-8"))
    queries = [q["query"] for q in golden["queries"]]
    tmp = Path(tempfile.mkdtemp(prefix="amicus-mixed-"))
    folded = tmp / "folded.onnx"
    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
    options.optimized_model_filepath = str(folded)
    options.log_severity_level = 3
    fused = fuse_attention(onnx.load(str(_packaged_model_path())))
    assert fused is not None
    ort.InferenceSession(fused.SerializeToString(), options, providers=["CPUExecutionProvider"])
    nodes = onnx.load(str(folded)).graph.node
    att = [n.name for n in nodes if n.op_type == "Attention"]
    products = [n for n in nodes if n.op_type == "MatMul"]
    out = [n.name for n in products if n.input[0].startswith("view")]
    up = [n.name for n in products if n.input[0].startswith("layer_norm")]
    down = [n.name for n in products if n.input[0].startswith("gelu")]
    assert len(att) == len(out) == len(up) == len(down) == 6

    def mid(names: list[str]) -> list[str]:
        return names[1:-1]  # not the first layer, not the last

    everything = att + out + up + down
    configs: dict[str, tuple[list[str], bool, bool]] = {  # nodes, per channel, reduce range
        "all": (everything, True, False), "all-rr": (everything, True, True), "all-pt": (everything, False, False),
        "ffn-up": (up, True, False), "ffn": (up + down, True, False), "ffn-up+out": (up + out, True, False),
        "no-down": (att + out + up, True, False), "ffn+out": (up + down + out, True, False),
        "att+ffn-up": (att + up, True, False), "all-mid": (mid(att) + mid(out) + mid(up) + mid(down), True, False),
        "ffn-mid": (mid(up) + mid(down), True, False), "down-only": (down, True, False),
    }

    def backend(path: Path | None) -> LocalMiniLMBackend:
        model = LocalMiniLMBackend(threads=1, batch_size=args.batch if path else 16)
        model.load()
        if path is not None:
            o = ort.SessionOptions()
            o.intra_op_num_threads = o.inter_op_num_threads = 1
            o.log_severity_level = 3
            o.add_session_config_entry("session.intra_op.allow_spinning", "0")
            model._session = ort.InferenceSession(str(path), o, providers=["CPUExecutionProvider"])
        return model

    def timed(model: LocalMiniLMBackend) -> tuple[np.ndarray, float]:
        model.embed(texts[:8])
        best = float("inf")
        for _ in range(2):
            c0 = time.process_time()
            vectors = model.embed(texts)
            best = min(best, time.process_time() - c0)
        return vectors, best

    reference = backend(None)
    ref, ref_cpu = timed(reference)
    q_ref = reference.embed(queries)
    top_ref = np.argsort(-(q_ref @ ref.T), axis=1)[:, :10]
    print(f"{len(texts)} texts of {args.books}; fused float graph {ref_cpu:.2f} CPU-s "
          f"({len(texts) / ref_cpu:.1f} texts/CPU-s); int8 passes of {args.batch} texts", flush=True)
    for name in args.configs.split(","):
        chosen, per_channel, reduce_range = configs[name]
        path = tmp / f"{name}.onnx"
        quantize_dynamic(str(folded), str(path), weight_type=QuantType.QInt8, per_channel=per_channel,
                         reduce_range=reduce_range, nodes_to_quantize=chosen,
                         op_types_to_quantize=["MatMul", "Attention"])
        model = backend(path)
        vectors, cpu = timed(model)
        cos = (vectors * ref).sum(axis=1)
        q = model.embed(queries)
        q_cos = (q * q_ref).sum(axis=1)
        top = np.argsort(-(q @ vectors.T), axis=1)[:, :10]
        same = np.mean([len(set(a) & set(b)) / 10 for a, b in zip(top, top_ref, strict=True)])
        print(f"{name:11} {cpu:6.2f} CPU-s {ref_cpu / cpu:5.2f}× less; cosine mean {cos.mean():.5f} "
              f"1st pct {np.percentile(cos, 1):.5f} lowest {cos.min():.5f}; questions mean {q_cos.mean():.5f} "
              f"lowest {q_cos.min():.5f}; top 10 the same {same:.1%}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
