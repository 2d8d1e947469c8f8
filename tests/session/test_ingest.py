"""The app's ingest work: which model embeds, and the words of its report and failures."""

from __future__ import annotations

import errno
from pathlib import Path

import numpy as np

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.corpus.build import BuildCancelled
from amicus_desktop.corpus.documents import LineError
from amicus_desktop.corpus.ingest import IngestReport
from amicus_desktop.embedding import BackendUnavailable, ProxyEmbedder, get_backend
from amicus_desktop.embedding.local import LocalMiniLMBackend
from amicus_desktop.session.ingest import IngestRequest, embedder_for, failure_text, report_rows
from tests.support.dbs import Chunk, build_db


def test_the_local_model_embeds_a_new_library_or_its_own_and_the_proxy_any_other(tmp_path: Path) -> None:
    local_id = get_backend("local").model_id
    mine = build_db(tmp_path / "mine.db", [Chunk("a", np.ones(384))], model=local_id)
    other = build_db(tmp_path / "other.db", [Chunk("a", np.ones(8))], model="test-model")
    for library, kind in ((tmp_path / "new.db", LocalMiniLMBackend), (mine, LocalMiniLMBackend),
                          (other, ProxyEmbedder)):
        embedder = embedder_for(IngestRequest(tmp_path / "c.jsonl", library, "http://127.0.0.1:9"))
        try:
            assert isinstance(embedder, kind), library
        finally:
            embedder.close()


def test_failures_say_what_happened_and_that_the_library_is_as_it_was() -> None:
    lib = Path("/data/scripture.db")
    assert failure_text(BuildCancelled("x"), lib) == "Cancelled. scripture.db is as it was."
    assert failure_text(AmicusError(ErrorCode.MODEL_MISMATCH, "Built with A, served B."), lib) == (
        "Built with A, served B. scripture.db is as it was.")
    assert failure_text(BackendUnavailable("The proxy cannot be reached."), lib).startswith("The proxy cannot be")
    assert failure_text(OSError(errno.ENOSPC, "the disk is full"), lib) == (
        "The files could not be read or written (the disk is full). scripture.db is as it was.")


def test_the_report_rows() -> None:
    report = IngestReport(Path("/data/lib.db"), "m", 2, 5, 3, 2, (LineError(4, "/x: bad"), LineError(4, "/y: bad")),
                          chunks_added=2, chunks_replaced=1, written=True, seconds=1.25, embed_seconds=0.5)
    assert report_rows(report) == [
        ("Library", "Updated: /data/lib.db"),
        ("Documents", "2 ingested, 1 line skipped"),
        ("Chunks", "5: 2 new, 1 replaced, 2 unchanged"),
        ("Embedded", "3 with m (6.0 per second)"),
        ("Time", "1.2 s"),
    ]
