"""Matthew Henry's sections split at his own verse markers, the ids they get, and part titles.

The first tests use a tiny MHCC-style chapter written here in the module's own markup; the rest
read the installed module (John 3, Romans 7 and 8, Leviticus 19, Philemon).
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from amicus_desktop.core.parts import part_of, with_part
from amicus_desktop.corpus.sources import Scope
from amicus_desktop.corpus.sources.henry import entry_segments, mhcc_chunks, reaches, split_section
from amicus_desktop.present.titles import citation, title

# A chapter the way the MHCC module stores John 3: the first note is headed "Verses 1-8" and linked
# over 1-8, verses 9-21 have no entry, and the note turns to 11-13 with "ver. #(11-13)".
FIRST = (
    '<title type="x-s2">Chapter 3</title><table><row><cell>The new birth.</cell><cell>(1-21)</cell></row>'
    '</table><div type="x-p"/><hi type="bold">Verses 1-8</hi><div type="x-p"/>'
    "Nicodemus came by night, and the Lord taught him of the new birth from above. "
    "The change is wrought by the Spirit, as the wind blows where it will. "
    "Christ's discourse of gospel truths, ver. #(11-13), shows the folly of those who make these things "
    "strange. God so loved the world that he gave his only begotten Son, and whoever believes shall not perish."
)
SECOND = '<hi type="bold">Verses 22-36</hi><div type="x-p"/>John was satisfied with the work assigned him.'


def _chapter() -> list:
    segments = [*entry_segments(FIRST, 3, 1, 8, 36), *entry_segments(SECOND, 3, 22, 22, 36)]
    return segments


def test_the_module_markup_gives_outline_and_notes_with_their_reach() -> None:
    segments = _chapter()
    assert [(s.kind, s.start, s.end) for s in segments] == [("outline", 1, 36), ("note", 1, 8), ("note", 22, 36)]
    # "ver. #(11-13)" reads as Henry printed it
    assert "ver. 11-13," in segments[1].text and "#(" not in segments[1].text
    # no note covers 9-21: the first note may be about them (up to the verse before the next note)
    assert reaches(segments, 36) == {1: 21, 22: 36}


def test_a_ver_11_13_marker_starts_a_part_on_verses_11_onward() -> None:
    note = _chapter()[1]
    parts, verdicts = split_section(note.text, note.start, note.end, 21)
    assert [(p.start, p.end) for p in parts] == [(1, 10), (11, 21)]
    assert parts[0].text.endswith("where it will.")
    assert parts[1].text.startswith("Christ's discourse of gospel truths, ver. 11-13,")
    assert "God so loved the world" in parts[1].text
    assert [(v.marker, v.accepted, v.reason) for v in verdicts] == [
        ("ver. 11-13", True, "after the section's verses")]


def test_a_marker_inside_the_section_narrows_only_the_part_it_starts() -> None:
    text = ("Henry opens the section with a long first sentence about the whole passage. "
            "He goes on for a while about the first verses and what they teach the reader. "
            "The sinner is described, ver. 14-16, as taking more pains to ruin his soul than would save it. "
            "Observe the end, ver. 17. The wicked fall into the pit they dug.")
    parts, verdicts = split_section(text, 10, 17, 17)
    # the part before the first marker keeps the section's verses; the last runs to its end
    assert [(p.start, p.end) for p in parts] == [(10, 17), (14, 16), (17, 17)]
    assert all(v.accepted and v.reason == "inside" for v in verdicts)


@pytest.mark.parametrize(("text", "start", "end", "reach", "reason"), [
    ("A first sentence that is long enough to stand alone as a part of the note here. "
     "This argument he had begun with, ver. 1, and so he ends.", 24, 40, 40, "outside the section's verses"),
    ("A first sentence that is long enough to stand alone as a part of the note here. "
     "The psalmist, ver. 3-5, foretells the progress of the Messiah.", 1, 4, 4, "outside the section's verses"),
    ("The ungodly are not so, ver. 4; they are led by the counsel of the wicked one.", 4, 6, 6,
     "the section's own first verse"),
    ("Here the psalmist, ver. 5, begins at once with a prayer for his people and their land.", 1, 8, 8,
     "in the section's first sentence"),
    ("Agrippa had the government of Galilee. How many unjust judgments the Roman maxim, ver. 16, condemn!",
     13, 27, 27, "would leave a part under 15 words"),
])
def test_suspicious_markers_stay_text(text: str, start: int, end: int, reach: int, reason: str) -> None:
    parts, verdicts = split_section(text, start, end, reach)
    assert [(p.start, p.end) for p in parts] == [(start, end)] and parts[0].text == text
    assert [(v.accepted, v.reason) for v in verdicts] == [(False, reason)]


def test_markers_must_move_forward_and_not_share_a_sentence() -> None:
    text = ("A first sentence that is long enough to stand alone as a part of the note here. "
            "God's presence is described, ver. 7-15, and he comes down, ver. 9, in the storm. "
            "Little appeared of man, but much of God, as we read before, ver. 6, with joy.")
    parts, verdicts = split_section(text, 1, 19, 19)
    assert [(p.start, p.end) for p in parts] == [(1, 19), (7, 19)]
    assert [(v.marker, v.accepted, v.reason) for v in verdicts] == [
        ("ver. 7-15", True, "inside"),
        ("ver. 9", False, "in the same sentence as the split before"),
        ("ver. 6", False, "not after the verse of the part before"),
    ]


def test_st_paul_and_ch_do_not_end_a_sentence() -> None:
    text = ("We have no reason to be proud of anything, for all is owing to the free grace of God, ch. 1:13. "
            "St. Paul sets forth his own circumstances, ver. 9 Allusion is made to the games.")
    parts, _ = split_section(text, 7, 13, 13)
    assert parts[1].text.startswith("St. Paul sets forth") and (parts[1].start, parts[1].end) == (9, 13)


@pytest.fixture(scope="module")
def john(library):
    return {r.chunk_id: r for r in mhcc_chunks(library, Scope.of(["john"]))}


def test_henry_on_john_3_16_is_a_note_on_3_16(john) -> None:
    """The issue's case, on the real module: his note on 3:16 used to carry verses 1-8."""
    assert not [cid for cid in john if cid.startswith("mhcc:john:3:1-8#")]
    on_3_16 = [r for r in john.values() if "God so loved the world" in r.text]
    assert [r.chunk_id for r in on_3_16] == ["mhcc:john:3:11-21#3"]
    meta = on_3_16[0].metadata
    assert (meta.chapter_num, meta.verse_start, meta.verse_end) == (3, 11, 21)
    first = sorted(cid for cid in john if cid.startswith("mhcc:john:3:1-10#"))
    later = sorted(cid for cid in john if cid.startswith("mhcc:john:3:11-21#"))
    assert (len(first), len(later)) == (4, 6)
    assert john["mhcc:john:3:11-21#1"].text.startswith("Christ's discourse of gospel truths, ver. 11-13,")
    assert "Nicodemus was afraid" in john["mhcc:john:3:1-10#1"].text
    # the chapter's other note and the notes of other chapters are untouched
    assert (john["mhcc:john:3:22-36#1"].metadata.verse_start, john["mhcc:john:3:22-36#1"].metadata.verse_end) == (
        22, 36)


