"""What the question box does with the session: asking, walking this session's questions, asking
again (Ctrl+R, *Retry now*: the rules are ``session/retry.py``'s), whether asking is possible now,
and where the focus starts. The widget itself is :class:`~.ask.AskBar`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt

from ..core.errors import AmicusError, ErrorCode
from ..present import states
from ..session import AskFailure, retry
from . import shortcuts

if TYPE_CHECKING:
    from .main_window import MainWindow


class AskControl(QObject):
    """Connects ``window.ask`` (the :class:`~.ask.AskBar`) to ``window.session``."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self._window = window
        self._focus_when_ready = False

    def _asking(self) -> retry.Asking:
        return retry.Asking.of(self._window.session, self._window.ask.edit.text())

    def ask(self, text: str) -> None:
        self._window.ask.clear_error()
        self._window.session.ask(text)

    def ask_text(self, text: str) -> None:
        """Put ``text`` in the question box and ask it (the reader's *Search for this verse's topic*)."""
        self._window.ask.edit.setText(text)
        self.ask(text)

    def focus(self) -> None:
        self._window.ask.focus()

    def walk_history(self, step: int) -> None:
        """Alt+Up / Alt+Down: an earlier or later question of this session into the question box."""
        box = self._window.ask
        history = self._window.session.question.history
        text = history.older(box.edit.text()) if step < 0 else history.newer()
        if text is not None:
            box.edit.setText(text)
            box.focus()

    def ask_again(self) -> None:
        """Ctrl+R: ask the question that failed, else the one on screen (a stale answer refreshes)."""
        text = retry.ask_again(self._asking())
        if text is not None:
            self.ask_text(text)

    def retry_now(self) -> None:
        """The banner's *Retry now* (F5): after a failed answer ask again; otherwise probe the proxy."""
        text = retry.retry(self._asking())
        if text is not None:
            self.ask_text(text)
            return
        connection = self._window.session.connection
        connection.retry_now()
        self._window.render_connectivity(connection.state)

    def ask_suggestion(self, text: str) -> None:
        """The warning strip's *Did you mean …?*: ask the re-spelt question."""
        self.ask_text(text)

    # -- rendering -------------------------------------------------------------------------
    def offer_again(self) -> None:
        """Once the proxy is back, name the question that failed beside the box (one key asks it again)."""
        failed = retry.offer_again(self._asking())
        if failed is not None:
            self._window.ask.set_status(states.ask_again_hint(failed, shortcuts.keys_of("ask_again")))

    def update_availability(self) -> None:
        w, s = self._window, self._window.session
        ok = s.can_ask
        w.ask.set_available(ok, "" if ok else states.ask_disabled_reason(s.connection.state, s.library.ready))
        if ok and self._focus_when_ready:
            self._focus_when_ready = False
            held = w.focusWidget()
            if held is None or (held is w.reader.goto_edit and not w.reader.goto_edit.text()):
                w.ask.focus()

    def initial_focus(self) -> None:
        """Start in the question box; while asking is not yet possible (the proxy is being checked),
        in the go-to box, moving to the question box once it is (unless the user went elsewhere)."""
        w = self._window
        if w.ask.edit.isEnabled():
            w.ask.focus()
        else:
            w.reader.goto_edit.setFocus(Qt.FocusReason.OtherFocusReason)
            self._focus_when_ready = True

    def render_busy(self, busy: bool) -> None:
        self._window.ask.set_busy(busy, states.BUSY if self._window.session.search.mode.embeds else states.BUSY_KEYWORD)

    def render_error(self, err: AskFailure) -> None:
        w = self._window
        if not isinstance(err, AmicusError):
            w.banners.show_notice(states.internal_error_text(err))
            w.ask.set_status(states.ASK_FAILED)
        elif err.code is ErrorCode.QUERY_INVALID:
            w.ask.show_error(states.query_error_text(err))
        elif not err.is_database:  # the start page shows a database's failure
            w.ask.set_status(states.ASK_FAILED)
