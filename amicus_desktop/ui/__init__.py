"""The desktop app (PySide6 widgets). The only package of Amicus Desktop that imports Qt.

Everything here renders engine data (``amicus_desktop.core`` types) and schedules engine work on the
qasync event loop; scores are never recomputed here.
"""

import os

# qasync picks the first Qt binding it finds (PyQt6 → PyQt5 → PySide6) unless told.
os.environ.setdefault("QT_API", "pyside6")
