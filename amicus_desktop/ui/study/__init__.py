"""The study aids' widgets: cross-references, the Strong's panel, bookmarks and highlights, in a dock of their
own (:mod:`.dock`), and :class:`StudyControl` connecting them to the reader and the session."""

from .control import StudyControl
from .dock import StudyDock, StudyPanel
from .marks_pane import MarksPane
from .strongs_panel import StrongsPanel
from .xrefs_pane import XrefsPane

__all__ = ["MarksPane", "StrongsPanel", "StudyControl", "StudyDock", "StudyPanel", "XrefsPane"]
