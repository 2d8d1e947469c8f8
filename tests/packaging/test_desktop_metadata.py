"""The Linux desktop files validate with the freedesktop/AppStream tools and agree with each other.

``appstreamcli`` (Debian ``appstream``) and ``desktop-file-validate`` (``desktop-file-utils``) are
installed by ``scripts/dev.sh``; a missing tool fails the test rather than skipping it.
"""

from __future__ import annotations

import configparser
import shutil
import struct
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import amicus_desktop
from amicus_desktop.resources import APP_ID, ICON_SIZES, app_icon_png, app_icon_svg

ROOT = Path(__file__).resolve().parents[2]
LINUX = ROOT / "packaging" / "linux"
DESKTOP = LINUX / f"{APP_ID}.desktop"
METAINFO = LINUX / f"{APP_ID}.metainfo.xml"


def tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: apt-get install {package} (scripts/dev.sh setup does)")
    return path


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_metainfo_validates() -> None:
    proc = subprocess.run(
        [tool("appstreamcli", "appstream"), "validate", "--no-net", "--pedantic", str(METAINFO)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # Not even pedantic remarks: the file is small enough to keep spotless.
    issues = [line for line in proc.stdout.splitlines() if line[:2] in ("E:", "W:", "I:", "P:")]
    assert issues == [], proc.stdout


def test_desktop_entry_validates() -> None:
    proc = subprocess.run(
        [tool("desktop-file-validate", "desktop-file-utils"), str(DESKTOP)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout.strip() == "", proc.stdout + proc.stderr


def test_one_id_everywhere() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # keys are case-sensitive
    entry.read(DESKTOP, encoding="utf-8")
    desktop = entry["Desktop Entry"]
    assert desktop["Icon"] == APP_ID
    assert desktop["Exec"].split()[0] == "amicus-desktop"  # the console script's name
    assert "Education" in desktop["Categories"].split(";")

    root = ET.parse(METAINFO).getroot()
    assert root.findtext("id") == APP_ID
    assert root.findtext("launchable") == DESKTOP.name
    assert root.findtext("metadata_license") == "CC0-1.0"
    assert root.findtext("project_license") == "MIT"
    assert root.find("content_rating") is not None
    assert "Education" in [c.text for c in root.iter("category")]
    assert [b.text for b in root.iter("binary")] == ["amicus-desktop"]
    # The newest release listed is the version the package reports.
    assert root.find("releases/release").get("version") == amicus_desktop.__version__


def test_icon_svg_and_every_png_size() -> None:
    svg = app_icon_svg()
    assert svg.is_file()
    ET.parse(svg)  # well-formed XML
    for size in ICON_SIZES:
        png = app_icon_png(size)
        assert png.is_file(), png
        assert png_size(png) == (size, size), png
    # the freedesktop sizes a desktop entry's Icon= is looked up in
    assert {16, 22, 24, 32, 48, 64, 128, 256, 512} <= set(ICON_SIZES)


def test_desktop_only_install_writes_a_valid_entry(tmp_path: Path) -> None:
    """install-linux.sh --desktop-only (for pip/pipx installs) puts a valid entry under a prefix."""
    bindir = tmp_path / "bin"
    bindir.mkdir()
    fake = bindir / "amicus-desktop"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(0o755)
    prefix = tmp_path / "prefix"
    env = {"PATH": f"{bindir}:/usr/bin:/bin", "HOME": str(tmp_path)}
    script = ROOT / "packaging" / "install-linux.sh"
    proc = subprocess.run(["bash", str(script), "--desktop-only", "--prefix", str(prefix)],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    installed = prefix / "share" / "applications" / DESKTOP.name
    assert f"Exec={fake}\n" in installed.read_text(encoding="utf-8")
    check = subprocess.run([tool("desktop-file-validate", "desktop-file-utils"), str(installed)],
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    assert (prefix / "share" / "metainfo" / METAINFO.name).is_file()
    assert (prefix / "share" / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    for size in ICON_SIZES:
        assert (prefix / "share" / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png").is_file()

    proc = subprocess.run(["bash", str(script), "--desktop-only", "--prefix", str(prefix), "--uninstall"],
                          capture_output=True, text=True, timeout=60, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert not installed.exists()
    assert not list((prefix / "share" / "icons").rglob(f"{APP_ID}.*"))
