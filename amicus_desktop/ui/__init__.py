"""The desktop app (PySide6 widgets). The only package of Amicus Desktop that imports Qt.

Everything here renders the state of :class:`amicus_desktop.session.Session` (which holds the
state and does the async work, without Qt) and forwards user intent to it; scores are never
recomputed here.

``QT_API`` is set here, once, because this file runs before any module of the package: qasync
picks the first Qt binding it finds (PyQt6 → PyQt5 → PySide6) unless told.
"""

import os

os.environ.setdefault("QT_API", "pyside6")
