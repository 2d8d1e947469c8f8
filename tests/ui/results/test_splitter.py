"""The results pane's splitters (``ui/results/splitter.py``): a banner appearing inside the window takes its
room from the detail panes, never from the results; the window's own resize is shared out as in any splitter."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSplitter, QTextEdit, QVBoxLayout, QWidget

from amicus_desktop.ui.results.splitter import ResultsSplitter, splitter

from ..conftest import wait_for


def test_a_banner_inside_the_window_moves_the_details_not_the_results(qapp: Any, qtbot: Any) -> None:
    window = QWidget()
    results, details = QTextEdit("results"), QTextEdit("details")
    split = splitter(Qt.Orientation.Vertical, "resultsSplit", results, details, stretch=(3, 2), sizes=[300, 200],
                     kind=ResultsSplitter)
    banner = QLabel("The proxy is offline\n\nKeyword search still works.")
    banner.setMinimumHeight(80)
    banner.hide()
    layout = QVBoxLayout(window)
    layout.addWidget(split)
    layout.addWidget(banner)
    assert isinstance(split, ResultsSplitter) and split.objectName() == "resultsSplit"
    assert not split.childrenCollapsible()
    window.resize(500, 600)
    window.show()
    wait_for(qtbot, lambda: split.height() > 400)
    top, total = split.sizes()[0], sum(split.sizes())
    banner.show()  # the window keeps its height; the splitter loses the banner's
    wait_for(qtbot, lambda: sum(split.sizes()) <= total - 80)
    assert split.sizes()[0] == top
    banner.hide()
    wait_for(qtbot, lambda: sum(split.sizes()) == total)
    assert split.sizes()[0] == top
    window.resize(500, 900)  # the window itself grows: both panes share it
    wait_for(qtbot, lambda: split.height() > 700)
    assert split.sizes()[0] > top and split.sizes()[1] > 200
    window.close()


def test_a_plain_splitter_is_two_panes_that_never_collapse(qapp: Any) -> None:
    split = splitter(Qt.Orientation.Horizontal, "detailSplit", QWidget(), QWidget(), stretch=(1, 1), sizes=[1, 1])
    assert type(split) is QSplitter and split.count() == 2 and split.objectName() == "detailSplit"
    assert not split.childrenCollapsible()
