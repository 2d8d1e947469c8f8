"""What the window does around the reader: back and forward, the translation beside the text, the commentary
following the verse, and the searched words marked where results are read.

:class:`ReaderControl` renders the session's reading history on the navigation's back and forward buttons,
forwards the reader's choice of a second translation (``Session.set_beside``), keeps the commentary on the
note covering the verse the reader is at (a click, a typed "John 3:16", a result opened) and hands the
words the last question searched for to the passage pane and the verse results, which mark them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.names import Names
from ..core.references import PassageRef
from ..session import ResultView
from ..session.reading_history import ReadingHistory
from ..session.verses import VerseView
from ..store.verses import Translation
from ..understand.query import keywords

if TYPE_CHECKING:
    from .main_window import MainWindow


class ReaderControl:
    """The rules between the reader, the session's navigation and the panes that follow it."""

    def __init__(self, window: MainWindow) -> None:
        self._w = window

    def connect(self) -> None:
        w, s, sig, nav = self._w, self._w.session, self._w.signals, self._w.reader.nav
        nav.historyRequested.connect(lambda step: s.go_back() if step < 0 else s.go_forward())
        nav.besideChosen.connect(lambda tid: self.set_beside(tid or None))
        sig.historyChanged.connect(self._render_history)
        sig.translationsLoaded.connect(lambda _ts: self._render_beside())
        sig.translationChanged.connect(lambda _t: self._render_beside())
        sig.chapterLoaded.connect(lambda _t: self._render_beside())  # a start's remembered parallel view
        sig.focusChanged.connect(self._focus_changed)
        sig.resultChanged.connect(self._result_changed)
        sig.versesChanged.connect(self._verses_changed)
        w.reader.verseChosen.connect(w.commentary.follow_verse)
        self._render_history(s.reader.history)

    # -- the translation beside --------------------------------------------------------------------
    def set_beside(self, translation_id: str | None) -> None:
        self._w.session.set_beside(translation_id)
        self._render_beside()

    def toggle_parallel(self) -> None:
        """A second translation beside the text (the first the library holds other than the one shown), or none."""
        s = self._w.session
        if s.reader.beside is not None:
            self.set_beside(None)
            return
        other = next(iter(self._others()), None)
        if other is None:
            self._w.show_status("This library holds one translation: there is none to show beside it.")
            return
        self.set_beside(other.translation_id)

    def _others(self) -> tuple[Translation, ...]:
        """The translations the library holds other than the one shown."""
        s = self._w.session
        shown = s.verses.current.translation_id if s.verses.current is not None else None
        return tuple(t for t in s.verses.translations if t.translation_id != shown)

    def _render_beside(self) -> None:
        s = self._w.session
        current, others = s.verses.current, self._others()
        beside = s.reader.beside.translation_id if s.reader.beside is not None else None
        if beside is not None and current is not None and beside == current.translation_id:
            s.set_beside(None)  # the translation beside became the one shown
            beside = None
        self._w.reader.nav.show_beside(others, beside)
        self._w.actions_by_id["parallel"].setChecked(beside is not None)

    # -- history, focus, searched words ---------------------------------------------------------------
    def _render_history(self, history: ReadingHistory) -> None:
        names = self._w.session.library.names
        back, forward = history.peek(-1), history.peek(1)
        self._w.reader.nav.show_history(history.can_back, history.can_forward, _label(names, back),
                                        _label(names, forward))
        self._w.actions_by_id["back"].setEnabled(history.can_back)
        self._w.actions_by_id["forward"].setEnabled(history.can_forward)

    def _focus_changed(self, passage: PassageRef | None) -> None:
        if passage is not None and passage.verse_start is not None:
            self._w.commentary.follow_verse(passage.verse_start)

    def _result_changed(self, view: ResultView | None) -> None:
        words = view.result.trace.keywords if view is not None else ()
        self._w.results.passage.set_words(words)

    def _verses_changed(self, view: VerseView | None) -> None:
        self._w.results.verses.set_words(keywords(view.result.query) if view is not None else ())


def _label(names: Names, place: PassageRef | None) -> str:
    """``"John 3:16"``, ``"Romans 9"``: where back or forward goes, for its tooltip."""
    if place is None:
        return ""
    book = names.book(place.book_id)
    if place.verse_start is None:
        return f"{book} {place.chapter}"
    end = f"–{place.verse_end}" if place.verse_end and place.verse_end != place.verse_start else ""
    return f"{book} {place.chapter}:{place.verse_start}{end}"
