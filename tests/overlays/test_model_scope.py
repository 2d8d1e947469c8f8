"""An overlay's ``vocabulary.scope`` (issue #33 item 3): read, written back, checked by the schema, and carried
to the ranking's governance."""

from __future__ import annotations

import pytest

from amicus_desktop.overlays import OverlayError, parse_overlay


def test_the_scope_round_trips_and_reaches_the_governance() -> None:
    data = {"role_id": "r", "vocabulary": {"boost": ["covenant"], "scope": "every_question"}}
    overlay = parse_overlay(data, "a test overlay")
    assert overlay.vocabulary_scope == "every_question" and overlay.governance.vocabulary_everywhere
    assert overlay.to_json()["vocabulary"] == {"boost": ["covenant"], "scope": "every_question"}
    plain = parse_overlay({"role_id": "r", "vocabulary": {"boost": ["covenant"]}}, "a test overlay")
    assert plain.vocabulary_scope == "related" and not plain.governance.vocabulary_everywhere
    assert "scope" not in plain.to_json()["vocabulary"]  # the default is not written: older readers see no change


def test_an_unknown_scope_is_refused() -> None:
    with pytest.raises(OverlayError):
        parse_overlay({"role_id": "r", "vocabulary": {"scope": "sometimes"}}, "a test overlay")
