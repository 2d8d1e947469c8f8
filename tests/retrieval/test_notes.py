"""A workspace's notes as evidence (CONTRACT section 11): they join every search mode, passages, pins,
filters and boosts like library chunks — and only for a question scoped to their workspace."""

from __future__ import annotations

import asyncio
from pathlib import Path

import numpy as np
import pytest

from amicus_desktop.core.query import Filters, RetrievalContext, SearchMode
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.core.results import RetrievalResult
from amicus_desktop.notes import Note, NotesStore, parse_ref
from amicus_desktop.retrieval import Retriever
from tests.support.corpora import dead_proxy
from tests.support.scripted_proxy import ScriptedProxy, text_vector

QUESTION = "why was Jacob chosen over Esau"


@pytest.fixture
def proxy():
    with ScriptedProxy(dims=8, model="test-model") as p:
        yield p


def ask(db: Path, url: str, query: str = QUESTION, **options: object) -> RetrievalResult:
    async def run() -> RetrievalResult:
        retriever = Retriever(db, url)
        try:
            return await retriever.retrieve(RetrievalContext(query, **options))  # type: ignore[arg-type]
        finally:
            await retriever.aclose()

    return asyncio.run(run())


def write(workspace: str, text: str, ref: str | None = None, *, embed: bool = True) -> Note:
    """A note, with the vector the scripted proxy gives its text (what embedding it would store)."""
    with NotesStore() as store:
        ws = store.workspace(workspace)
        note = ws.add(text, parse_ref(ref) if ref else None)
        if embed:
            ws.store_vectors("test-model", [(note, np.asarray(text_vector(text, 8), np.float32))])
        return note


def ids(result: RetrievalResult) -> list[str]:
    return [r.chunk_id for r in result.results]


def test_a_note_near_the_question_is_ranked_first_with_its_passage(small_db: Path, proxy: ScriptedProxy) -> None:
    note = write("w", "Jacob was chosen before birth, not for works", "Romans 9:11")
    proxy.vectors[QUESTION] = text_vector(note.text, 8)  # the same meaning exactly
    result = ask(small_db, proxy.url, workspace="w")
    top = result.results[0]
    assert top.chunk_id == note.id and top.breakdown.similarity == pytest.approx(1.0, abs=1e-5)
    c = top.candidate
    assert (c.source_type, c.source_id, c.text) == ("user_note", "note", note.text)
    assert c.metadata.to_json() == {"scholar_id": None, "tradition": None, "book_id": "romans", "chapter_num": 9,
                                    "verse_start": 11, "verse_end": 11, "panel_type": None}
    assert result.to_json()["results"][0]["source_type"] == "user_note"
    assert "notes" in result.to_json()["diagnostics"]["search_ms"]
    assert note.id not in ids(ask(small_db, proxy.url))  # without the workspace: never


@pytest.mark.parametrize("mode", list(SearchMode))
def test_every_mode_finds_notes(small_db: Path, proxy: ScriptedProxy, mode: SearchMode) -> None:
    note = write("w", "Zerubbabel rebuilt the temple: a note on grace")
    proxy.vectors["Zerubbabel temple"] = text_vector(note.text, 8)
    result = ask(small_db, proxy.url, "Zerubbabel temple", workspace="w", mode=mode)
    assert ids(result)[0] == note.id
    b = result.results[0].breakdown
    assert (b.similarity is None) == (mode is SearchMode.KEYWORD)
    assert (b.lexical is None) == (mode is SearchMode.SEMANTIC)
    if b.lexical is not None:
        assert 0 < b.lexical <= 1


def test_a_referenced_passage_brings_its_notes_and_its_boost(small_db: Path, proxy: ScriptedProxy) -> None:
    on = write("w", "a thought about the potter", "Romans 9")
    write("w", "far away", "John 1:1")
    proxy.vectors["Romans 9:21"] = list(-np.asarray(text_vector(on.text, 8)))  # as far as can be
    result = ask(small_db, proxy.url, "Romans 9:21", workspace="w", k=50, candidates=50)
    found = {c.chunk_id: c for c in result.candidates}
    assert on.id in found
    ranked = {r.chunk_id: r for r in [*result.results, *result.rejected] if hasattr(r, "breakdown")}
    assert ranked[on.id].breakdown.reference_boost == 1.25


