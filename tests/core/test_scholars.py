"""Display names for scholar ids: the database's table, then the known scholars, then the id."""

from __future__ import annotations

from amicus_desktop.core.scholars import KNOWN_SCHOLARS, Scholar, display_name, readable_id, resolve


def test_readable_ids() -> None:
    assert readable_id("c-i-scofield") == "C. I. Scofield"
    assert readable_id("matthew-henry") == "Matthew Henry"
    assert readable_id("john_calvin") == "John Calvin"
    assert readable_id("h-a-w-meyer") == "H. A. W. Meyer"
    assert readable_id("ludwig-van-beethoven") == "Ludwig van Beethoven"
    assert readable_id("JohnCalvin") == "JohnCalvin"  # not lower-case words: left as it is
    assert readable_id("  ") == "" and readable_id("a") == "A."


def test_resolve_prefers_the_database_then_known_then_the_id() -> None:
    own = {"matthew-henry": Scholar("matthew-henry", "M. Henry", "presbyterian", "Exposition")}
    assert resolve("matthew-henry", own).name == "M. Henry"
    assert resolve("matthew-henry").name == "Matthew Henry"
    assert resolve("matthew-henry").tradition == "reformed"
    unknown = resolve("thomas-aquinas")
    assert unknown == Scholar("thomas-aquinas", "Thomas Aquinas", None, None)
    assert display_name(None) == "" and display_name("c-i-scofield") == "C. I. Scofield"


def test_known_scholars_are_consistent() -> None:
    for sid, s in KNOWN_SCHOLARS.items():
        assert s.scholar_id == sid and s.name.strip() == s.name and s.name
    # lexicons, the concordance and the topical index are not theological voices
    for sid in ("james-strong", "g-abbott-smith", "orville-nave"):
        assert KNOWN_SCHOLARS[sid].tradition is None
    assert KNOWN_SCHOLARS["orville-nave"].work_names_author()  # "Nave's Topical Bible"
    assert not KNOWN_SCHOLARS["matthew-henry"].work_names_author()
    assert KNOWN_SCHOLARS["g-abbott-smith"].surname == "Abbott-Smith"
