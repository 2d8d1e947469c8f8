"""The overlay editor, at the window's default size and at 1000×650 (docs/UI.md, "Overlays").

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/overlay_shots.py

Builds a library from the shipped sample corpus with ``amicus-desktop ingest``, opens it in the real window
with the real local proxy, imports the shipped sample overlay (``resources/overlays/sample-pastor.json``)
through the profile dock, asks a question, and saves two views of each size:

* ``overlay-forbid``: the *Forbid* tab (scholars by display name, kinds of source) beside the Rejected tab,
  the forbidden word study selected — "Why not this one" names the rule that removed it;
* ``overlay-words``: the *Words* tab beside the results, a boosted result selected — its breakdown's
  vocabulary step says which word boosted it.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from shotkit import OUT, ROOT, ask, drive, opened, reach

QUESTION = "What does the new covenant promise?"


def main() -> int:
    from amicus_desktop.resources import resource_path
    from tests.support.proxy import ProxyProcess

    tmp = Path(tempfile.mkdtemp(prefix="amicus-overlay-shots-"))
    os.environ["AMICUS_HOME"] = str(tmp / "home")
    library = tmp / "sample.db"
    subprocess.run([sys.executable, "-m", "amicus_desktop", "ingest", str(resource_path("corpus",
                    "sample-study-notes.jsonl")), "--db", str(library), "--quiet"], check=True, cwd=ROOT)
    with ProxyProcess("--rate-limit", "0") as proxy:
        shoot(library, proxy.url, resource_path("overlays", "sample-pastor.json"))
    return 0


def shoot(library: Path, proxy_url: str, overlay: Path) -> None:
    from PySide6.QtCore import QItemSelectionModel

    from amicus_desktop.ui.main_window import DEFAULT_SIZE
    from amicus_desktop.ui.results.models import ChunkRole

    def select(view: object, proxy: object, chunk_id: str) -> None:
        for row in range(proxy.rowCount()):  # type: ignore[attr-defined]
            index = proxy.index(row, 0)  # type: ignore[attr-defined]
            if index.data(ChunkRole).chunk_id == chunk_id:
                view.selectionModel().setCurrentIndex(  # type: ignore[attr-defined]
                    index, QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows)
                return
        raise KeyError(chunk_id)

    async def settle() -> None:
        for _ in range(10):
            await asyncio.sleep(0.05)

    async def run() -> None:
        async with opened(library, proxy_url, "jeremiah:31", restore=False,
                          prepare=lambda window: window.resize(*DEFAULT_SIZE)) as (session, window):
            await reach(session, lambda: session.can_ask)
            window.profile_dock.toggle()
            window.profile_dock.import_from(overlay)
            if not await session.until(lambda: session.prefs.overlay is not None, 10):
                raise TimeoutError("the overlay was not imported")
            await ask(window, session, QUESTION, settle=0)
            panel, results = window.profile_dock.panel, window.results
            for size, suffix in ((DEFAULT_SIZE, ""), ((1000, 650), "-1000x650")):
                window.resize(*size)
                panel.tabs.setCurrentWidget(panel.forbidden)
                results.tabs.setCurrentIndex(1)
                await settle()
                select(results.rejected_view, results.rejected_proxy, "sample:word:covenant")
                await settle()
                window.grab().save(str(OUT / f"overlay-forbid{suffix}.png"))
                print(f"overlay-forbid{suffix}.png: ok")
                panel.tabs.setCurrentWidget(panel.vocabulary)
                results.tabs.setCurrentIndex(0)
                await settle()
                select(results.results_view, results.results_proxy, "sample:romans:9:16")
                await settle()
                window.grab().save(str(OUT / f"overlay-words{suffix}.png"))
                print(f"overlay-words{suffix}.png: ok")

    drive(run)


if __name__ == "__main__":
    sys.exit(main())
