"""The word bridge's rule for which word a question names (no database: rows as the store returns them)."""

from __future__ import annotations

import numpy as np

from amicus_desktop.candidates.bridge import WordBridge, word_numbers
from amicus_desktop.core.results import ChunkMetadata

AGAPE = ("strongs:G26", "lexicon_entry", "strongs", "ἀγάπη (agápē, ag-ah'-pay) — Strong's Greek G26. love",
         ChunkMetadata())
AXIOS = ("strongs:G514", "lexicon_entry", "strongs", "ἄξιος (áxios, ax'-ee-os) — Strong's Greek G514. deserving",
         ChunkMetadata())
ESAU = ("strongs:G2269", "lexicon_entry", "strongs", "Ἠσαῦ (Ēsaû, ay-sow') — Strong's Greek G2269. Esau",
        ChunkMetadata())
STUDY = ("wordstudy:G26:john", "word_study", "wordstudy", "Word study: ἀγάπη (agápē), Strong's Greek G26, in John.",
         ChunkMetadata())


def test_a_transliteration_names_its_word_and_nothing_else_does() -> None:
    assert word_numbers([AGAPE, AXIOS, STUDY], ["agape"]) == ["G26"]
    assert word_numbers([AGAPE, AXIOS], ["agape", "love"]) == ["G26"]
    assert word_numbers([AGAPE, AXIOS], ["love"]) == []  # an English word is a topic
    assert word_numbers([ESAU], ["esau"]) == []  # a proper name is not a word's meaning


def test_the_meaning_is_the_question_and_the_gloss_averaged() -> None:
    q, g = np.array([1.0, 0.0], dtype=np.float32), np.array([0.0, 2.0], dtype=np.float32)
    v = WordBridge(("G26",), g, ()).meaning(q)
    assert np.allclose(v, [2 ** -0.5, 2 ** -0.5]) and v.dtype == np.float32
