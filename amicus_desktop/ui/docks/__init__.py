"""The window's docks: tool panels beside the results, each its own class on one lazy base.

``dock.py`` holds :class:`Dock`, a ``QDockWidget`` that makes its widget the first time it is shown
or asked for (Frescobaldi's ``panel.py`` idea); ``profile.py`` the preferred scholars and traditions;
``workbench.py`` the curator workbench with its golden-set dialogs. The window imports and composes them.
"""

from .dock import Dock
from .profile import ProfileDock
from .workbench import WorkbenchDock

__all__ = ["Dock", "ProfileDock", "WorkbenchDock"]
