"""Embedders for ``build-db``: the embed proxy over HTTP (``--proxy URL``).

An embedder is any object with ``model_id: str``, ``dims: int`` and
``embed(texts) -> np.ndarray`` (``(n, dims)`` float32, rows L2-normalised). The in-process one is
``amicus_desktop.proxy.backends.get_backend("local")``; :class:`ProxyEmbedder` asks a running
proxy (CONTRACT section 2) so the database records exactly the model id that proxy reports.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

import httpx
import numpy as np

TOKEN_ENV = "AMICUS_PROXY_TOKEN"
MAX_PER_REQUEST = 64


class EmbedderError(RuntimeError):
    """The embedder could not produce vectors (message fit for a person; no texts or tokens)."""


class ProxyEmbedder:
    """Embeds through ``POST {url}/ai/embed`` with list inputs, at most 64 per request.

    ``model_id``/``dims`` come from the proxy's own answer (a one-text probe on first use), and
    every later answer must name the same model and size.
    """

    def __init__(self, url: str, *, token: str | None = None, per_request: int = MAX_PER_REQUEST,
                 timeout: float = 120.0, retries: int = 3) -> None:
        self.url = url.rstrip("/")
        self.token = token if token is not None else os.environ.get(TOKEN_ENV) or None
        self.per_request = max(1, min(int(per_request), MAX_PER_REQUEST))
        self.retries = retries
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        self._client = httpx.Client(
            headers=headers, timeout=httpx.Timeout(timeout, connect=5.0)
        )
        self._model_id: str | None = None
        self._dims: int | None = None

    # -- identity --------------------------------------------------------------------------------
    def _probe(self) -> None:
        if self._model_id is None:
            self._request(["probe"])

    @property
    def model_id(self) -> str:
        self._probe()
        assert self._model_id is not None
        return self._model_id

    @property
    def dims(self) -> int:
        self._probe()
        assert self._dims is not None
        return self._dims

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> ProxyEmbedder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- embedding -------------------------------------------------------------------------------
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        parts = [
            self._request(list(texts[i: i + self.per_request]))
            for i in range(0, len(texts), self.per_request)
        ]
        if not parts:
            return np.zeros((0, self.dims), dtype=np.float32)
        return np.vstack(parts)

    def _request(self, texts: list[str]) -> np.ndarray:
        last: str = ""
        for attempt in range(self.retries + 1):
            if attempt:
                time.sleep(min(2.0 ** attempt, 10.0))
            try:
                resp = self._client.post(f"{self.url}/ai/embed", json={"input": texts})
            except httpx.TransportError as exc:
                last = f"the embed proxy at {self.url} could not be reached ({type(exc).__name__})"
                continue
            if resp.status_code == 429:
                wait = resp.headers.get("Retry-After", "")
                time.sleep(min(float(wait), 30.0) if wait.replace(".", "", 1).isdigit() else 2.0)
                last = "the embed proxy kept rate-limiting the build"
                continue
            if resp.status_code in (401, 403):
                raise EmbedderError(
                    f"the embed proxy refused the token (HTTP {resp.status_code}); "
                    f"set {TOKEN_ENV} to the proxy's token"
                )
            if resp.status_code >= 500:
                last = f"the embed proxy failed (HTTP {resp.status_code})"
                continue
            if resp.status_code != 200:
                raise EmbedderError(_error_message(resp))
            return self._parse(resp, len(texts))
        raise EmbedderError(last or "the embed proxy gave no usable answer")

    def _parse(self, resp: httpx.Response, n: int) -> np.ndarray:
        try:
            body = resp.json()
            model = str(body["model"])
            dims = int(body["dims"])
            data = sorted(body["data"], key=lambda d: int(d["index"]))
            vecs = np.asarray([d["embedding"] for d in data], dtype=np.float32)
        except (ValueError, KeyError, TypeError) as exc:
            raise EmbedderError(f"the embed proxy's answer was malformed ({exc})") from None
        if vecs.shape != (n, dims) or not np.all(np.isfinite(vecs)):
            raise EmbedderError(
                f"the embed proxy returned vectors shaped {vecs.shape}, expected ({n}, {dims})"
            )
        if self._model_id is None:
            self._model_id, self._dims = model, dims
        elif (model, dims) != (self._model_id, self._dims):
            raise EmbedderError(
                f"the embed proxy changed model during the build ({self._model_id} → {model})"
            )
        norms = np.linalg.norm(vecs, axis=1, keepdims=True)
        return (vecs / np.maximum(norms, 1e-12)).astype(np.float32)


def _error_message(resp: httpx.Response) -> str:
    try:
        err = resp.json()["error"]
        return f"the embed proxy answered {err.get('code', resp.status_code)}: {err.get('message', '')}"
    except (ValueError, KeyError, TypeError):
        return f"the embed proxy answered HTTP {resp.status_code}"
