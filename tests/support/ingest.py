"""Corpus files for the ingest tests, and a fingerprint of a folder to prove that nothing in it changed."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from amicus_desktop.embedding.base import Vectors
from tests.support.embedders import StandInEmbedder


def chunk(chunk_id: str, text: str, **place: Any) -> dict[str, Any]:
    return {"chunk_id": chunk_id, "text": text, **place}


def document(source_id: str, chunks: Sequence[dict[str, Any]], *, source_type: str = "section_panel",
             **fields: Any) -> dict[str, Any]:
    return {"source_id": source_id, "source_type": source_type, **fields, "chunks": list(chunks)}


def notes(n: int, *, prefix: str = "n", scholar: str = "jane-doe", book: str = "romans") -> dict[str, Any]:
    """One document of ``n`` chunks on ``book`` chapter 1, verse i each (counting again from 1 after verse 20:
    no verse past the chapter's end)."""
    return document(f"{prefix}-doc", [chunk(f"{prefix}:{i}", f"Note {i} on grace and faith, by {prefix}.",
                                            book_id=book, chapter_num=1, verse_start=i % 20 + 1,
                                            verse_end=i % 20 + 1)
                                      for i in range(n)],
                    scholar_id=scholar, scholar_name="Jane Doe", tradition="anglican", title="Notes")


def write_jsonl(path: Path, lines: Iterable[dict[str, Any] | str]) -> Path:
    path.write_text("".join((x if isinstance(x, str) else json.dumps(x)) + "\n" for x in lines), encoding="utf-8")
    return path


def folder_state(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` (hidden ones too) by name, with the SHA-256 of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir()) if p.is_file()}


class RecordingEmbedder(StandInEmbedder):
    """The stand-in embedder, keeping every text it was asked to embed."""

    def __init__(self, model_id: str = StandInEmbedder.model_id) -> None:
        super().__init__()
        self.model_id = model_id
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> Vectors:
        self.texts.extend(texts)
        return np.asarray(super().embed(texts), dtype=np.float32)
