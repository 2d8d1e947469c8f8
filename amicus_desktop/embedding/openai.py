"""The ``openai`` backend: forwards to any OpenAI-compatible ``POST {upstream}/v1/embeddings``.

Wire format: ``{"model": M, "input": [...]}`` → ``{"data": [{"index": i, "embedding": [...]}],
"model": M}``. The API key comes from an environment variable and goes out only as
``Authorization: Bearer``; it is never logged and never put in an error message.

Failures map to the proxy's answers: upstream unreachable → 503, upstream 5xx / garbage / timeout
→ 502, upstream 429 → 429 with its ``Retry-After``.
"""

from __future__ import annotations

import email.utils
import logging
import math
import os
import threading
from collections.abc import Sequence
from typing import Any

import httpx
import numpy as np

from ..http.urls import check_url
from .base import (
    BackendUnavailable,
    UpstreamError,
    UpstreamRateLimited,
    Vectors,
    l2_normalise,
)

log = logging.getLogger("amicus.embedding")

DEFAULT_API_KEY_ENV = "OPENAI_API_KEY"
#: texts per upstream request (the proxy itself accepts at most 64 per request).
DEFAULT_MAX_BATCH = 256
#: what is sent as the probe when ``dims`` is not given and must be discovered.
PROBE_TEXT = "dimension probe"


class OpenAIBackend:
    """An OpenAI-compatible embeddings upstream. Thread-safe (one shared ``httpx.Client``)."""

    def __init__(self, *, upstream: str, model: str, api_key: str | None = None,
                 api_key_env: str = DEFAULT_API_KEY_ENV, dims: int | None = None,
                 timeout: float = 30.0, connect_timeout: float = 5.0,
                 max_batch: int = DEFAULT_MAX_BATCH,
                 transport: httpx.BaseTransport | None = None) -> None:
        if not upstream:
            raise ValueError("the openai backend needs an upstream URL")
        upstream = check_url(upstream)  # ValueError naming what is wrong (port 99999, a bad IP …)
        if not model:
            raise ValueError("the openai backend needs an upstream model name")
        if dims is not None and dims <= 0:
            raise ValueError("dims must be positive")
        self.upstream = upstream.rstrip("/")
        self.upstream_model = model
        self.model_id = model
        self._dims = dims
        self.max_batch = max(1, int(max_batch))
        key = api_key if api_key is not None else os.environ.get(api_key_env, "")
        if key and not (key.isascii() and key.isprintable() and " " not in key):
            raise ValueError(f"the API key in ${api_key_env} holds characters an HTTP header cannot carry "
                             "(only printable ASCII without spaces)")
        self.api_key_env = api_key_env
        self.has_api_key = bool(key)
        headers = {"Accept": "application/json"}
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._client = httpx.Client(
            headers=headers,
            timeout=httpx.Timeout(timeout, connect=connect_timeout, pool=connect_timeout),
            follow_redirects=False,
            trust_env=False,  # no proxy variables, no .netrc: the key goes only where we send it
            transport=transport,
        )
        self._dims_lock = threading.Lock()

    @property
    def endpoint(self) -> str:
        base = self.upstream
        return f"{base}/embeddings" if base.endswith("/v1") else f"{base}/v1/embeddings"

    @property
    def dims(self) -> int:
        """The vector length; asks the upstream once when it was not given."""
        if self._dims is None:
            self.load()
        assert self._dims is not None
        return self._dims

    def load(self) -> None:
        """Make sure ``dims`` is known (probing the upstream if needed); warn when there is no key."""
        if not self.has_api_key:
            log.warning("no API key in $%s: calling the upstream without one", self.api_key_env)
        if self._dims is None:
            with self._dims_lock:
                if self._dims is None:
                    self.embed([PROBE_TEXT])

    def close(self) -> None:
        self._client.close()

    # -- embedding --------------------------------------------------------------------------

    def embed(self, texts: Sequence[str]) -> Vectors:
        if isinstance(texts, str):
            raise TypeError("embed() takes a sequence of strings, not one string")
        texts = list(texts)
        if not texts:
            return np.zeros((0, self._dims or 0), dtype=np.float32)
        parts = [self._request(texts[i : i + self.max_batch])
                 for i in range(0, len(texts), self.max_batch)]
        return l2_normalise(np.concatenate(parts, axis=0))

    def _request(self, texts: list[str]) -> Vectors:
        try:
            response = self._client.post(
                self.endpoint, json={"model": self.upstream_model, "input": texts}
            )
        except (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout) as exc:
            raise BackendUnavailable(
                "The embedding upstream cannot be reached; check that it is running."
            ) from exc
        except httpx.TimeoutException as exc:
            raise UpstreamError(
                "The embedding upstream did not answer in time.", code="UPSTREAM_TIMEOUT"
            ) from exc
        except httpx.HTTPError as exc:  # reset, protocol error, ...
            raise UpstreamError("The embedding upstream broke off the connection.") from exc

        status = response.status_code
        if status == 429:
            raise UpstreamRateLimited(
                "The embedding upstream is rate limiting requests; try again shortly.",
                retry_after=_retry_after(response.headers.get("retry-after")),
            )
        if status in (401, 403):
            raise UpstreamError(
                "The embedding upstream refused the proxy's credentials; check the API key "
                "the proxy was started with.",
                code="UPSTREAM_AUTH",
            )
        if status >= 500:
            raise UpstreamError(f"The embedding upstream failed (HTTP {status}).")
        if status != 200:
            raise UpstreamError(
                f"The embedding upstream rejected the request (HTTP {status}).",
                code="UPSTREAM_REJECTED",
            )
        return self._parse(response, len(texts))

    def _parse(self, response: httpx.Response, n: int) -> Vectors:
        bad = UpstreamError("The embedding upstream sent an unusable answer.",
                            code="UPSTREAM_BAD_RESPONSE")
        try:
            body: Any = response.json()
        except ValueError as exc:
            raise bad from exc
        data = body.get("data") if isinstance(body, dict) else None
        if not isinstance(data, list) or len(data) != n:
            raise bad
        rows: list[Any] = [None] * n
        for item in data:
            index = item.get("index") if isinstance(item, dict) else None
            vector = item.get("embedding") if isinstance(item, dict) else None
            if (not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < n
                    or rows[index] is not None or not isinstance(vector, list) or not vector):
                raise bad
            rows[index] = vector
        try:
            matrix = np.array(rows, dtype=np.float32)
        except (TypeError, ValueError) as exc:  # ragged rows, strings, ...
            raise bad from exc
        if matrix.ndim != 2 or not np.isfinite(matrix).all():
            raise bad
        if not np.all(np.linalg.norm(matrix, axis=1) > 0):  # a zero vector has no direction
            raise bad
        width = matrix.shape[1]
        if self._dims is None:
            self._dims = width
        elif width != self._dims:
            raise UpstreamError(
                f"The embedding upstream sent {width}-dimensional vectors; the proxy serves "
                f"{self._dims}.",
                code="UPSTREAM_BAD_RESPONSE",
            )
        return matrix


def _retry_after(value: str | None) -> str:
    """The upstream's ``Retry-After`` if it is a sane number of seconds or an HTTP date, else 1."""
    if value:
        value = value.strip()
        if value.isdigit() and len(value) <= 6:
            return value
        try:
            seconds = float(value)
        except ValueError:
            if email.utils.parsedate_tz(value) is not None and len(value) <= 64:
                return value
        else:
            if math.isfinite(seconds) and 0 <= seconds < 1e6:
                return str(max(1, math.ceil(seconds)))
    return "1"


__all__ = ["OpenAIBackend"]