def test_a_passage_only_a_note_covers_is_in_the_corpus(small_db: Path, proxy: ScriptedProxy) -> None:
    warned = ask(small_db, proxy.url, "what about Genesis 1:1", workspace="w")
    assert "reference_not_in_corpus" in [w.code.value for w in warned.warnings]
    note = write("w", "In the beginning: my note", "Genesis 1")
    result = ask(small_db, proxy.url, "what about Genesis 1:1", workspace="w")
    assert "reference_not_in_corpus" not in [w.code.value for w in result.warnings]
    (joined,) = [c for c in result.candidates if c.chunk_id == note.id]  # the passage brought it in
    assert "reference" in joined.origins


def test_filters_and_the_my_notes_source_type(small_db: Path, proxy: ScriptedProxy) -> None:
    romans = write("w", "on Romans", "Romans 9:1")
    john = write("w", "on John", "John 3:16")
    loose = write("w", "on no passage")
    mine = Filters.of(source_types=["user_note"])
    assert set(ids(ask(small_db, proxy.url, workspace="w", filters=mine))) == {romans.id, john.id, loose.id}
    assert set(ids(ask(small_db, proxy.url, workspace="w", filters=Filters.of(["user_note"], ["john"])))) == {john.id}
    library_only = ask(small_db, proxy.url, workspace="w", filters=Filters.of(["section_panel"]), k=50, candidates=200)
    assert not [c for c in library_only.candidates if c.source_type == "user_note"]
    by_scholar = ask(small_db, proxy.url, workspace="w", filters=Filters.of(scholars=["matthew-henry"]), k=50,
                     candidates=200)
    assert not [c for c in by_scholar.candidates if c.source_type == "user_note"]
    by_book = ask(small_db, proxy.url, workspace="w", filters=Filters.of(books=["romans"]), k=50, candidates=200)
    assert {c.chunk_id for c in by_book.candidates if c.source_type == "user_note"} == {romans.id}


def test_the_chapter_boost_and_no_cap_for_notes(small_db: Path, proxy: ScriptedProxy) -> None:
    from amicus_desktop.core.query import BoostWeights

    notes = [write("w", f"election note {i}", "Romans 9:11") for i in range(4)]
    proxy.vectors[QUESTION] = text_vector(notes[0].text, 8)
    result = ask(small_db, proxy.url, workspace="w", chapter=ChapterRef("romans", 9),
                 weights=BoostWeights(per_scholar_cap=1), k=20, candidates=100)
    on_chapter = [r for r in result.results if r.chunk_id in {n.id for n in notes}]
    assert len(on_chapter) == 4  # never capped: a note has no scholar
    assert all(r.breakdown.chapter_boost == 1.5 for r in on_chapter)


def test_pins_name_notes_of_the_workspace_only(small_db: Path, proxy: ScriptedProxy) -> None:
    mine = write("w", "pin me")
    theirs = write("other", "not yours")
    result = ask(small_db, proxy.url, workspace="w", pins=(theirs.id, mine.id))
    assert result.results[0].chunk_id == mine.id and result.results[0].pinned
    assert theirs.id not in ids(result)
    (warning,) = [w for w in result.warnings if w.code.value == "pin_not_found"]
    assert theirs.id in warning.message and "not yours" not in warning.message
    unscoped = ask(small_db, proxy.url, pins=(mine.id,))
    assert mine.id not in ids(unscoped) and "pin_not_found" in [w.code.value for w in unscoped.warnings]


