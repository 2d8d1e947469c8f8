"""How a library names things: its own names first, then the canon, then the id read as words."""

from __future__ import annotations

from amicus_desktop.core.names import DEFAULT_NAMES, Names
from amicus_desktop.core.references import ChapterRef, PassageRef
from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.core.scholars import Scholar


def test_books_by_the_database_then_the_canon_then_the_id() -> None:
    own = Names(books={"romans": "Epistle to the Romans", "narnia": "The Chronicles"})
    assert own.book("romans") == "Epistle to the Romans"
    assert own.book("narnia") == "The Chronicles"
    assert own.book("song-of-solomon") == "Song of Solomon"  # the canon's spelling, not "Song Of Solomon"
    assert own.book("2-maccabees") == "2 Maccabees"  # neither: the id read as words
    assert DEFAULT_NAMES.book("1-corinthians") == "1 Corinthians"


def test_scholars_by_the_database_then_the_known_ones() -> None:
    own = Names(scholars={"matthew-henry": Scholar("matthew-henry", "M. Henry")})
    assert own.scholar("matthew-henry").name == "M. Henry"
    assert DEFAULT_NAMES.scholar("matthew-henry").name == "Matthew Henry"


def test_places_are_written_with_the_library_names() -> None:
    own = Names(books={"romans": "Epistle to the Romans"})
    assert own.chapter(ChapterRef("romans", 9)) == "Epistle to the Romans 9"
    assert own.chapter(None) == ""
    assert own.passage(PassageRef("romans", 9, 6, 13)) == "Epistle to the Romans 9:6-13"
    assert own.reference(ChunkMetadata(book_id="romans", chapter_num=9, verse_start=1, verse_end=5)) == (
        "Epistle to the Romans 9:1-5")
    assert own.reference(ChunkMetadata(book_id="john")) == "John"
    assert own.reference(ChunkMetadata(chapter_num=3)) == ""  # no book: no reference


def test_a_reference_with_no_library_names_the_book_as_the_canon_does() -> None:
    """The fallback behind every reference's label (the command line's, MCP's, the cross-references'): the canon's
    name, not the id read as words ("Song Of Solomon 2:1")."""
    assert PassageRef("song-of-solomon", 2, 1, 1).label() == "Song of Solomon 2:1"
    assert ChunkMetadata(book_id="song-of-solomon", chapter_num=2, verse_start=1).reference() == "Song of Solomon 2:1"
    assert PassageRef("1-maccabees", 1, 1, 1).label() == "1 Maccabees 1:1"  # no canon's name: the id as words
