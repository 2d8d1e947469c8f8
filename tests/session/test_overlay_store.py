"""The app's overlay (CONTRACT section 12) in the session, without Qt: kept in ``overlay.json`` beside the
settings (its preferred sources are the profile's), applied to every question, followed by the answer on
screen — re-ranked, or asked again when its boosted words changed — and ``no_overlay`` when there is none."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.core.query import Profile, SearchMode
from amicus_desktop.core.results import RejectReason
from amicus_desktop.overlays import Overlay, read_overlay
from amicus_desktop.resources import resource_path
from amicus_desktop.session.preferences import Preferences
from amicus_desktop.settings import SettingsStore
from tests.support.proxy import free_port
from tests.support.sessions import OpenSession, Recorder, reach

SAMPLE = read_overlay(resource_path("overlays", "sample-pastor.json"))


def test_no_overlay_until_one_is_set_and_it_is_kept_beside_the_settings_without_the_profile() -> None:
    prefs = Preferences(SettingsStore())
    assert prefs.overlay is None and prefs.overlay_document() is None  # no_overlay
    assert prefs.adopt_overlay(SAMPLE)
    assert prefs.profile == Profile.of(["example-pastor"], ["reformed"])
    saved = json.loads((paths.config_dir() / "overlay.json").read_text(encoding="utf-8"))
    assert saved["role_id"] == "sample-pastor" and "preferred_scholars" not in saved.get("source_policy", {})
    assert saved["vocabulary"] == {"boost": ["covenant", "promise", "promises"], "suppress": ["tabernacle"]}
    again = Preferences(SettingsStore())  # the next start
    assert again.overlay == prefs.overlay and again.profile == prefs.profile
    assert again.overlay_document() == SAMPLE  # the whole file again, for an export
    assert again.set_overlay(None) and not (paths.config_dir() / "overlay.json").exists()
    assert Preferences(SettingsStore()).overlay is None


def test_a_saved_overlay_that_went_bad_is_not_used_and_the_reader_is_told() -> None:
    (paths.config_dir()).mkdir(parents=True, exist_ok=True)
    (paths.config_dir() / "overlay.json").write_text('{"role_id": "r", "vocabulary": {"boost": "covenant"}}')
    prefs = Preferences(SettingsStore())
    told: list[str] = []
    prefs.notice.connect(told.append)
    prefs.announce_load_problem()
    assert prefs.overlay is None
    assert told and "/vocabulary/boost" in told[0]


def test_an_edit_that_would_make_an_invalid_overlay_is_refused_with_its_pointer() -> None:
    prefs = Preferences(SettingsStore())
    told: list[str] = []
    prefs.notice.connect(told.append)
    assert prefs.set_overlay(Overlay("r", boost_terms=("covenant",)))
    assert not prefs.set_overlay(Overlay("r", boost_terms=(" covenant ",)))
    assert prefs.overlay == Overlay("r", boost_terms=("covenant",))
    assert told == ["The overlay was not changed: /vocabulary/boost/0: must not begin or end with a space."]


@pytest.mark.anyio
async def test_the_session_applies_the_overlay_and_the_answer_follows_it(sample_db: Path,
                                                                        open_session: OpenSession) -> None:
    session = open_session(sample_db, f"http://127.0.0.1:{free_port()}")  # no proxy: keyword search
    seen = Recorder(session)
    session.start()
    await reach(session, lambda: session.library.ready)
    session.set_mode(SearchMode.KEYWORD)
    session.ask("What does the new covenant promise?")
    await reach(session, lambda: session.question.view is not None and not session.question.busy)
    view = session.question.view
    assert view is not None and view.result.trace.overlay is None
    assert "sample:word:covenant" in [r.chunk_id for r in view.result.results]

    # forbidding a kind of source re-ranks the kept candidates (no new search): the word study is rejected
    session.set_overlay(Overlay("mine", forbidden_source_types=("word_study",)))
    view = session.question.view
    assert view is not None and view.cause == "overlay" and view.result.trace.overlay == "mine"
    assert view.result.timings.search == 0  # re-ranked
    rejected = {r.chunk_id: r for r in view.result.rejected}
    assert rejected["sample:word:covenant"].reason is RejectReason.FORBIDDEN_SOURCE
    assert "sample:word:covenant" not in [r.chunk_id for r in view.result.results]

    # a boosted word joins the keyword search: the question is asked again
    task = session.set_overlay(Overlay("mine", forbidden_source_types=("word_study",), boost_terms=("mercy",)))
    assert task is not None
    await task
    view = session.question.view
    assert view is not None and view.cause == "overlay" and "mercy" in view.result.trace.keywords
    mercy = next(r for r in view.result.results if r.chunk_id == "sample:romans:9:16")
    assert mercy.breakdown.vocabulary_boost == pytest.approx(1.1)

    # an imported overlay brings its preferences; removing it keeps them and forbids nothing again
    task = session.set_overlay(SAMPLE, whole=True)  # other boosted words: asked again
    assert task is not None
    await task
    assert session.prefs.profile == Profile.of(["example-pastor"], ["reformed"])
    view = session.question.view
    assert view is not None and view.result.trace.overlay == "sample-pastor"
    task = session.set_overlay(None)
    assert task is not None
    await task
    view = session.question.view
    assert view is not None and view.result.trace.overlay is None and session.context("q").governance is None
    assert session.prefs.profile == Profile.of(["example-pastor"], ["reformed"])
    assert [type(o).__name__ for o in seen.values("overlay changed")] == ["Overlay", "Overlay", "Overlay",
                                                                          "NoneType"]