def test_notes_not_embedded_are_searched_by_words_and_caught_up(small_db: Path, proxy: ScriptedProxy) -> None:
    note = write("w", "Melchizedek priest of the most high", embed=False)
    by_words = ask(small_db, dead_proxy(), "Melchizedek", workspace="w", mode=SearchMode.KEYWORD)
    assert ids(by_words)[0] == note.id
    (pending,) = [w for w in by_words.warnings if w.code.value == "notes_pending"]
    assert "1 of your notes is not embedded" in pending.message and "Melchizedek" not in pending.message
    # a question that reaches the proxy embeds it first, then finds it by meaning
    proxy.vectors["the priest king"] = text_vector(note.text, 8)
    result = ask(small_db, proxy.url, "the priest king", workspace="w")
    assert ids(result)[0] == note.id and "notes_pending" not in [w.code.value for w in result.warnings]
    with NotesStore() as store:
        assert store.workspace("w").get(note.id).models == ("test-model",)


def test_a_proxy_that_fails_after_the_question_leaves_notes_pending(small_db: Path, proxy: ScriptedProxy) -> None:
    write("w", "stays pending", embed=False)
    refused: list[object] = []

    def questions_only(body: dict) -> tuple[int, dict[str, str], bytes] | None:
        if str(body.get("input", "")).startswith("question"):
            return None
        refused.append(body.get("input"))
        return 503, {}, b'{"error":{"code":"X","message":"busy"}}'

    proxy.behaviour = questions_only

    async def two_questions() -> list[RetrievalResult]:
        retriever = Retriever(small_db, proxy.url)
        try:
            return [await retriever.retrieve(RetrievalContext(q, workspace="w")) for q in ("question 1", "question 2")]
        finally:
            await retriever.aclose()

    first, second = asyncio.run(two_questions())
    for result in (first, second):
        assert "notes_pending" in [w.code.value for w in result.warnings]
        assert "stays pending" not in [r.text for r in result.results]  # no similarity: not a candidate
    assert refused == ["stays pending", "stays pending"]  # one attempt and its retry, then a quiet minute


def test_context_cites_the_readers_note(small_db: Path, proxy: ScriptedProxy) -> None:
    from amicus_desktop.context import WordPieceCounter, assemble
    from amicus_desktop.present import citation

    note = write("w", "My own words on election", "Romans 9:11")
    proxy.vectors[QUESTION] = text_vector(note.text, 8)
    result = ask(small_db, proxy.url, workspace="w", k=3)
    block = assemble(result.results, budget=2000, count=WordPieceCounter(), cite=citation)
    assert "Your note on Romans 9:11" in block.text and note.id in block.included


def test_a_bad_workspace_id_is_a_usage_error(small_db: Path, proxy: ScriptedProxy) -> None:
    with pytest.raises(ValueError, match="workspace"):
        ask(small_db, proxy.url, workspace="Not Valid")


def test_under_the_app_preset_a_note_counts_as_commentary(small_db: Path, proxy: ScriptedProxy) -> None:
    """The reader's note is never lowered by the source prior (its own kind, counting fully) nor by the
    spread (it has no author), and it is evidence of the focus chapter like commentary."""
    from amicus_desktop.core.preset import APP
    from amicus_desktop.rerank.focus import focus_chapter
    from amicus_desktop.rerank.prior import Material, material

    notes = [write("w", "my note on the potter and the clay", "Romans 9:21") for _ in range(5)]  # one vector
    proxy.vectors[QUESTION] = text_vector(notes[0].text, 8)
    result = ask(small_db, proxy.url, workspace="w", mode=APP.mode, weights=APP.weights, fusion=APP.fusion,
                 policy=APP.policy, k=10)
    mine = [r for r in result.results if r.source_type == "user_note"]
    assert len(mine) == 5 and all(material(r.candidate) is Material.NOTE for r in mine)
    assert all(r.breakdown.source_prior == 1.0 and r.breakdown.diversity == 1.0 for r in mine)
    note = next(c for c in result.candidates if c.source_type == "user_note")
    assert focus_chapter([note], {note.chunk_id: 0.9}) == ChapterRef("romans", 9)
