"""ingest(): new and existing libraries, idempotence by content hash, the model enforced, authors named."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.core.scholars import Scholar
from amicus_desktop.corpus.build import BuildCancelled, BuildProgress, embedding_text
from amicus_desktop.corpus.documents import parse_lines, read_corpus
from amicus_desktop.corpus.ingest import ingest
from amicus_desktop.embedding import ProxyEmbedder
from amicus_desktop.store import ScriptureStore
from amicus_desktop.store.writer import ChunkRecord
from tests.support.dbs import Chunk, build_db, read_rows
from tests.support.ingest import RecordingEmbedder, chunk, document, folder_state, notes, write_jsonl
from tests.support.scripted_proxy import ScriptedProxy

REQUIRED_META = ("schema_version", "embedding_model", "embedding_dims", "distance_metric")


def _corpus(*docs):
    return parse_lines([json.dumps(d) for d in docs])


def test_a_new_library_is_a_section_one_database_with_keyword_index_and_names(tmp_path) -> None:
    out = tmp_path / "mine.db"
    seen: list[BuildProgress] = []
    faq = document("faq", [chunk("faq:1", "Where do my notes go?")], source_type="meta_faq")
    report = ingest(_corpus(notes(3), faq), out, RecordingEmbedder(), progress=seen.append, source_name="x.jsonl")
    assert (report.documents_ingested, report.chunks_ingested, report.chunks_embedded, report.chunks_unchanged) == (
        2, 4, 4, 0)
    assert report.created and report.written and report.chunks_added == 4 and report.errors == ()
    assert [p.stage for p in seen if p.stage == "embedding"][-1:] == ["embedding"] and seen[-1].stage == "done"
    with ScriptureStore(out) as store:
        info = store.info
        assert all(k in info.meta for k in REQUIRED_META) and info.meta["corpus_name"] == "Ingested corpus (x.jsonl)"
        assert (info.model_id, info.dims, info.chunk_count) == ("stand-in-hash-16", 16, 4)
        assert info.fts_table == "chunk_fts" and info.has_scholars
        assert store.scholar_table() == {"jane-doe": Scholar("jane-doe", "Jane Doe", "anglican", "Notes")}
        assert [b.book_id for b in store.books()] == ["romans"]
    meta = dict(read_rows(out, "SELECT t.chunk_id, m.tradition FROM chunk_text t JOIN chunk_metadata m USING (rowid)"))
    assert meta == {"n:0": "anglican", "n:1": "anglican", "n:2": "anglican", "faq:1": None}
    assert read_rows(out, "SELECT count(*) FROM chunk_fts WHERE chunk_fts MATCH 'grace'") == [(3,)]


def test_reingesting_embeds_only_what_changed_counted_at_the_proxy(tmp_path) -> None:
    out = tmp_path / "mine.db"
    corpus_file = write_jsonl(tmp_path / "c.jsonl", [notes(5), notes(3, prefix="m", scholar="ann-lee")])
    sent: list[str] = []
    with ScriptedProxy(dims=8) as proxy, ProxyEmbedder(proxy.url) as embedder:
        def record(body: dict[str, object]) -> None:
            texts = body.get("input")
            if texts is not None:  # not the health check
                sent.extend(texts if isinstance(texts, list) else [str(texts)])

        proxy.behaviour = record
        first = ingest(read_corpus(corpus_file), out, embedder)
        assert (first.chunks_embedded, proxy.embed_requests, len(sent)) == (8, 1, 8)
        state = folder_state(tmp_path)

        again = ingest(read_corpus(corpus_file), out, embedder)
        assert (again.chunks_embedded, again.chunks_unchanged, again.written) == (0, 8, False)
        assert proxy.embed_requests == 1 and folder_state(tmp_path) == state  # byte-identical, nothing embedded

        changed = notes(5)
        changed["chunks"][2]["text"] = "Note 2, rewritten: the righteousness of faith."
        write_jsonl(corpus_file, [changed, notes(3, prefix="m", scholar="ann-lee")])
        third = ingest(read_corpus(corpus_file), out, embedder)
        assert (third.chunks_embedded, third.chunks_replaced, third.chunks_unchanged) == (1, 1, 7)
        assert proxy.embed_requests == 2 and sent[8:] == [
            "Jane Doe — Romans 1:3.\nNote 2, rewritten: the righteousness of faith."]  # a note with its title
    assert read_rows(out, "SELECT text FROM chunk_text WHERE chunk_id = 'n:2'") == [
        ("Note 2, rewritten: the righteousness of faith.",)]
    assert read_rows(out, "SELECT count(*) FROM chunk_text") == [(8,)]


def test_a_change_that_is_not_embedded_keeps_the_vector(tmp_path) -> None:
    out = tmp_path / "mine.db"
    embedder = RecordingEmbedder()
    ingest(_corpus(notes(2)), out, embedder)
    vector = read_rows(out, "SELECT embedding FROM embeddings WHERE rowid = "
                        "(SELECT rowid FROM chunk_text WHERE chunk_id = 'n:1')")
    renamed = notes(2)
    renamed.update(tradition="methodist", title="Notes, second edition")
    report = ingest(_corpus(renamed), out, embedder)
    assert (report.chunks_embedded, report.chunks_replaced, report.written) == (0, 2, True)
    assert len(embedder.texts) == 2
    assert read_rows(out, "SELECT embedding FROM embeddings WHERE rowid = "
                      "(SELECT rowid FROM chunk_text WHERE chunk_id = 'n:1')") == vector
    with ScriptureStore(out) as store:
        # the tradition is the person's and follows the file; the title names a work already known: kept
        assert store.scholar_table()["jane-doe"] == Scholar("jane-doe", "Jane Doe", "methodist", "Notes")


def test_into_a_build_db_library_identical_chunks_are_unchanged_and_the_rest_kept(tmp_path) -> None:
    existing = ChunkRecord("mhcc:romans:1:1", "section_panel", "MHCC.Rom.1", "Henry on Romans one.",
                           ChunkMetadata("matthew-henry", "reformed", "romans", 1, 1, 7))
    stand_in = RecordingEmbedder()
    vec = stand_in.embed([embedding_text(existing)])[0]
    out = build_db(tmp_path / "lib.db", [Chunk(existing.chunk_id, vec, existing.text, source_id=existing.source_id,
                                               meta=existing.metadata)],
                   model=stand_in.model_id, books=[("romans", "Romans", 45, 16)],
                   verses=[("romans", 1, 1, "Paul, a servant of Jesus Christ.")])
    stand_in.texts.clear()
    same = document("MHCC.Rom.1", [chunk(existing.chunk_id, existing.text, book_id="romans", chapter_num=1,
                                         verse_start=1, verse_end=7)], scholar_id="matthew-henry",
                    title="Not Henry's title")
    report = ingest(_corpus(same, notes(1)), out, stand_in)
    assert (report.chunks_unchanged, report.chunks_embedded, report.chunks_added) == (1, 1, 1)
    # embedded with its title and the library's verse, as build-db embeds a note
    assert stand_in.texts == [
        "Jane Doe — Romans 1:1. Paul, a servant of Jesus Christ.\nNote 0 on grace and faith, by n."]
    with ScriptureStore(out) as store:
        assert store.chapter("romans", 1) == [(1, "Paul, a servant of Jesus Christ.")]
        assert store.info.chunk_count == 2
        # a document naming a known scholar without a name: the built-in name lands in the table
        assert store.scholar_table()["matthew-henry"] == Scholar("matthew-henry", "Matthew Henry", "reformed",
                                                                 "Concise Commentary")


def test_the_library_model_is_enforced_before_anything_is_written(tmp_path) -> None:
    out = build_db(tmp_path / "lib.db", [Chunk("a", np.ones(16))], model="another-model")
    before = folder_state(tmp_path)
    embedder = RecordingEmbedder()
    with pytest.raises(AmicusError) as err:
        ingest(_corpus(notes(2)), out, embedder)
    assert err.value.code is ErrorCode.MODEL_MISMATCH and "another-model" in err.value.message
    small = build_db(tmp_path / "small.db", [Chunk("a", np.ones(8))], model=embedder.model_id)
    before = folder_state(tmp_path)
    with pytest.raises(AmicusError) as err:
        ingest(_corpus(notes(2)), small, embedder)
    assert err.value.code is ErrorCode.DIMENSION_MISMATCH
    assert embedder.texts == [] and folder_state(tmp_path) == before


def test_a_file_that_is_not_a_library_is_refused(tmp_path) -> None:
    out = tmp_path / "notes.db"
    out.write_bytes(b"not a database at all" * 10)
    with pytest.raises(AmicusError) as err:
        ingest(_corpus(notes(1)), out, RecordingEmbedder())
    assert err.value.code is ErrorCode.DB_INVALID
    assert out.read_bytes() == b"not a database at all" * 10


def test_nothing_accepted_makes_no_library(tmp_path) -> None:
    report = ingest(parse_lines(["{bad"]), tmp_path / "none.db", RecordingEmbedder())
    assert (report.written, report.created, report.chunks_ingested, len(report.errors)) == (False, False, 0, 1)
    assert list(tmp_path.iterdir()) == []


def test_cancel_leaves_the_library_as_it_was(tmp_path) -> None:
    out = tmp_path / "mine.db"
    ingest(_corpus(notes(2)), out, RecordingEmbedder())
    before = folder_state(tmp_path)
    cancel = threading.Event()

    def progress(p: BuildProgress) -> None:
        if p.stage == "embedding" and p.done >= 4:
            cancel.set()

    with pytest.raises(BuildCancelled):
        ingest(_corpus(notes(20, prefix="big")), out, RecordingEmbedder(), progress=progress, cancel=cancel, batch=4)
    assert folder_state(tmp_path) == before