def test_id_scheme_and_part_numbers(john) -> None:
    """``mhcc:<book>:<chapter>:<first>-<last>#<n>`` with the part's own verses; ``source_id`` ends
    ``#n/N`` when the note has more than one chunk."""
    assert john["mhcc:john:3:11-21#2"].source_id == "MHCC:John.3.11-21#2/6"
    assert john["mhcc:john:3:1-10#4"].source_id == "MHCC:John.3.1-10#4/4"
    assert part_of(john["mhcc:john:3:11-21#2"].source_id) == (2, 6)
    single = [r for cid, r in john.items() if cid.endswith("#1") and f"{cid[:-2]}#2" not in john]
    assert single and all(part_of(r.source_id) is None and "#" not in r.source_id for r in single)


def test_every_part_of_a_note_has_its_own_title(library) -> None:
    records = list(mhcc_chunks(library, Scope.of(["romans", "john"])))
    by_note: dict[str, list] = defaultdict(list)
    for r in records:
        by_note[r.chunk_id.rpartition("#")[0]].append(r)
    # the cases: Romans 3:1-8 in two parts, 7:1-6 in three
    assert [title(r) for r in by_note["mhcc:romans:7:1-6"]] == [
        f"Matthew Henry, Concise Commentary — Romans 7:1-6 (part {n} of 3)" for n in (1, 2, 3)]
    assert len(by_note["mhcc:romans:3:1-8"]) == 2
    assert citation(by_note["mhcc:romans:3:1-8"][1]) == (
        "Section note: Matthew Henry, Concise Commentary — Romans 3:1-8 (part 2 of 2)")
    for note, members in by_note.items():
        titles = [title(r) for r in members]
        assert len(set(titles)) == len(titles), note
        if len(members) == 1 and not note.endswith(":outline"):
            assert "part" not in titles[0], note


def test_romans_8_9_and_the_notes_the_module_kept_in_heading_slots(library) -> None:
    romans = {r.chunk_id: r for r in mhcc_chunks(library, Scope.of(["romans"]))}
    nine = romans["mhcc:romans:8:9-9#1"]
    assert (nine.metadata.verse_start, nine.metadata.verse_end) == (9, 9)
    assert nine.text.startswith("We may know our real state and character")
    assert "mhcc:romans:8:1-9#3" not in romans and "mhcc:romans:8:1-9#2" in romans
    # Leviticus 19's whole note and Philemon's introduction sit in chapter heading slots
    lev = {r.chunk_id: r for r in mhcc_chunks(library, Scope.of(["leviticus"]))}
    assert "ceremonial precepts" in lev["mhcc:leviticus:19:outline"].text
    assert "ver. 2" in lev["mhcc:leviticus:19:outline"].text
    philemon = {r.chunk_id: r for r in mhcc_chunks(library, Scope.of(["philemon"]))}
    assert philemon["mhcc:philemon:intro#1"].text.startswith("Philemon was an inhabitant of Colosse")
    assert philemon["mhcc:philemon:intro#1"].metadata.panel_type == "book_intro"


def test_part_marks_round_trip() -> None:
    assert with_part("MHCC:John.3.11-21", 2, 6) == "MHCC:John.3.11-21#2/6"
    assert with_part("MHCC:John.3.22-36", 1, 1) == "MHCC:John.3.22-36"
    assert part_of("MHCC:John.3.22-36") is None and part_of("x#0/3") is None and part_of("x#4/3") is None
    with pytest.raises(ValueError):
        with_part("x", 4, 3)
