"""The two banners under the results: the proxy's state (with *Retry now*, *Settings…*, *Open a
database…* or *Search by words instead*, and a countdown to the next check while it is offline) and
passing notices (a settings file that could not be written, an internal error, notes that are unavailable
so the answer is the library's alone) with *Dismiss*."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from ..connectivity import ProxyState
from ..core.errors import AmicusError
from ..present import states

if TYPE_CHECKING:
    from .main_window import MainWindow


class WindowBanners(QObject):
    """Fills ``window.banner`` from the session's connectivity and ``window.notice_banner`` with notices."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        #: the notices shown since the last *Dismiss*: a second one never hides the first (both can come at
        #: start, e.g. the settings and the workspaces when the config folder cannot be written)
        self._notices: list[states.StateText] = []
        window.banner.countdown_samples = states.COUNTDOWN_SAMPLES
        # The offline banner counts down to the next check.
        self.countdown = QTimer(self)
        self.countdown.setInterval(500)
        self.countdown.timeout.connect(self._tick)
        self.countdown.start()

    def render_proxy(self) -> None:
        """The proxy banner for the connectivity and search mode now (cleared when all is well)."""
        w = self._window
        c = w.session.connection.state
        text = states.proxy_text(c, c.seconds_to_next_check(), w.session.search.mode)
        if text is None:
            w.banner.clear()
            return
        handlers = {states.RETRY: w.ask_control.retry_now, states.SETTINGS: w.dialogs.open_settings,
                    states.OPEN_DB: w.dialogs.open_database,
                    states.KEYWORD: w.search_by_words}
        actions = [(states.ACTION_LABELS[a], handlers[a]) for a in text.actions if a in handlers]
        w.banner.show_message(text.kind, text.title, text.body, actions, detail=text.advice,
                              countdown=text.countdown)

    def _tick(self) -> None:
        w = self._window
        c = w.session.connection.state
        if c.state is ProxyState.OFFLINE and w.banner.isVisible():
            text = states.proxy_text(c, c.seconds_to_next_check(), w.session.search.mode)
            if text is not None:
                w.banner.set_countdown(text.countdown)

    def show_notice(self, text: states.StateText) -> None:
        """A notice with its actions (*Settings…* for a note about the settings) and *Dismiss*. While one is
        shown, the next joins it: the first stays the body, the later ones the line under it."""
        w = self._window
        if not any(t == text or t.body == text.body for t in self._notices) and not self._said(text):
            self._notices.append(text)
        first, *later = self._notices
        handlers = {states.SETTINGS: w.dialogs.open_settings}
        wanted = dict.fromkeys(a for t in self._notices for a in t.actions if a in handlers)
        actions = [(states.ACTION_LABELS[a], handlers[a]) for a in wanted]
        detail = " ".join(part for part in (first.advice, *(f"Also: {t.body}" for t in later)) if part)
        w.notice_banner.show_message(first.kind, first.title, first.body, [*actions, ("Dismiss", self.dismiss)],
                                     detail=detail)

    def show_notes_unavailable(self, err: AmicusError) -> None:
        """The question was answered from the library alone: the workspace's notes store failed (why). It
        leads the notices, in place of a notice that said the same of the store (when the window opened)."""
        text = states.notes_unavailable_text(err)
        self._notices = [text, *(t for t in self._notices if t != text and t.title != states.NOTES_TITLE)]
        self.show_notice(text)

    def _said(self, text: states.StateText) -> bool:
        """A notice about the notes while the banner says they are unavailable (the store's failure again)."""
        return text.title == states.NOTES_TITLE and any(t.title.endswith(states.LIBRARY_ONLY) for t in self._notices)

    def dismiss(self) -> None:
        """*Dismiss*: the notices go, all of them."""
        self._notices.clear()
        self._window.notice_banner.clear()

    def stop(self) -> None:
        self.countdown.stop()
