"""Bringing a curator's own corpus into a library: what ``amicus-desktop ingest`` runs (CONTRACT section 13).

:func:`ingest` takes the documents :mod:`.documents` accepted and adds or replaces their chunks, by
``chunk_id``, in the library at ``out`` — a new section-1 database with the keyword index and display
names when there is none — through :class:`~amicus_desktop.store.update.LibraryUpdate`, which changes
a copy and renames it into place only when everything is written (a failure leaves ``out`` as it was).

What is embedded is decided per chunk by two hashes the library keeps (``chunk_hashes``), or, for a
chunk ``build-db`` wrote, computes from the stored row:

- everything stored is the same → the chunk is *unchanged*: nothing is written for it;
- the text it is embedded as (:func:`~.build.embedding_text`) is the same → its row is rewritten with
  the vector it had (a new tradition, say, costs no embedding);
- otherwise it is embedded, with the builder's loop (:func:`~.build.embed_batches`: batches, progress
  with rate and ETA, cancel).

So re-ingesting an unchanged file embeds nothing and writes nothing (the library stays byte-identical),
and changing one chunk's text embeds that chunk alone. Authors land in the ``scholars`` table: the name
and tradition a document gives (else what the library or the built-in table already says), and its
title as their work when no work is known for them.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import __version__
from ..core.errors import AmicusError, ErrorCode
from ..core.scholars import Scholar, resolve
from ..embedding.base import Embedder
from ..store.library import open_library
from ..store.update import Hashes, LibraryUpdate, NewLibrary, StoredChunk, peek, sweep_stale
from ..store.writer import ChunkRecord
from .build import DEFAULT_BATCH, BuildCancelled, BuildProgress, embed_batches, embedding_text
from .documents import Corpus, Document, LineError


@dataclass(frozen=True)
class IngestReport:
    """What an ingest did: CONTRACT section 13's counts, and a little more for people."""

    path: Path
    model_id: str
    documents_ingested: int
    chunks_ingested: int
    chunks_embedded: int
    chunks_unchanged: int
    errors: tuple[LineError, ...] = ()
    #: chunks new to the library / replacing one of the same id (embedded or with their old vector)
    chunks_added: int = 0
    chunks_replaced: int = 0
    created: bool = False
    #: whether the library file was written (False when nothing changed, or nothing was accepted)
    written: bool = False
    seconds: float = 0.0
    embed_seconds: float = 0.0
    stage_seconds: dict[str, float] = field(default_factory=dict)

    @property
    def embed_rate(self) -> float:
        """Chunks embedded per second of embedding (0 when none were)."""
        return self.chunks_embedded / self.embed_seconds if self.embed_seconds > 0 else 0.0

    def to_json(self) -> dict[str, object]:
        """CONTRACT section 13's object (its five keys first), with what else the run knows."""
        return {
            "documents_ingested": self.documents_ingested,
            "chunks_ingested": self.chunks_ingested,
            "chunks_embedded": self.chunks_embedded,
            "chunks_unchanged": self.chunks_unchanged,
            "errors": [e.to_json() for e in self.errors],
            "chunks_added": self.chunks_added,
            "chunks_replaced": self.chunks_replaced,
            "db": str(self.path),
            "model": self.model_id,
            "created": self.created,
            "written": self.written,
            "seconds": round(self.seconds, 3),
            "stage_seconds": {k: round(v, 3) for k, v in self.stage_seconds.items()},
        }

    def summary(self) -> str:
        """A few lines for a person (the errors are listed by the caller)."""
        if self.written:
            verb = "Created" if self.created else "Updated"
        else:
            verb = "Left unchanged"
        lines = [
            f"{verb} {self.path}: {self.documents_ingested} documents, {self.chunks_ingested} chunks "
            f"({self.chunks_added} new, {self.chunks_replaced} replaced, {self.chunks_unchanged} unchanged); "
            f"{self.chunks_embedded} embedded with {self.model_id}"
            + (f" at {self.embed_rate:.1f} chunks/s" if self.chunks_embedded else "")
            + f", {self.seconds:.1f} s.",
        ]
        if self.errors:
            skipped = len({e.line for e in self.errors})
            lines.append(f"{skipped} line{'s' * (skipped != 1)} skipped:")
        return "\n".join(lines)


