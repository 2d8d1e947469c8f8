"""Words for what the engine computed (``present/describe.py``): what changed a ranking."""

from __future__ import annotations

import pytest

from amicus_desktop.present import describe


@pytest.mark.parametrize("cause", ["chapter", "profile", "settings"])
def test_cause_texts(cause: str) -> None:
    assert describe.cause_text(cause).endswith("changed")
