"""Adding a corpus to a library from the app: the work the ingest dialog runs off the UI thread. No Qt.

The dialog (``ui/ingest_dialog.py``) hands :func:`ingest_work` plain values — the two paths, the proxy
and a cancel event — and gets back the same :class:`~amicus_desktop.corpus.ingest.IngestReport` the
command line prints. The app does not write into the library it reads: like ``ingest`` on the command
line, the work builds a new version of the file beside it and renames it into place only when it is
complete (:mod:`amicus_desktop.store.update`); the app then opens that file again.

Which model embeds: the local model in this process when the library is new or holds the local model's
vectors (as the demo build does: no proxy needed); otherwise the proxy, which serves the model the app
asks its questions with. Either way the library's model is enforced (``MODEL_MISMATCH``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..core.errors import AmicusError
from ..corpus.build import BuildCancelled, BuildProgress
from ..corpus.documents import read_corpus
from ..corpus.ingest import IngestReport, ingest
from ..embedding import Embedder, ProxyEmbedder, get_backend
from ..store.library import open_library


@dataclass(frozen=True)
class IngestRequest:
    """What to ingest where, and the proxy to embed through when the local model is not the library's."""

    corpus: Path
    library: Path
    proxy_url: str
    token: str | None = None


def embedder_for(request: IngestRequest) -> Embedder:
    local = get_backend("local")
    if not request.library.exists():
        return local
    with open_library(request.library) as store:
        model = store.info.model_id
    if model == local.model_id:
        return local
    local.close()
    return ProxyEmbedder(request.proxy_url, request.token)


def ingest_work(request: IngestRequest, cancel: threading.Event,
                progress: Callable[[BuildProgress], None]) -> IngestReport:
    """(worker thread) Read the corpus and ingest it; raises what :func:`failure_text` explains."""
    corpus = read_corpus(request.corpus)
    embedder = embedder_for(request)
    try:
        return ingest(corpus, request.library, embedder, source_name=request.corpus.name, progress=progress,
                      cancel=cancel)
    finally:
        embedder.close()


def failure_text(exc: BaseException, library: Path) -> str:
    """A sentence for a failed ingest: what happened, and that the library is as it was."""
    kept = f"{library.name} is as it was."
    if isinstance(exc, BuildCancelled):
        return f"Cancelled. {kept}"
    if isinstance(exc, AmicusError):  # BackendError too: one error tree
        return f"{exc.message} {kept}"
    if isinstance(exc, OSError):
        return f"The files could not be read or written ({exc.strerror or exc}). {kept}"
    return f"The ingest failed ({type(exc).__name__}: {exc}). {kept}"


def report_rows(report: IngestReport) -> list[tuple[str, str]]:
    """The report's counts as (label, value) rows, as the dialog shows them."""
    outcome = ("Created" if report.created else "Updated") if report.written else "Unchanged (nothing new)"
    skipped = len({e.line for e in report.errors})
    rows = [
        ("Library", f"{outcome}: {report.path}"),
        ("Documents", f"{report.documents_ingested:,} ingested"
                      + (f", {skipped:,} line{'s' * (skipped != 1)} skipped" if skipped else "")),
        ("Chunks", f"{report.chunks_ingested:,}: {report.chunks_added:,} new, {report.chunks_replaced:,} replaced, "
                   f"{report.chunks_unchanged:,} unchanged"),
        ("Embedded", f"{report.chunks_embedded:,} with {report.model_id}"
                     + (f" ({report.embed_rate:,.1f} per second)" if report.chunks_embedded else "")),
        ("Time", f"{report.seconds:,.1f} s"),
    ]
    return rows


__all__ = ["IngestRequest", "embedder_for", "failure_text", "ingest_work", "report_rows"]