def content_hash(rec: ChunkRecord) -> str:
    """The hash of everything a chunk stores (id, type, source, text, metadata)."""
    m = rec.metadata
    payload = [rec.chunk_id, rec.source_type, rec.source_id, rec.text, m.scholar_id, m.tradition, m.book_id,
               m.chapter_num, m.verse_start, m.verse_end, m.panel_type]
    return hashlib.sha256(json.dumps(payload, ensure_ascii=False).encode("utf-8")).hexdigest()


def embedded_hash(rec: ChunkRecord) -> str:
    """The hash of the text a chunk's vector is made from."""
    return hashlib.sha256(embedding_text(rec).encode("utf-8")).hexdigest()


def hashes_of(rec: ChunkRecord) -> Hashes:
    return Hashes(content_hash(rec), embedded_hash(rec))


def check_library(out: Path, embedder: Embedder) -> None:
    """An existing ``out`` must be a readable library of ``embedder``'s model (else ``AmicusError``:
    ``DB_INVALID`` …, then the proxy's ``OFFLINE``/``EMBED_FAILED`` as ``BackendError``, then
    ``DIMENSION_MISMATCH`` / ``MODEL_MISMATCH``), checked before anything is copied or embedded."""
    with open_library(out) as store:
        info = store.info
    model, dims = str(embedder.model_id), int(embedder.dims)
    if dims != info.dims:
        raise AmicusError(ErrorCode.DIMENSION_MISMATCH,
                          f"{out.name} holds {info.dims}-dimensional vectors of {info.model_id}; the embedder "
                          f"gives {dims}. Ingest with the library's model, or into a new library.")
    if model != info.model_id:
        raise AmicusError(ErrorCode.MODEL_MISMATCH,
                          f"{out.name} was built with {info.model_id}, but the embedder serves {model}. "
                          "Ingest with the library's model, or into a new library.")


def ingest(
    corpus: Corpus,
    out: str | Path,
    embedder: Embedder,
    *,
    source_name: str = "corpus",
    progress: Callable[[BuildProgress], None] | None = None,
    cancel: threading.Event | None = None,
    batch: int = DEFAULT_BATCH,
) -> IngestReport:
    """Add or replace ``corpus``'s chunks in the library ``out`` (see the module docstring).

    Raises ``AmicusError`` (the library, the model), ``BackendError`` (the embedder), ``OSError``
    (the disk), :class:`BuildCancelled`; in every case ``out`` is left as it was.
    """
    t0 = time.monotonic()
    out = Path(out)
    existed = out.exists()
    if existed:
        check_library(out, embedder)
    model_id = str(embedder.model_id)
    records = corpus.records
    report = IngestReport(out, model_id, 0, 0, 0, 0, corpus.errors, created=not existed)
    if not records:  # nothing accepted: a library is neither made nor touched
        return replace(report, created=False, seconds=time.monotonic() - t0)
    sweep_stale(out)
    if existed and _nothing_to_do(corpus, out):  # no copy, no write: the library stays byte-identical
        return replace(report, documents_ingested=len(corpus.documents), chunks_ingested=len(records),
                       chunks_unchanged=len(records), created=False, seconds=time.monotonic() - t0)
    embedder.load()  # the model's start-up (or the proxy's first answer) now: it fails before any copy is made
    new = NewLibrary(model_id, int(embedder.dims), corpus_name=f"Ingested corpus ({source_name})",
                     extra_meta={"builder": f"amicus-desktop ingest {__version__}"})
    stages: dict[str, float] = {}
    if cancel is not None and cancel.is_set():  # before the copy is made
        raise BuildCancelled("the ingest was cancelled")
    with LibraryUpdate(out, new) as lib:
        scholars = _scholars(corpus.documents, lib.scholar_rows())
        records = [_with_tradition(r, scholars) for r in records]
        stored = lib.stored([r.chunk_id for r in records])
        unchanged, keep, embed = _plan(records, stored)
        if keep:  # rewritten rows whose vectors stay as they were
            old = [stored[r.chunk_id] for r in keep]
            lib.put(keep, lib.vectors([s.rowid for s in old]), [hashes_of(r) for r in keep], [s.rowid for s in old])
        t_embed = time.monotonic()
        # a note is embedded with its passage's verses when the library holds them, as build-db embeds it
        verses = lib.verse_texts((m.book_id, m.chapter_num) for r in embed
                                 if (m := r.metadata).book_id and m.chapter_num is not None)
        for chunk, vectors in embed_batches(embedder, embed, batch=batch, progress=progress, cancel=cancel,
                                            verses=verses):
            replacing = [stored[r.chunk_id].rowid for r in chunk if r.chunk_id in stored]
            lib.put(chunk, vectors, [hashes_of(r) for r in chunk], replacing)
        stages["embed"] = time.monotonic() - t_embed
        if cancel is not None and cancel.is_set():
            raise BuildCancelled("the ingest was cancelled")
        own = lib.scholar_rows()
        lib.add_scholars(s for sid, s in sorted(scholars.items()) if own.get(sid) != s)
        lib.add_books({r.metadata.book_id for r in records if r.metadata.book_id})
        if progress:
            progress(BuildProgress("finishing", 0, 1))
        t_finish = time.monotonic()
    stages["finish"] = time.monotonic() - t_finish
    stages.update(lib.seconds)
    if progress:
        progress(BuildProgress("done", 1, 1, eta=0.0))
    replaced = sum(1 for r in [*keep, *embed] if r.chunk_id in stored)
    return replace(
        report,
        documents_ingested=len(corpus.documents), chunks_ingested=len(records), chunks_embedded=len(embed),
        chunks_unchanged=len(unchanged), chunks_added=len(keep) + len(embed) - replaced, chunks_replaced=replaced,
        written=lib.changed, created=lib.changed and not existed, seconds=time.monotonic() - t0,
        embed_seconds=stages["embed"], stage_seconds=stages,
    )


