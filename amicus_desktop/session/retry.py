"""Asking again: which question Ctrl+R, *Retry now* (F5, the banner's button) and the hint beside
the question box are about. No Qt.

The window reads an :class:`Asking` from the session and the question box, asks the rules here,
and only then touches its widgets: so the rules are one place and tested as plain Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..connectivity import ProxyState

if TYPE_CHECKING:
    from .controller import Session


@dataclass(frozen=True)
class Asking:
    """What the rules look at: the question whose asking failed last (``None`` once one is answered),
    the question on screen, the text in the question box, the proxy's state, whether a question is
    in flight and whether one can be asked now."""

    failed: str | None
    shown: str | None
    typed: str
    proxy: ProxyState
    busy: bool
    can_ask: bool

    @classmethod
    def of(cls, session: Session, typed: str) -> Asking:
        q = session.question
        shown = q.view.result.query if q.view is not None else None
        return cls(q.failed_text, shown, typed, session.connection.state.state, q.busy, session.can_ask)


def ask_again(a: Asking) -> str | None:
    """Ctrl+R: the question that failed, else the one on screen (a stale answer refreshes), else the
    one typed; ``None`` when that is blank or nothing can be asked now."""
    text = a.failed or (a.shown if a.shown is not None else a.typed)
    return text if text.strip() and a.can_ask else None


def retry(a: Asking) -> str | None:
    """*Retry now*: after a failed answer — the proxy reachable but not embedding, or back with a
    question that failed — the question to ask again (the failed one, else the one typed);
    ``None``: probe the proxy instead (also while a question is in flight)."""
    text = a.failed or a.typed
    failed_online = a.proxy is ProxyState.ONLINE and a.failed is not None
    if (a.proxy is ProxyState.EMBED_FAILED or failed_online) and text.strip() and not a.busy:
        return text
    return None


def offer_again(a: Asking) -> str | None:
    """The failed question to name beside the question box once the proxy is back (not while a
    question is in flight); ``None``: nothing to offer."""
    if a.failed is not None and a.proxy is ProxyState.ONLINE and not a.busy:
        return a.failed
    return None
