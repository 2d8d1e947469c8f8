"""The retrieval service (``amicus-desktop serve``) as a subprocess, for any test suite.

::

    from tests.support.serve import ServeProcess

    with ServeProcess(db, proxy_url) as serve:      # a free port, no token, rate limit off
        httpx.get(f"{serve.url}/retrieve", params={"q": "grace"})
        serve.log_text()                            # its own log file (amicus-serve-PORT.log)

    ServeProcess(db, proxy_url, "--clients", str(file), env={"AMICUS_SERVE_TOKEN": "tok"})

It is :class:`~tests.support.proxy.ProxyProcess` with the ``serve`` command: the same life cycle (a
fixed port across restarts, killed at exit, stopping by itself when the test process dies), except
that it is ready when it prints its "listening on" line and answers ``/health`` at all (a service
over a missing library answers 503 there, and that is what some tests want).
"""

from __future__ import annotations

import contextlib
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import httpx

from .bundles import check_service_answer
from .proxy import ProxyProcess, ProxyStartError


class ServeProcess(ProxyProcess):
    """One ``python -m amicus_desktop serve`` subprocess (``--rate-limit 0`` unless ``args`` set one)."""

    def __init__(self, db: Path | str, proxy_url: str, *args: str, home: Path | None = None,
                 env: Mapping[str, str | None] | None = None, host: str = "127.0.0.1",
                 startup_timeout: float = 60.0) -> None:
        extra = dict(env or {})
        # its own AMICUS_HOME unless given one: a fixture wider than a test must not log to the user's folder
        self.home = Path(home) if home is not None else Path(tempfile.mkdtemp(prefix="amicus-serve-home-"))
        extra["AMICUS_HOME"] = str(self.home)
        extra.setdefault("AMICUS_SERVE_TOKEN", None)  # no token unless the test gives one
        super().__init__(*args, host=host, env=extra, startup_timeout=startup_timeout, python=sys.executable)
        self.db = Path(db)
        self.proxy_url = proxy_url

    def command(self) -> list[str]:
        rate = [] if "--rate-limit" in self.args else ["--rate-limit", "0"]
        return [self.python, "-m", "amicus_desktop", "serve", "--db", str(self.db), "--proxy", self.proxy_url,
                "--host", self.host, "--port", str(self.port), *rate, *self.args]

    def wait_healthy(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=httpx.Timeout(5.0), trust_env=False) as client:
            while True:
                if not self.running:
                    raise ProxyStartError(f"serve exited with {self.returncode}:\n{self.run_output()[-4000:]}")
                if "listening on http://" in self.run_output():
                    with contextlib.suppress(httpx.HTTPError):
                        client.get(f"{self.url}/health")
                        return
                if time.monotonic() > deadline:
                    raise ProxyStartError(f"serve did not answer within {timeout:.0f} s:\n{self.run_output()[-4000:]}")
                time.sleep(0.05)

    @property
    def log_file(self) -> Path:
        """Its log file (``amicus-serve-PORT.log`` under its ``AMICUS_HOME``)."""
        return self.home / "logs" / f"amicus-serve-{self.port}.log"

    def log_text(self) -> str:
        try:
            return self.log_file.read_text("utf-8")
        except FileNotFoundError:
            return ""

    def get(self, path: str = "/retrieve", params: Any = None, headers: dict[str, str] | None = None,
            timeout: float = 60.0) -> httpx.Response:
        """One request (a fresh connection). A ``/retrieve`` answer is checked against the service's
        OpenAPI schema (:mod:`.bundles`)."""
        response = httpx.get(f"{self.url}{path}", params=params, headers=headers, timeout=timeout, trust_env=False)
        if path == "/retrieve" and response.status_code == 200:
            check_service_answer(response.json())
        return response
