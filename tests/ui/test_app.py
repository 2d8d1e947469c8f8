"""The app drops the source text PySide6 makes linecache keep (``ui/app.py`` ``forget_sources``; docs/PERFORMANCE.md,
"The app's start-up memory"): every module imported after PySide6 has its whole source read and kept."""

from __future__ import annotations

import linecache
import sys
from pathlib import Path

import PySide6.QtCore  # noqa: F401  (imported first, as in the app)

from amicus_desktop.ui.app import forget_sources


def test_a_module_imported_after_pyside_has_its_source_kept_until_forgotten(tmp_path: Path) -> None:
    module = tmp_path / "amicus_source_probe.py"
    module.write_text("VALUE = 1\n" + "# a line of the probe's source\n" * 200)
    sys.path.insert(0, str(tmp_path))
    try:
        probe = __import__("amicus_source_probe")  # an import statement (PySide6 watches those, not importlib)
        assert probe.VALUE == 1
        assert str(module) in linecache.cache and len(linecache.getlines(str(module))) == 201
        forget_sources()
        assert str(module) not in linecache.cache and not linecache.cache
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("amicus_source_probe", None)
