"""The store tests: a real PostgreSQL for the library on PostgreSQL (tests/postgres_server.py)."""

from __future__ import annotations

from tests.postgres_server import pg, pg_url  # noqa: F401  (fixtures)
