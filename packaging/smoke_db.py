"""Write a tiny scripture.db for the bundle's smoke test, embedded by the bundle's own proxy.

    python packaging/smoke_db.py OUT.db PROXY_URL

Runs in the build environment (it needs amicus_desktop's writer and httpx), not in the bundle: the
point is that the bundle's ``doctor``, ``query`` and ``--screenshot`` then open a real sqlite-vec
database whose vectors and model id came from the bundle's proxy, so they all agree.
"""

from __future__ import annotations

import sys

import httpx
import numpy as np

from amicus_desktop.core.results import ChunkMetadata
from amicus_desktop.store.writer import ChunkRecord, ScriptureWriter

VERSES = [
    ("romans", 3, 23, "For all have sinned, and fall short of the glory of God;"),
    ("romans", 3, 24, "being justified freely by his grace through the redemption that is in Christ Jesus;"),
    ("romans", 3, 28, "We maintain therefore that a man is justified by faith apart from the works of the law."),
    ("john", 3, 16, "For God so loved the world, that he gave his one and only Son, that whoever believes "
                    "in him should not perish, but have eternal life."),
]

CHUNKS = [
    ("smoke-rom-3-1", "section_panel", "Justification is God's free gift, received by faith and not earned by works.",
     ChunkMetadata(scholar_id="smoke", tradition="test", book_id="romans", chapter_num=3, verse_start=21, verse_end=28)),
    ("smoke-rom-3-2", "section_panel", "All people, Jew and Gentile alike, have sinned and need redemption.",
     ChunkMetadata(scholar_id="smoke", tradition="test", book_id="romans", chapter_num=3, verse_start=9, verse_end=23)),
    ("smoke-john-3-1", "section_panel", "God's love for the world is shown in the giving of his Son.",
     ChunkMetadata(scholar_id="other", tradition="test", book_id="john", chapter_num=3, verse_start=16, verse_end=17)),
    ("smoke-faq-1", "meta_faq", "Amicus Desktop ranks passages by similarity to your question, then boosts the current chapter.",
     ChunkMetadata()),
]


def main(out: str, proxy_url: str) -> int:
    with httpx.Client(base_url=proxy_url, timeout=60) as client:
        health = client.get("/health").raise_for_status().json()
        body = client.post("/ai/embed", json={"input": [text for _, _, text, _ in CHUNKS]}).raise_for_status().json()
    vectors = np.array([item["embedding"] for item in sorted(body["data"], key=lambda d: d["index"])], dtype=np.float32)
    records = [ChunkRecord(cid, stype, cid, text, meta) for cid, stype, text, meta in CHUNKS]
    with ScriptureWriter(out, model_id=health["model"], dims=int(health["dims"]), corpus_name="smoke test") as w:
        w.add_books([("john", "John", 43, 21), ("romans", "Romans", 45, 16)])
        w.add_verses(VERSES)
        w.add_chunks(records, vectors)
    print(f"wrote {out}: {len(records)} chunks, model {health['model']}, {health['dims']} dims")
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
