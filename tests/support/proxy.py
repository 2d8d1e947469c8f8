"""The real embed proxy (``amicus-desktop proxy``) as a subprocess, for any test suite.

::

    from tests.support.proxy import ProxyProcess, free_port

    with ProxyProcess() as proxy:                 # local model, a free port, no token
        httpx.post(f"{proxy.url}/ai/embed", json={"input": "grace"})
        proxy.kill()                              # SIGKILL: clients now see OFFLINE
        proxy.start()                             # back on the SAME port / URL
        proxy.stop()                              # SIGTERM, wait (SIGKILL if it hangs)

    ProxyProcess(token="s3cret")                  # clients must send Bearer s3cret
    ProxyProcess(max_files=256)                   # under macOS's default descriptor limit
    ProxyProcess("--backend", "openai", "--upstream", url, "--upstream-model", "m",
                 env={"OPENAI_API_KEY": "sk-..."})

Every process started here is killed at interpreter exit even if a test forgets ``stop()``, and
stops by itself within a second if the test process is SIGKILLed (``AMICUS_PROXY_PARENT_PID``).
Output (stdout + stderr) goes to a temporary file: :meth:`ProxyProcess.output` reads it.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

import httpx
import pytest

ROOT = Path(__file__).resolve().parents[2]
_LIVE: weakref.WeakSet[ProxyProcess] = weakref.WeakSet()


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nothing listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


class ProxyStartError(RuntimeError):
    """The proxy exited or did not answer ``/health`` in time; the message has its output."""


class ProxyProcess:
    """One ``python -m amicus_desktop proxy`` subprocess on a fixed port.

    ``args`` are extra command-line arguments; ``env`` extra environment variables (a value of
    ``None`` removes one). ``token``, when given, is passed through ``AMICUS_PROXY_TOKEN``;
    otherwise that variable is removed so the proxy needs no token. ``port`` defaults to a free
    port chosen once, so :meth:`start` after :meth:`stop`/:meth:`kill` comes back on the same URL.
    ``max_files`` sets the process's open-file limit (``RLIMIT_NOFILE``, Unix only).
    """

    def __init__(self, *args: str, port: int | None = None, host: str = "127.0.0.1",
                 token: str | None = None, env: Mapping[str, str | None] | None = None,
                 startup_timeout: float = 30.0, python: str = sys.executable,
                 max_files: int | None = None) -> None:
        self.args = list(args)
        self.max_files = max_files
        self.host = host
        self.port = port if port else free_port(host)
        self.token = token
        self.extra_env = dict(env or {})
        self.startup_timeout = startup_timeout
        self.python = python
        self.process: subprocess.Popen[bytes] | None = None
        self._log_offset = 0
        fd, name = tempfile.mkstemp(prefix="amicus-proxy-", suffix=".log")
        os.close(fd)
        self.log_path = Path(name)
        self._finalizer = weakref.finalize(self, _cleanup, None, self.log_path)

    # -- facts ------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def returncode(self) -> int | None:
        return None if self.process is None else self.process.poll()

    @property
    def pid(self) -> int | None:
        return None if self.process is None else self.process.pid

    def command(self) -> list[str]:
        return [self.python, "-m", "amicus_desktop", "proxy", "--host", self.host,
                "--port", str(self.port), *self.args]

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env["HF_HUB_OFFLINE"] = "1"
        env["PYTHONUNBUFFERED"] = "1"
        env.setdefault("OPENBLAS_NUM_THREADS", "1")
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(ROOT), env.get("PYTHONPATH", "")) if p
        )
        env["AMICUS_PROXY_PARENT_PID"] = str(os.getpid())  # no orphan if this process dies
        env.pop("AMICUS_PROXY_TOKEN", None)
        if self.token is not None:
            env["AMICUS_PROXY_TOKEN"] = self.token
        for key, value in self.extra_env.items():
            if value is None:
                env.pop(key, None)
            else:
                env[key] = value
        return env

    def output(self) -> str:
        """Everything the proxy printed so far (stdout and stderr, all runs)."""
        try:
            return self.log_path.read_text("utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def wait_output(self, condition: Callable[[str], bool], timeout: float = 10.0) -> str:
        """:meth:`output` once ``condition`` holds for it. The proxy logs a request after answering
        it, so a test that reads the log right after a response may read it too early; this waits,
        and fails the test (with the output's tail) if the line never comes."""
        deadline = time.monotonic() + timeout
        while True:
            out = self.output()
            if condition(out):
                return out
            if time.monotonic() > deadline:
                raise AssertionError(f"the proxy's output did not show it within {timeout:.0f} s:\n{out[-4000:]}")
            time.sleep(0.05)

    # -- life cycle -------------------------------------------------------------------------

    def start(self) -> ProxyProcess:
        """Start (or restart) the proxy and wait until ``/health`` answers 200."""
        if self.running:
            raise RuntimeError("the proxy is already running")
        self._log_offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                self.command(), stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                env=self.environment(), cwd=str(ROOT), preexec_fn=self._limits if self.max_files else None,
            )
        _LIVE.add(self)
        self._finalizer.detach()
        self._finalizer = weakref.finalize(self, _cleanup, self.process, self.log_path)
        try:
            self.wait_healthy(self.startup_timeout)
        except BaseException:
            self.kill()
            raise
        return self

    def _limits(self) -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_NOFILE, (self.max_files, self.max_files))

    def run_output(self) -> str:
        """What the proxy printed since the last :meth:`start`."""
        try:
            with open(self.log_path, "rb") as f:
                f.seek(self._log_offset)
                return f.read().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    def wait_healthy(self, timeout: float) -> None:
        """Wait for this run's "listening on" line, then for ``/health`` to answer 200.

        (The line first: something else may already be answering on the port.)
        """
        deadline = time.monotonic() + timeout
        with httpx.Client(timeout=httpx.Timeout(2.0), trust_env=False) as client:
            while True:
                if not self.running:
                    raise ProxyStartError(
                        f"the proxy exited with {self.returncode} before answering:\n"
                        f"{self.run_output()[-4000:]}"
                    )
                if "listening on http://" in self.run_output():
                    with contextlib.suppress(httpx.HTTPError):
                        if client.get(f"{self.url}/health").status_code == 200:
                            return
                if time.monotonic() > deadline:
                    raise ProxyStartError(
                        f"the proxy did not answer /health within {timeout:.0f} s:\n"
                        f"{self.run_output()[-4000:]}"
                    )
                time.sleep(0.05)

    def stop(self, timeout: float = 10.0) -> int | None:
        """SIGTERM and wait; SIGKILL if it has not stopped within ``timeout``. The exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        _LIVE.discard(self)
        return self.process.returncode

    def kill(self) -> int | None:
        """SIGKILL (the proxy gets no chance to clean up) and wait. The exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        _LIVE.discard(self)
        return self.process.returncode

    def restart(self) -> ProxyProcess:
        self.stop()
        return self.start()

    def close(self) -> None:
        """Stop it and delete its log file."""
        self.kill()
        self._finalizer()

    def __enter__(self) -> ProxyProcess:
        if not self.running:
            self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else f"stopped ({self.returncode})"
        return f"<ProxyProcess {self.url} {state}>"


def _cleanup(process: subprocess.Popen[bytes] | None, log_path: Path) -> None:
    if process is not None and process.poll() is None:
        process.kill()
        with contextlib.suppress(Exception):
            process.wait(10)
    with contextlib.suppress(OSError):
        log_path.unlink()


@atexit.register
def _kill_leftovers() -> None:
    for proxy in list(_LIVE):
        with contextlib.suppress(Exception):
            proxy.kill()


def kill_all(proxies: Iterable[ProxyProcess] | None = None) -> None:
    """Kill every proxy this module started that is still running (for fixtures' teardown)."""
    for proxy in list(proxies if proxies is not None else _LIVE):
        with contextlib.suppress(Exception):
            proxy.kill()


@pytest.fixture
def proxy_process() -> Iterator[ProxyProcess]:
    """A running real proxy (local model, no token, rate limit off) of its own for one test.

    Use it from another suite with ``from tests.support.proxy import proxy_process`` in that
    suite's ``conftest.py``. The test may ``kill()``/``stop()``/``start()`` it freely.
    """
    proxy = ProxyProcess("--rate-limit", "0")
    try:
        yield proxy.start()
    finally:
        proxy.close()
