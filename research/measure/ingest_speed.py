"""How fast ``amicus-desktop ingest`` is, against the embedding model alone (docs/PERFORMANCE.md, "Ingest").

    .venv/bin/python research/measure/ingest_speed.py WORKDIR [--chunks 10000] \\
        [--books matthew,mark,luke,john,acts,romans]

1. Writes an ingest corpus (``WORKDIR/corpus.jsonl``) of the first ``--chunks`` chunks ``build-db`` makes for
   ``--books`` (real study text: commentary, lexicon entries, word studies, chains), one document per source.
2. Embeds the same texts with the local model alone, in batches of 64 (``embedding_text``, no database):
   the floor ``ingest`` can reach.
3. Runs ``amicus-desktop ingest`` into a new library (``--backend local``), then again unchanged, then with one
   chunk's text changed, each timed as a separate process (model start-up included).

Prints one JSON object. A measuring script, not part of the app; needs the SWORD modules ``build-db`` reads.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

from amicus_desktop.core.scholars import resolve
from amicus_desktop.corpus.build import collect_chunks, embedding_text
from amicus_desktop.corpus.library import Library
from amicus_desktop.corpus.sources import Scope
from amicus_desktop.embedding import get_backend
from amicus_desktop.embedding.base import embed_documents


def write_corpus(path: Path, books: list[str], n: int) -> int:
    _bible, records = collect_chunks(Scope.of(books), Library())
    records = records[:n]
    documents: dict[tuple[str, str, str | None], list[dict[str, object]]] = defaultdict(list)
    for r in records:
        m = r.metadata
        chunk: dict[str, object] = {"chunk_id": r.chunk_id, "text": r.text}
        for key in ("book_id", "chapter_num", "verse_start", "verse_end", "panel_type"):
            if getattr(m, key) is not None:
                chunk[key] = getattr(m, key)
        documents[(r.source_type, r.source_id, m.scholar_id)].append(chunk)
    with path.open("w", encoding="utf-8") as fh:
        for (source_type, source_id, scholar_id), chunks in documents.items():
            doc: dict[str, object] = {"source_id": source_id, "source_type": source_type}
            if scholar_id:
                s = resolve(scholar_id)
                doc.update(scholar_id=scholar_id, scholar_name=s.name)
                if s.tradition:
                    doc["tradition"] = s.tradition
            doc["chunks"] = chunks
            fh.write(json.dumps(doc, ensure_ascii=False) + "\n")
    return len(records)


def embed_alone(path: Path) -> dict[str, float]:
    from amicus_desktop.corpus.documents import read_corpus

    records = read_corpus(path).records
    texts = [embedding_text(r) for r in records]
    backend = get_backend("local")
    backend.load()
    t0, c0 = time.perf_counter(), time.process_time()
    for start in range(0, len(texts), 64):
        embed_documents(backend, texts[start:start + 64])
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {"chunks": len(texts), "wall_s": round(wall, 1), "cpu_s": round(cpu, 1),
            "chunks_per_s": round(len(texts) / wall, 1)}


def timed_ingest(corpus: Path, db: Path) -> dict[str, object]:
    t0 = time.perf_counter()
    before = os.times()
    proc = subprocess.run([sys.executable, "-m", "amicus_desktop", "ingest", str(corpus), "--db", str(db),
                           "--backend", "local", "--json"], capture_output=True, text=True, check=False)
    after = os.times()
    report = json.loads(proc.stdout)
    return {"exit": proc.returncode, "wall_s": round(time.perf_counter() - t0, 1),
            "cpu_s": round((after.children_user - before.children_user)
                           + (after.children_system - before.children_system), 1),
            **{k: report.get(k) for k in ("chunks_ingested", "chunks_embedded", "chunks_unchanged", "written",
                                          "seconds")}}


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("workdir", type=Path)
    p.add_argument("--chunks", type=int, default=10_000)
    p.add_argument("--books", default="matthew,mark,luke,john,acts,romans")
    args = p.parse_args()
    args.workdir.mkdir(parents=True, exist_ok=True)
    corpus, db = args.workdir / "corpus.jsonl", args.workdir / "ingested.db"
    db.unlink(missing_ok=True)
    n = write_corpus(corpus, args.books.split(","), args.chunks)
    out: dict[str, object] = {"chunks": n, "corpus_bytes": corpus.stat().st_size, "load_before": os.getloadavg()}
    out["embedding_alone"] = embed_alone(corpus)
    out["ingest_new"] = timed_ingest(corpus, db)
    out["library_bytes"] = db.stat().st_size
    out["ingest_unchanged"] = timed_ingest(corpus, db)
    lines = corpus.read_text(encoding="utf-8").splitlines()
    doc = json.loads(lines[0])
    doc["chunks"][0]["text"] += " (edited)"
    lines[0] = json.dumps(doc, ensure_ascii=False)
    corpus.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out["ingest_one_changed"] = timed_ingest(corpus, db)
    out["load_after"] = os.getloadavg()
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