def _nothing_to_do(corpus: Corpus, out: Path) -> bool:
    """Whether every chunk and scholar of ``corpus`` is in ``out`` as it would be written (read only)."""
    stored, own = peek(out, [r.chunk_id for r in corpus.records])
    scholars = _scholars(corpus.documents, own)
    records = [_with_tradition(r, scholars) for r in corpus.records]
    _unchanged, keep, embed = _plan(records, stored)
    return not keep and not embed and all(own.get(sid) == s for sid, s in scholars.items())


def _plan(records: Sequence[ChunkRecord], stored: dict[str, StoredChunk]
          ) -> tuple[list[ChunkRecord], list[ChunkRecord], list[ChunkRecord]]:
    """Split ``records`` into unchanged, rewritten with their old vector, and to embed."""
    unchanged: list[ChunkRecord] = []
    keep: list[ChunkRecord] = []
    embed: list[ChunkRecord] = []
    for rec in records:
        old = stored.get(rec.chunk_id)
        if old is None:
            embed.append(rec)
            continue
        before = old.hashes or hashes_of(old.record)
        now = hashes_of(rec)
        if now.content == before.content:
            unchanged.append(rec)
        elif now.embedded == before.embedded:
            keep.append(rec)
        else:
            embed.append(rec)
    return unchanged, keep, embed


def _scholars(documents: Sequence[Document], own: dict[str, Scholar]) -> dict[str, Scholar]:
    """Who each scholar of the documents is: the name and tradition the first document naming them gives,
    over what the library's table (or the built-in one, or the id itself) said. A title is the scholar's
    work only when none is known: a document credited to Matthew Henry does not rename his commentary."""
    out: dict[str, Scholar] = {}
    for doc in documents:
        sid = doc.scholar_id
        if not sid:
            continue
        base = out.get(sid) or resolve(sid, own)
        out[sid] = Scholar(
            sid,
            doc.scholar_name or base.name,
            doc.tradition if doc.tradition is not None else base.tradition,
            base.work or doc.title,
        )
    return out


def _with_tradition(rec: ChunkRecord, scholars: dict[str, Scholar]) -> ChunkRecord:
    """A chunk whose document names no tradition carries its scholar's."""
    m = rec.metadata
    if m.tradition is not None or not m.scholar_id or m.scholar_id not in scholars:
        return rec
    tradition = scholars[m.scholar_id].tradition
    return rec if tradition is None else replace(rec, metadata=replace(m, tradition=tradition))


__all__ = ["IngestReport", "check_library", "content_hash", "embedded_hash", "ingest"]
