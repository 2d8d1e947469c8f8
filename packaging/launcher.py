"""Entry script of the PyInstaller bundle: the same as the ``amicus-desktop`` command.

``amicus_desktop/__main__.py`` uses a relative import, which a frozen entry script cannot, so
the bundle starts here instead.
"""

import multiprocessing
import sys

from amicus_desktop.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a no-op unless something spawns a process on Windows/macOS
    sys.exit(main())
