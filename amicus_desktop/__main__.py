"""``python -m amicus_desktop`` is the same as the ``amicus-desktop`` command."""

from .cli import main

raise SystemExit(main())
