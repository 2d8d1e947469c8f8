"""Fixtures of the corpus tests: the installed SWORD modules, read once per session."""

from __future__ import annotations

import pytest

from amicus_desktop.corpus.library import Library
from amicus_desktop.corpus.sources import Scope
from tests.support.embedders import StandInEmbedder


@pytest.fixture(scope="session")
def library() -> Library:
    return Library()


@pytest.fixture(scope="session")
def demo_chunks(library: Library):
    from amicus_desktop.corpus.build import collect_chunks

    return collect_chunks(Scope.of(["romans", "john"]), library)


@pytest.fixture()
def stand_in() -> StandInEmbedder:
    return StandInEmbedder()
