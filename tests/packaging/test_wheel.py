"""``python -m build`` makes an sdist and a wheel that install into a fresh virtual environment.

The wheel must carry every module of the source tree (sub-packages are discovered, so a new one
cannot be forgotten), the package data (resources/ as amicus_desktop/_resources, the tokenizer),
and the ``amicus-desktop`` command. Installing pulls the dependencies from PyPI (pip's cache
makes it quick after the first time).
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

import amicus_desktop
from amicus_desktop.resources import APP_ID, ICON_SIZES

ROOT = Path(__file__).resolve().parents[2]
VERSION = amicus_desktop.__version__

pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def run(cmd: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: float = 600) -> str:
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})
    output = f"{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
    assert proc.returncode == 0, f"{' '.join(cmd)} exited {proc.returncode}\n{output}"
    return proc.stdout


def source_modules() -> set[str]:
    pkg = ROOT / "amicus_desktop"
    return {
        p.relative_to(ROOT).as_posix()
        for p in pkg.rglob("*.py")
        if "__pycache__" not in p.parts
    }


@pytest.fixture(scope="module")
def dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    if importlib.util.find_spec("build") is None:
        pytest.fail("the 'build' package is missing: pip install -e '.[test]'")
    out = tmp_path_factory.mktemp("dist")
    t0 = time.monotonic()
    run([sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)], cwd=out)
    print(f"python -m build: {time.monotonic() - t0:.1f} s")
    (sdist,) = out.glob(f"amicus_desktop-{VERSION}.tar.gz")
    (wheel,) = out.glob(f"amicus_desktop-{VERSION}-py3-none-any.whl")
    return sdist, wheel


def test_wheel_contents(dists: tuple[Path, Path]) -> None:
    _, wheel = dists
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = source_modules() - names
    assert not missing, f"modules missing from the wheel (check setup.py's package list): {sorted(missing)}"
    res = "amicus_desktop/_resources/icons"
    assert f"{res}/{APP_ID}.svg" in names
    for size in ICON_SIZES:
        assert f"{res}/hicolor/{size}x{size}/apps/{APP_ID}.png" in names
    assert "amicus_desktop/embedding/data/all-MiniLM-L6-v2.tokenizer.json" in names
    assert "amicus_desktop/py.typed" in names  # PEP 561: the package's type hints are for its users too
    assert not [n for n in names if n.startswith(("tests/", "packaging/", "resources/")) or "__pycache__" in n]
    entry_points = zipfile.ZipFile(wheel).read(f"amicus_desktop-{VERSION}.dist-info/entry_points.txt").decode()
    assert "amicus-desktop = amicus_desktop.cli:main" in entry_points


def test_sdist_contents(dists: tuple[Path, Path]) -> None:
    sdist, _ = dists
    prefix = f"amicus_desktop-{VERSION}/"
    names = {n.removeprefix(prefix) for n in tarfile.open(sdist).getnames()}
    for needed in ("pyproject.toml", "setup.py", "README.md",
                   f"resources/icons/{APP_ID}.svg",
                   f"packaging/linux/{APP_ID}.desktop", f"packaging/linux/{APP_ID}.metainfo.xml",
                   "packaging/amicus-desktop.spec", "packaging/build-linux.sh",
                   "amicus_desktop/embedding/data/all-MiniLM-L6-v2.tokenizer.json", "amicus_desktop/py.typed"):
        assert needed in names, needed
    assert {m for m in source_modules()} <= names


def test_wheel_then_sdist_install_into_a_fresh_venv(dists: tuple[Path, Path], tmp_path: Path) -> None:
    sdist, wheel = dists
    venv = tmp_path / "venv"
    t0 = time.monotonic()
    run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    py = venv / "bin" / "python"
    env = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PYTHONPATH": "", "AMICUS_HOME": str(tmp_path / "home")}
    run([str(py), "-m", "pip", "install", "-q", str(wheel)], cwd=tmp_path, env=env)
    print(f"fresh venv + wheel with dependencies: {time.monotonic() - t0:.1f} s")

    # Run from a folder outside the checkout, so nothing of the source tree is importable.
    def check() -> None:
        out = run([str(venv / "bin" / "amicus-desktop"), "--version"], cwd=tmp_path, env=env)
        assert out.strip() == f"amicus-desktop {VERSION}"
        code = (
            "import amicus_desktop, sys\n"
            "from amicus_desktop.resources import app_icon_svg, app_icon_png, resources_dir\n"
            "site = sys.prefix\n"
            "assert amicus_desktop.__file__.startswith(site), amicus_desktop.__file__\n"
            "assert str(resources_dir()).startswith(site), resources_dir()\n"
            "assert resources_dir().name == '_resources'\n"
            "assert app_icon_svg().is_file() and app_icon_png(512).is_file()\n"
            "from amicus_desktop.embedding.local import TOKENIZER_PATH\n"
            "assert TOKENIZER_PATH.is_file(), TOKENIZER_PATH\n"
            "print('ok')\n"
        )
        assert run([str(py), "-c", code], cwd=tmp_path, env=env).strip() == "ok"
        # doctor runs from the install and the sqlite-vec extension loads (no DB, no proxy: exit 1)
        proc = subprocess.run([str(venv / "bin" / "amicus-desktop"), "doctor", "--proxy", "http://127.0.0.1:9"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120, env={**os.environ, **env})
        assert proc.returncode == 1, proc.stdout + proc.stderr
        assert "✓ sqlite-vec" in proc.stdout, proc.stdout

    check()
    # The sdist builds and installs over it (dependencies are there already).
    t0 = time.monotonic()
    run([str(py), "-m", "pip", "install", "-q", "--force-reinstall", "--no-deps", str(sdist)], cwd=tmp_path, env=env)
    print(f"sdist build + install: {time.monotonic() - t0:.1f} s")
    check()
