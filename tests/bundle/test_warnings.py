"""The bundle's warnings (CONTRACT section 7): the words they hold."""

from __future__ import annotations

import pytest

from amicus_desktop.bundle.warnings import no_strong_match


@pytest.mark.parametrize(
    ("question", "spelling"),
    [("Grace", {"grace": "grace"}), ("ZOE life", {"zoe": "Zoe"}), ("agape  love", {"agape": "agape"})],
)
def test_did_you_mean_never_proposes_the_question_itself(question: str, spelling: dict[str, str]) -> None:
    """#20.22: the suggestion could be the question, only cased or spaced differently."""
    warning = no_strong_match([], 0.4, spelling, question)
    assert warning is not None and warning.suggestion is None
    assert "Did you mean" not in warning.message and "Try other words" in warning.message


def test_a_real_respelling_is_proposed() -> None:
    warning = no_strong_match([], 0.4, {"propitation": "propitiation"}, "what is propitation")
    assert warning is not None and warning.suggestion == "what is propitiation"
    assert warning.message.endswith("Did you mean “what is propitiation”?")
