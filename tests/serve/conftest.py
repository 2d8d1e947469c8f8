"""Fixtures for the retrieval service and the MCP server: real processes over real libraries."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.postgres_server import pg, pg_url  # noqa: F401  (fixtures: a real PostgreSQL for the notes store)
from tests.support.scripted_proxy import ScriptedProxy, reply_json
from tests.support.serve import ServeProcess


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def proxy_failures_in_turn(ask: Callable[..., httpx.Response], proxy: ScriptedProxy) -> None:
    """The proxy's rows of the error table, asked of a service whose library answers: a model crash (503
    ``EMBED_FAILED``, keyword search still answering), another model (409 ``MODEL_MISMATCH``), other dimensions (409
    ``DIMENSION_MISMATCH``), then back and stopped (503 ``OFFLINE``, keyword search still answering). ``ask(mode)``
    asks a new question in that mode (default dense)."""
    proxy.behaviour = lambda body: reply_json(500, {"error": {"code": "BOOM", "message": "model crashed"}})
    expect_error(ask(), 503, "EMBED_FAILED")
    assert ask("keyword").status_code == 200
    proxy.behaviour = None
    proxy.model = "another-model"
    expect_error(ask(), 409, "MODEL_MISMATCH")
    proxy.model, proxy.dims = "test-model", 9
    expect_error(ask(), 409, "DIMENSION_MISMATCH")
    proxy.dims = 8
    assert ask("hybrid").status_code == 200
    proxy.stop()
    expect_error(ask(), 503, "OFFLINE")
    assert ask("keyword").status_code == 200


def expect_error(response: httpx.Response, status: int, code: str) -> dict[str, Any]:
    """The answer is the contract's error: this status and code, a trace id in header and body, no traceback."""
    assert response.status_code == status, response.text
    body = response.json()
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    assert body["trace_id"] and response.headers["x-trace-id"] == body["trace_id"]
    assert "Traceback" not in response.text and 'File "' not in response.text
    return body


@pytest.fixture(scope="module")
def overlays_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("overlays")
    (folder / "reformed-pastor.json").write_text('{"role_id": "reformed-pastor"}', encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def served(study_db: Path, local_proxy: Any, overlays_dir: Path) -> Iterator[ServeProcess]:
    """``serve`` over the real study library and the real proxy (no token, rate limit off)."""
    serve = ServeProcess(study_db, local_proxy.url, "--overlays", str(overlays_dir))
    try:
        yield serve.start()
    finally:
        serve.close()
