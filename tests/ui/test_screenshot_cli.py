"""``amicus-desktop --screenshot PNG`` (CONTRACT section 4) as a subprocess, offscreen."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from amicus_desktop.ui.main_window import DEFAULT_SIZE
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy

ROOT = Path(__file__).resolve().parents[2]


def shot(out: Path, *args: str, env: dict[str, str] | None = None) -> tuple[subprocess.CompletedProcess[str], float]:
    full_env = dict(os.environ, QT_QPA_PLATFORM="offscreen", **(env or {}))
    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "amicus_desktop", "--screenshot", str(out), *args],
                          env=full_env, cwd=ROOT, capture_output=True, text=True, timeout=60)
    return proc, time.monotonic() - t0


def check_png(path: Path) -> QImage:
    image = QImage(str(path))
    assert not image.isNull()
    assert (image.width(), image.height()) == DEFAULT_SIZE
    return image


def test_screenshot_with_results(small_db: Path, tmp_path: Path, amicus_home: Path) -> None:
    with ScriptedProxy(dims=8) as proxy:
        out = tmp_path / "results.png"
        proc, took = shot(out, "--db", str(small_db), "--proxy", proxy.url, "--chapter", "romans:9",
                          "--query", "what is grace")
        assert proc.returncode == 0, proc.stderr
        assert proxy.embed_requests >= 1
    check_png(out)
    assert took < 20
    # the screenshot mode writes no settings (it is read-only)
    assert not (amicus_home / "config" / "settings.json").exists()
    log = (amicus_home / "logs" / "amicus-desktop.log").read_text()
    assert "screenshot saved" in log and "what is grace" not in log


def test_screenshot_offline_is_quick(small_db: Path, tmp_path: Path, amicus_home: Path) -> None:
    """Offline, every state the screenshot waits for is reached (the proxy's first check fails at once on a closed
    port): it never waits out its deadline. Said by its log, not by a stopwatch (a busy machine took 18 s)."""
    out = tmp_path / "offline.png"
    proc, took = shot(out, "--db", str(small_db), "--proxy", f"http://127.0.0.1:{free_port()}", "--query", "grace")
    assert proc.returncode == 0, proc.stderr
    check_png(out)
    log = (amicus_home / "logs" / "amicus-desktop.log").read_text()
    assert "screenshot saved" in log and "gave up waiting" not in log and "did not finish in time" not in log
    assert took < 45  # generous: only a hang (the subprocess's 60 s) fails here


def test_screenshot_welcome_without_a_database(tmp_path: Path) -> None:
    out = tmp_path / "welcome.png"
    proc, _took = shot(out, "--proxy", f"http://127.0.0.1:{free_port()}")
    assert proc.returncode == 0, proc.stderr
    check_png(out)


@pytest.mark.parametrize("scheme", ["dark"])
def test_screenshot_follows_a_dark_scheme(small_db: Path, tmp_path: Path, scheme: str) -> None:
    out = tmp_path / "dark.png"
    proc, _took = shot(out, "--db", str(small_db), "--proxy", f"http://127.0.0.1:{free_port()}",
                       env={"AMICUS_COLOR_SCHEME": scheme})
    assert proc.returncode == 0, proc.stderr
    image = check_png(out)
    assert image.pixelColor(DEFAULT_SIZE[0] - 5, DEFAULT_SIZE[1] // 2).lightness() < 100


def test_unwritable_screenshot_path_fails(small_db: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    proc, _took = shot(blocker / "x.png", "--db", str(small_db), "--proxy", f"http://127.0.0.1:{free_port()}")
    assert proc.returncode == 1 and "could not write" in proc.stderr


def _digest(path: Path) -> bytes:
    import hashlib

    return hashlib.sha256(path.read_bytes()).digest()


def test_screenshot_never_writes_over_the_database_or_what_is_not_a_png(small_db: Path, tmp_path: Path) -> None:
    """#20.1: ``--screenshot x.db --db x.db`` left a PNG named x.db."""
    before = _digest(small_db)
    link = tmp_path / "shot.png"
    link.symlink_to(small_db)
    hard = tmp_path / "hard.png"
    os.link(small_db, hard)
    fifo = tmp_path / "pipe.png"
    os.mkfifo(fifo)
    for out, says in ((small_db, "database"), (link, "open scripture database"), (hard, "open scripture database"),
                      (tmp_path / "notes.txt", ".png"), (fifo, "not a regular file"),
                      (tmp_path / ("x" * 300 + ".png"), "shorter name")):
        proc, took = shot(out, "--db", str(small_db), "--proxy", f"http://127.0.0.1:{free_port()}")
        assert proc.returncode == 2 and says in proc.stderr and "Traceback" not in proc.stderr, (out, proc.stderr)
        assert took < 10
    assert _digest(small_db) == before and link.is_symlink() and fifo.is_fifo()
    assert not (tmp_path / "notes.txt").exists()


def test_screenshot_is_written_atomically(small_db: Path, tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    out.write_bytes(b"an older screenshot")
    proc, _took = shot(out, "--db", str(small_db), "--proxy", f"http://127.0.0.1:{free_port()}")
    assert proc.returncode == 0, proc.stderr
    check_png(out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shot.png", "small.db"]  # no temporary file left
