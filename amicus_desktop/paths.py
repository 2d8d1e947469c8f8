"""Where Amicus Desktop keeps its files, via platformdirs (never inside an installed bundle).

``AMICUS_HOME`` overrides everything (tests and portable installs): config, data and logs then live
in sub-folders of it.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "amicus-desktop"
HOME_ENV = "AMICUS_HOME"


def _base(kind: str) -> Path:
    home = os.environ.get(HOME_ENV)
    if home:
        return Path(home) / kind
    if kind == "config":
        return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False))
    if kind == "data":
        return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))
    if kind == "cache":
        return Path(platformdirs.user_cache_dir(APP_NAME, appauthor=False))
    return Path(platformdirs.user_log_dir(APP_NAME, appauthor=False))


def config_dir() -> Path:
    return _base("config")


def data_dir() -> Path:
    return _base("data")


def log_dir() -> Path:
    return _base("logs")


def cache_dir() -> Path:
    """Files the app can rebuild at any time (e.g. a keyword index for a database without one)."""
    return _base("cache")


def golden_dir() -> Path:
    """The curator's own golden sets (the workbench's New/Open golden set)."""
    return data_dir() / "golden"


def snapshot_dir() -> Path:
    """The workbench's saved rankings (snapshots)."""
    return data_dir() / "snapshots"


def notes_path() -> Path:
    """The reader's notes store (docs/NOTES.md): a folder of its own in the data folder, so it is never
    in or beside a scripture.db (the default database lives directly in the data folder)."""
    return data_dir() / "notes" / "notes.sqlite"


def history_dir() -> Path:
    """Every evaluation run of a golden set, kept for the workbench's trend (one file per set)."""
    return data_dir() / "history"


def default_db_path() -> Path:
    """Where ``build-db`` puts the demo database and where the app looks first."""
    return data_dir() / "scripture.db"


#: Where the embed proxy listens unless told otherwise (``amicus-desktop proxy``), and so where the
#: app and the CLI look for it.
DEFAULT_PROXY_HOST = "127.0.0.1"
DEFAULT_PROXY_PORT = 8731
DEFAULT_PROXY_URL = f"http://{DEFAULT_PROXY_HOST}:{DEFAULT_PROXY_PORT}"
