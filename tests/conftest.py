"""Shared fixtures: an isolated AMICUS_HOME per test, offscreen Qt, single-threaded BLAS."""

from __future__ import annotations

import os
import sys
from pathlib import Path

# Before numpy or Qt load anywhere: 2 BLAS threads on a 2-core VM are slower than 1 (NOTES.md),
# and tests never open a real window.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("QT_API", "pyside6")

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402


@pytest.fixture(autouse=True)
def amicus_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own config/data/log folders; nothing touches the real user's."""
    home = tmp_path_factory.mktemp("amicus-home")
    monkeypatch.setenv("AMICUS_HOME", str(home))
    for var in ("AMICUS_DB", "AMICUS_PROXY_URL", "AMICUS_PROXY_TOKEN", "AMICUS_SQLITE_VEC_PATH"):
        monkeypatch.delenv(var, raising=False)
    return home
