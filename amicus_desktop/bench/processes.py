"""The servers the benchmark starts as processes (a proxy, the retrieval service): started with their URL read
from the line they print once they listen, and stopped (no Qt).
"""

from __future__ import annotations

import subprocess
import time


def start_server(cmd: list[str], prefix: str, timeout: float = 60.0) -> tuple[subprocess.Popen[str], str]:
    """Start a server process; its URL from the first stdout line holding ``prefix``."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdout is not None
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        if prefix in line:
            return proc, line.split(prefix, 1)[1].split()[0]
    proc.kill()
    proc.wait()
    raise RuntimeError(f"{' '.join(cmd[:4])} … did not start")


def stop_server(proc: subprocess.Popen[str], timeout: float = 10.0) -> None:
    """SIGTERM, then SIGKILL after ``timeout`` seconds."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
