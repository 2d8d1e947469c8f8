"""Where the application's read-only resources are (icons, stylesheets, fonts …). No Qt.

The files live in the top-level ``resources/`` folder of the source tree and travel with the
program, so the folder has three homes:

========================  ==============================================================
source checkout, editable  ``<checkout>/resources/``
installed wheel            ``<site-packages>/amicus_desktop/_resources/`` (package data)
PyInstaller bundle         ``<sys._MEIPASS>/amicus_desktop/_resources/``
========================  ==============================================================

The installed folder is ``_resources`` rather than ``resources`` so that it can never shadow
this module. Resources are read-only: what the app writes goes to the platformdirs folders of
:mod:`amicus_desktop.paths`, never beside the program.
"""

from __future__ import annotations

import sys
from functools import lru_cache
from pathlib import Path, PurePosixPath

#: The reverse-DNS application id: the desktop entry, the AppStream metainfo and the icon's name.
APP_ID = "io.github.amicus_desktop.amicus_desktop"
#: The icon sizes rendered as PNG (``icons/hicolor/<N>x<N>/apps/<APP_ID>.png``).
ICON_SIZES = (16, 22, 24, 32, 48, 64, 128, 256, 512)

_PACKAGE_DIR = Path(__file__).resolve().parent
_INSTALLED_NAME = "_resources"


def _candidates() -> list[Path]:
    found = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:  # a PyInstaller bundle: data files sit under _MEIPASS as the spec put them
        found.append(Path(bundle) / "amicus_desktop" / _INSTALLED_NAME)
    found.append(_PACKAGE_DIR / _INSTALLED_NAME)  # an installed wheel
    found.append(_PACKAGE_DIR.parent / "resources")  # a source checkout (also the editable install)
    return found


@lru_cache(maxsize=1)
def resources_dir() -> Path:
    """The folder holding the resources; ``FileNotFoundError`` (naming every place looked) if none."""
    candidates = _candidates()
    for path in candidates:
        if path.is_dir():
            return path
    raise FileNotFoundError(
        "Amicus Desktop's resources folder is missing (looked in "
        + ", ".join(str(p) for p in candidates)
        + "): reinstall amicus-desktop."
    )


def resource_path(*parts: str) -> Path:
    """The path of a resource, e.g. ``resource_path("icons", f"{APP_ID}.svg")``.

    Parts are relative, ``/``-separated names inside the resources folder; the file is not
    required to exist (test with ``.is_file()``), but ``..`` and absolute parts are refused.
    """
    rel = PurePosixPath(*parts) if parts else PurePosixPath()
    if rel.is_absolute() or ".." in rel.parts or any("\\" in p or ":" in p for p in rel.parts):
        raise ValueError(f"not a relative resource name: {'/'.join(parts)!r}")
    return resources_dir().joinpath(*rel.parts)


def app_icon_svg() -> Path:
    """The scalable application icon."""
    return resource_path("icons", f"{APP_ID}.svg")


def app_icon_png(size: int) -> Path:
    """The application icon rendered at ``size``×``size`` (one of :data:`ICON_SIZES`)."""
    if size not in ICON_SIZES:
        raise ValueError(f"no {size}px icon; sizes are {ICON_SIZES}")
    return resource_path("icons", "hicolor", f"{size}x{size}", "apps", f"{APP_ID}.png")
