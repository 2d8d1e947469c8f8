"""The window's side of export (``ui/export.py``): its work runs among the window's background tasks,
which end with the window — a closed window gets no outcome and starts no new export."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from amicus_desktop.core.query import RetrievalContext
from amicus_desktop.present.export import ExportFormat
from amicus_desktop.session.background import Op

from .conftest import Harness, wait_for
from .results.test_models import make_result


def test_the_windows_background_work_ends_with_the_window(harness: Harness, qtbot: Any, tmp_path: Path) -> None:
    window = harness.open(start=False)
    release = threading.Event()
    outcomes: list[object] = []
    task = Op(lambda: release.wait(10), outcomes.append).failure(outcomes.append).run_in_background(window.tasks)
    assert task is not None and len(window.tasks) == 1
    window.close()
    release.set()
    wait_for(qtbot, task.done)
    assert task.cancelled() and outcomes == []  # the work finished on its thread; nothing came back
    late = tmp_path / "late.json"
    assert window.exporter.export_to(make_result(RetrievalContext("grace")), late, ExportFormat.JSON) is None
    assert not late.exists()
