"""An opt-in cache of the session's expensive libraries across test runs, for developers.

``AMICUS_TEST_CACHE=DIR`` keeps each library the session fixtures build (the demo library, the study and
verse libraries) in ``DIR``, named by a hash of everything that could change it: the package's builders
and readers (``amicus_desktop/{core,corpus,embedding,present,store,understand,verses}``), ``tests/support``
and ``tests/conftest.py``. A later run with the same sources copies the file instead of building it again.
Unset (CI, ``scripts/dev.sh test``), every library is built by the run that uses it.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: what a library built by the test fixtures depends on
PACKAGES = ("core", "corpus", "embedding", "present", "store", "understand", "verses")
SOURCES = [ROOT / "amicus_desktop" / d for d in PACKAGES] + [ROOT / "tests" / "support", ROOT / "tests" / "conftest.py"]


def _sources_hash() -> str:
    digest = hashlib.sha256()
    for source in SOURCES:
        files = sorted(source.rglob("*")) if source.is_dir() else [source]
        for path in files:
            if path.is_file() and "__pycache__" not in path.parts and path.suffix in {".py", ".json", ".txt"}:
                digest.update(str(path.relative_to(ROOT)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def cached(name: str, path: Path, build: Callable[[Path], object]) -> Path:
    """``build(path)``, or a copy of the library an earlier run built from the same sources."""
    folder = os.environ.get("AMICUS_TEST_CACHE")
    if not folder:
        build(path)
        return path
    kept = Path(folder) / f"{name}-{_sources_hash()}.db"
    kept.parent.mkdir(parents=True, exist_ok=True)
    # one builder at a time per library: a second run waits for the first and copies its file
    with open(kept.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not kept.exists():
            build(path)
            partial = kept.with_suffix(f".{os.getpid()}.partial")
            shutil.copyfile(path, partial)
            os.replace(partial, kept)
            return path
    shutil.copyfile(kept, path)
    return path
