"""The window's status bar: the proxy's state on the left; the model, the chunk count and the last
question's timings on the right; passing sentences (what was copied or exported) over them."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QSizePolicy, QStatusBar, QWidget

from ..connectivity import Connectivity
from ..present import describe, states
from ..session import DbState, ResultView
from .elided import ElidedLabel

#: How long a passing sentence stays, in milliseconds.
MESSAGE_MS = 8000


class StatusBar(QStatusBar):
    """Renders the database, the proxy and the last answer in four labels."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The proxy's state gives way to a short form ("Proxy: online"), then elides (whole in its tooltip), so the
        # bar does not hold the window wide (with a second workspace's switcher it held it at 1,086 px).
        self.proxy_status = ElidedLabel()
        self.proxy_status.setAccessibleName("Proxy state")
        # The model's name is long: it elides (whole in its tooltip) before the timings are cut.
        self.model_status = ElidedLabel()
        self.model_status.setAccessibleName("Model")
        self.chunks_status = QLabel()
        self.chunks_status.setAccessibleName("Chunks")
        self.timing_status = QLabel(states.NO_SEARCH_YET)
        self.timing_status.setAccessibleName("Last timings")
        for w in (self.timing_status, self.chunks_status, self.model_status, self.proxy_status):
            w.setContentsMargins(8, 0, 8, 0)
        self.addWidget(self.proxy_status)
        # the model's name gives way first: it takes what the other labels leave (its own width is no claim)
        self.model_status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.addPermanentWidget(self.model_status, 1)
        self.addPermanentWidget(self.chunks_status)
        self.addPermanentWidget(self.timing_status)
        # a passing sentence is drawn left of the first lasting label; the model's name, stretched over the rest,
        # left it no room (it was shown nowhere): while one shows, the model's name gives way
        self.messageChanged.connect(lambda text: self.model_status.setVisible(not text))

    def add_first_permanent(self, widget: QWidget) -> None:
        """``widget`` at the head of the permanent ones, where a passing sentence (which hides the bar's
        other widgets) never hides it. (An index counts the one normal widget, the proxy's state, first.)"""
        self.insertPermanentWidget(1, widget)

    def show_status(self, text: str) -> None:
        """A passing sentence (what was copied or exported)."""
        self.showMessage(text, MESSAGE_MS)

    def render_db(self, db: DbState) -> None:
        self.model_status.setText(states.model_status(db))
        self.chunks_status.setText(states.chunks_status(db))
        self.chunks_status.setToolTip(str(db.info.path) if db.info is not None else "")

    def render_connectivity(self, c: Connectivity) -> None:
        text = states.proxy_status(c)
        self.proxy_status.setText(text)
        self.proxy_status.set_shorter(text.split(" (")[0])  # "Proxy: online", without its address
        self.proxy_status.setToolTip(states.proxy_tooltip(c))

    def render_result(self, view: ResultView) -> None:
        self.timing_status.setText(describe.timings_text(view))
