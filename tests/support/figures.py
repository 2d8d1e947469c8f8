"""Numbers a test run measures for the docs (printed in pytest's terminal summary)."""

from __future__ import annotations

FIGURES: dict[str, object] = {}


def record_figure(name: str, value: object) -> None:
    """Keep a number from this run; ``tests/faults/conftest.py`` prints them all at the end."""
    FIGURES[name] = value
