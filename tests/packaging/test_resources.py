"""amicus_desktop.resources finds the resources folder in a checkout, a wheel and a bundle."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from amicus_desktop import resources

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def fresh_cache() -> Iterator[None]:
    resources.resources_dir.cache_clear()
    yield
    resources.resources_dir.cache_clear()


def test_source_checkout_uses_the_top_level_folder() -> None:
    assert resources.resources_dir() == ROOT / "resources"
    assert resources.resource_path("icons", f"{resources.APP_ID}.svg").is_file()
    assert resources.resource_path("icons/hicolor") == ROOT / "resources" / "icons" / "hicolor"


def test_a_pyinstaller_bundle_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bundled = tmp_path / "amicus_desktop" / "_resources"
    (bundled / "icons").mkdir(parents=True)
    monkeypatch.setattr(sys, "_MEIPASS", str(tmp_path), raising=False)
    assert resources.resource_path("icons") == bundled / "icons"


def test_missing_everywhere_names_the_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(resources, "_PACKAGE_DIR", tmp_path / "site-packages" / "amicus_desktop")
    with pytest.raises(FileNotFoundError, match="_resources"):
        resources.resources_dir()


@pytest.mark.parametrize("parts", [("..", "pyproject.toml"), ("/etc/passwd",), ("icons", "..", "..", "x"),
                                   ("C:\\x",)])
def test_names_cannot_leave_the_folder(parts: tuple[str, ...]) -> None:
    with pytest.raises(ValueError):
        resources.resource_path(*parts)


def test_unknown_icon_size() -> None:
    with pytest.raises(ValueError):
        resources.app_icon_png(100)

