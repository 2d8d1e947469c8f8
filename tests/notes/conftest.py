"""The notes tests run against both stores: the SQLite file and PostgreSQL (tests/postgres_server.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from amicus_desktop.notes import NotesStore
from amicus_desktop.notes.postgres import PgNotesStore
from tests.postgres_server import pg, pg_url  # noqa: F401  (fixtures)

BACKENDS = ("sqlite", "postgresql")
StoreFactory = Callable[[], NotesStore | PgNotesStore]


@pytest.fixture(params=BACKENDS)
def store_factory(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> StoreFactory:
    """Opens the test's store: for SQLite a new file each call, for PostgreSQL the test's own database."""
    if request.param == "sqlite":
        return lambda: NotesStore(tmp_path_factory.mktemp("notes") / "notes.sqlite")
    url = request.getfixturevalue("pg_url")
    return lambda: PgNotesStore(url)


@pytest.fixture
def store(store_factory: StoreFactory) -> Iterator[NotesStore | PgNotesStore]:
    with store_factory() as s:
        yield s


@pytest.fixture
def sqlite_path(tmp_path: Path) -> Path:
    return tmp_path / "notes" / "notes.sqlite"
