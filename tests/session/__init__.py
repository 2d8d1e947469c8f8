"""Tests of the Qt-free session (amicus_desktop.session): plain pytest on asyncio, real DBs and HTTP."""
