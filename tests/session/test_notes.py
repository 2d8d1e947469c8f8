"""The reader's notes in the session (no Qt): workspaces that hold their profile and pins, the notes of the
chapter and the note list, delete and undo, the store polled, the draft saved before a question, the
notes embedded when the proxy comes back, and a switch that never shows one workspace's notes in another."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.core.query import USER_NOTE, Profile
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.notes import NotesStore, parse_ref
from amicus_desktop.overlays import Overlay
from amicus_desktop.session.notes import EditorState
from amicus_desktop.session.workspaces import DEFAULT_ID, Held, Workspaces, slug
from tests.support.proxy import free_port
from tests.support.scripted_proxy import ScriptedProxy
from tests.support.sessions import OpenSession, reach

pytestmark = pytest.mark.anyio

FAST = {"poll": 0.2, "autosave": 0.3}


async def _ready(session, chapter: ChapterRef | None = None) -> None:
    session.start()
    await reach(session, lambda: session.can_ask)
    if chapter is not None:
        session.set_chapter(chapter)


def _ids(view) -> list[str]:
    return [r.chunk_id for r in view.result.results] + [r.chunk_id for r in view.result.rejected]


def test_workspace_ids_and_names() -> None:
    assert slug("Sermon on Romans 9, Évangile") == "sermon-on-romans-9-evangile"
    assert slug("!!!") == "workspace"


def test_workspaces_hold_their_profile_and_pins_and_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "workspaces.json"
    ws = Workspaces(path)
    assert ws.current_id == DEFAULT_ID
    study = ws.create("Study group")
    assert study.id == "study-group" and ws.create("Study group 2!").id == "study-group-2"
    with pytest.raises(ValueError, match="already"):
        ws.create("study group")
    mine = Profile.of(["matthew-henry"], [])
    role = Overlay("pastor", forbidden_scholars=("gill",), boost_terms=("grace",))
    assert ws.switch("study-group", leaving=_held(mine, ("c1",), role)) is not None
    assert ws.current.held.overlay is None  # a new workspace holds no overlay of another
    back = ws.switch(DEFAULT_ID, leaving=_held(Profile(), ()))
    assert back is not None and back.profile == mine and back.pins == ("c1",) and back.overlay == role
    again = Workspaces(path)
    assert again.current_id == DEFAULT_ID and [w.id for w in again.all][:2] == [DEFAULT_ID, "study-group"]
    assert again.get(DEFAULT_ID).held.overlay == role and again.get("study-group").held.overlay is None
    # a held overlay that is no longer valid is not used; the rest of the workspace is
    data = json.loads(path.read_text())
    data["workspaces"][0]["overlay"] = {"role_id": "Not An Id!"}
    path.write_text(json.dumps(data))
    kept = Workspaces(path).get(DEFAULT_ID)
    assert kept is not None and kept.held.overlay is None and kept.held.pins == ("c1",)
    path.write_text("{not json")
    damaged = Workspaces(path)
    assert damaged.current_id == DEFAULT_ID and damaged.load_problem and (tmp_path / "workspaces.json.bak").exists()


def _held(profile: Profile, pins: tuple[str, ...], overlay: Overlay | None = None) -> Held:
    return Held(profile, pins, overlay)


async def test_a_note_is_listed_marked_found_by_the_next_question_and_absent_from_another_workspace(
        open_session: OpenSession, small_db: Path, proxy: ScriptedProxy) -> None:
    session = open_session(small_db, proxy.url, "romans:9", **FAST)
    await _ready(session)
    nb = session.notebook
    assert session.context("x").workspace == DEFAULT_ID
    nb.editor.new(parse_ref("Romans 9:11"))
    nb.editor.type("Not of works: election before birth, zebrafinch")
    await reach(session, lambda: nb.desk.chapter is not None and len(nb.desk.chapter.notes) == 1)
    note = nb.desk.chapter.notes[0]
    assert nb.desk.chapter.marks() == {11: (note,)} and nb.editor.status.state is EditorState.SAVED
    # the next question finds it (keyword mode: no vector needed), as the reader's own
    from amicus_desktop.core.query import SearchMode

    session.set_mode(SearchMode.KEYWORD)
    await session.ask("zebrafinch")
    view = session.question.view
    assert view is not None and view.result.results[0].chunk_id == note.id
    assert view.result.results[0].candidate.source_type == USER_NOTE
    # another workspace: the answer on screen is dropped and asked again there; the note is nowhere
    nb.workspaces.create("Study group")
    await nb.switch("study-group")
    await reach(session, lambda: session.question.view is not None and not session.question.busy)
    assert session.context("x").workspace == "study-group"
    assert note.id not in _ids(session.question.view)
    assert all(c.source_type != USER_NOTE for c in session.question.view.result.candidates)
    await reach(session, lambda: nb.desk.chapter is not None and nb.desk.chapter.workspace == "study-group")
    assert nb.desk.chapter.notes == () and nb.desk.listing.notes == ()


async def test_switching_puts_the_profile_overlay_and_pins_away_and_brings_them_back(
        open_session: OpenSession, small_db: Path, proxy) -> None:
    session = open_session(small_db, proxy.url, "romans:9", **FAST)
    await _ready(session)
    nb = session.notebook
    overlay_file = session.prefs.overlay_store.path
    role = Overlay("pastor", forbidden_scholars=("gill",), boost_terms=("grace",))
    session.set_profile(Profile.of(["matthew-henry"], []))
    session.set_overlay(role)
    session.search.set_pins(("chunk-1",))
    nb.workspaces.create("Sermon")
    await nb.switch("sermon")
    # nothing of the workspace left is in use here: no profile, no pins, no overlay (nor its file)
    assert session.prefs.profile == Profile() and session.search.pins == ()
    assert session.prefs.overlay is None and not overlay_file.exists()
    assert session.context("x").governance is None
    assert nb.workspaces.current.name == "Sermon"
    await nb.switch(DEFAULT_ID)
    assert session.prefs.profile == Profile.of(["matthew-henry"], []) and session.search.pins == ("chunk-1",)
    assert session.prefs.overlay == role and overlay_file.exists()
    assert session.context("x").governance == role.governance


async def test_the_list_searches_by_passage_words_and_letters_and_a_delete_is_undone(
        open_session: OpenSession, small_db: Path, proxy) -> None:
    session = open_session(small_db, proxy.url, "romans:9", **FAST)
    await _ready(session)
    desk = session.notebook.desk
    for text, ref in (("Grace alone, not works", "Rom 9:16"), ("Jacob and Esau", "Rom 9:13"),
                      ("Born again of water", "John 3:5")):
        await desk.save(text, parse_ref(ref), None, None, desk.workspace_id)
    await reach(session, lambda: desk.count == 3)
    for query, first in (("graces", "Grace alone, not works"), ("justif", None), ("John 3", "Born again of water"),
                         ("esa", "Jacob and Esau")):
        desk.search(query)
        await reach(session, lambda q=query: desk.listing.query == q)
        assert [n.text for n in desk.listing.notes][:1] == ([first] if first else [])
    esau = next(n for n in desk.chapter.notes if "Esau" in n.text)
    desk.remove(esau)
    await reach(session, lambda: desk.count == 2 and desk.last_removed is not None)
    await desk.undo_remove()
    await reach(session, lambda: desk.count == 3)
    back = next(n for n in desk.chapter.notes if "Esau" in n.text)
    assert (back.id, back.created, back.updated) == (esau.id, esau.created, esau.updated)


async def test_a_note_written_elsewhere_shows_up_and_an_edit_elsewhere_is_a_conflict_not_an_overwrite(
        open_session: OpenSession, small_db: Path, proxy) -> None:
    session = open_session(small_db, proxy.url, "romans:9", **FAST)
    await _ready(session)
    nb = session.notebook
    with NotesStore() as store:  # what `amicus-desktop notes add` does, through a connection of its own
        other = store.workspace(DEFAULT_ID).add("From the command line", parse_ref("Romans 9:1"))
    await reach(session, lambda: nb.desk.chapter is not None and len(nb.desk.chapter.notes) == 1)
    nb.editor.open(nb.desk.chapter.notes[0])
    with NotesStore() as store:
        store.workspace(DEFAULT_ID).edit(other.id, "Changed on the command line")
    nb.editor.type("Changed in the app")
    await reach(session, lambda: nb.editor.status.state is EditorState.CONFLICT)
    with NotesStore() as store:
        assert store.workspace(DEFAULT_ID).get(other.id).text == "Changed on the command line"
    await nb.editor.keep_mine()
    with NotesStore() as store:
        assert store.workspace(DEFAULT_ID).get(other.id).text == "Changed in the app"


async def test_a_draft_is_saved_before_the_question_that_should_find_it(open_session: OpenSession,
                                                                         small_db: Path, proxy) -> None:
    from amicus_desktop.core.query import SearchMode

    session = open_session(small_db, proxy.url, "romans:9", poll=0.2, autosave=60.0)  # no autosave in time
    await _ready(session)
    session.set_mode(SearchMode.KEYWORD)
    nb = session.notebook
    nb.editor.new(parse_ref("Romans 9"))
    nb.editor.type("quetzalcoatl")
    assert nb.editor.dirty
    await session.ask("quetzalcoatl")
    view = session.question.view
    assert view is not None and view.result.results[0].candidate.source_type == USER_NOTE


async def test_notes_written_offline_are_embedded_when_the_proxy_comes_back(open_session: OpenSession,
                                                                            small_db: Path) -> None:
    port = free_port()
    session = open_session(small_db, f"http://127.0.0.1:{port}", "romans:9", **FAST)
    session.start()
    await reach(session, lambda: session.library.ready)
    nb = session.notebook
    nb.editor.new(parse_ref("Romans 9:11"))
    nb.editor.type("Written while the proxy was away")
    await reach(session, lambda: nb.desk.pending == 1)
    with ScriptedProxy(dims=8, port=port) as back:
        await reach(session, lambda: nb.desk.pending == 0, timeout=20)
        assert back.embed_requests >= 1
    with NotesStore() as store:
        assert store.workspace(DEFAULT_ID).pending_count("test-model") == 0
