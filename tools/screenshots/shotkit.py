"""What the screenshot scripts share: the environment (offscreen Qt, a fresh ``AMICUS_HOME``), the
command line (``--db``, ``--out``), the demo library's check and the real local embed proxy, started for the
run. A script passes its ``shots(db, proxy_url, out)`` — or ``shots(db, proxy_url, offline_url, out)`` with
``offline=True``, a closed port for its offline states — to :func:`run`.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

#: where the PNGs go (docs/screenshots/), and the narrow size every state is also saved at
OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SMALL = (1000, 650)


def run(doc: str, shots: Callable[..., None], *, offline: bool = False) -> int:
    """Parse the command line, start the proxy, and call ``shots``; 1 when the library is missing."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--db", type=Path, default=None, help="the demo scripture.db (default: the app's default path)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    os.environ["AMICUS_HOME"] = tempfile.mkdtemp(prefix="amicus-shot-")

    from amicus_desktop import paths
    from tests.support.proxy import ProxyProcess, free_port

    db = (args.db or paths.default_db_path()).resolve()
    if not db.is_file():
        print(f"no demo database at {db}: build it with 'amicus-desktop build-db --demo' first", file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    with ProxyProcess("--rate-limit", "0", startup_timeout=120.0) as proxy:  # a busy machine starts it slowly
        extra: tuple[Any, ...] = (f"http://127.0.0.1:{free_port()}",) if offline else ()
        shots(db, proxy.url, *extra, args.out)
    return 0


async def reach(session: Any, cond: Callable[[], bool], timeout: float = 30.0) -> None:
    """Wait until ``cond()`` holds in ``session`` (a :class:`~amicus_desktop.session.Session`), or fail loudly."""
    if not await session.until(cond, timeout):
        raise TimeoutError("state not reached")


async def resize_to(window: Any, size: tuple[int, int], *, seconds: float = 5.0) -> None:
    """Resize ``window`` to ``size`` and wait until it is that size: the window's minimum follows its panes a
    layout pass later (later still on a busy machine), and a resize asked before then stops at the old minimum."""
    import asyncio

    for _ in range(int(seconds / 0.1)):
        window.resize(*size)
        await asyncio.sleep(0.05)  # the event loop lays the window out (processEvents here re-enters other tasks)
        if (window.width(), window.height()) == tuple(size):
            return
        await asyncio.sleep(0.1)
    print(f"the window stays {window.width()}×{window.height()}, not {size[0]}×{size[1]}", file=sys.stderr)


async def save(window: Any, out: Path, name: str, *, prepare: Callable[[], object] | None = None,
               part: Callable[[], Any] | None = None) -> None:
    """``window`` saved as ``out/name`` at its default size and as ``-1000x650`` at :data:`SMALL`; ``prepare``
    runs after each resize (what must stay in view: a verse in focus, a selection), ``part`` picks the widget
    to grab (the whole window when ``None``)."""
    import asyncio

    from amicus_desktop.ui.main_window import DEFAULT_SIZE

    for size, suffix in ((DEFAULT_SIZE, ""), (SMALL, "-1000x650")):
        await resize_to(window, size)
        await asyncio.sleep(0.4)
        if prepare is not None:
            prepare()
            await asyncio.sleep(0.15)
        path = out / name.replace(".png", f"{suffix}.png")
        (part() if part is not None else window).grab().save(str(path))
        print(f"{path.name}: ok")
    window.resize(*DEFAULT_SIZE)
