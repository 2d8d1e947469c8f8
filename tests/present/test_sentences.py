"""Text cut for one line: sentences that survive abbreviations and initials, shortening at a word."""

from __future__ import annotations

from amicus_desktop.present.sentences import sentences, shorten


def test_sentences_and_shorten() -> None:
    assert sentences("C. I. Scofield wrote it. Then, i.e. later, more. End") == [
        "C. I. Scofield wrote it.", "Then, i.e. later, more.", "End"]
    assert shorten("one two three four", 12) == "one two…"
    assert shorten("short", 12) == "short"
