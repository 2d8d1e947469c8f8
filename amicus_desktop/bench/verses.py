"""Verse search beside chunk search on a real database (``amicus-desktop bench --real-db``): the same app,
the same embed proxy, the same questions.

Run as a child of the benchmark (``python -m amicus_desktop.bench.verses --path DB --queries N``, one JSON
object on stdout) so its peak RSS is its own. It starts the project's real proxy, then for each question
asks, through one :class:`~amicus_desktop.retrieval.Retriever` as the app does:

* chunk search, the app's default (hybrid with the boosts, 10 results);
* verse search, hybrid (the default) and keyword (what works offline), 10 results.

Every text is distinct (a suffix per search), so every search that embeds misses the vector cache.
Timings are the engines' own (``embed``, ``search``, re-rank/rank, ``total``), with the parts of verse
search's ``search`` (the verse searches, the commentary notes, the lexicon, scoring the candidates).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.query import RetrievalContext, SearchMode
from ..evaluate.relevance import proxy_for
from ..retrieval import Retriever
from ..verses import VerseQuery, VerseSearch
from . import questions, synth
from .measuring import stats

WARMUP = 3
#: verse questions in the forms readers type (a topic, a question, a remembered line in their own words)
VERSE_QUESTIONS: tuple[str, ...] = (
    "God so loved the world", "the Lord is my shepherd", "love is patient and kind", "hope", "adoption",
    "forgiveness", "How can I be sure I am saved?", "nothing can separate us from God's love",
    "be still and know that I am God", "the shortest verse in the Bible", "do not worry about tomorrow",
    "Is God fair in choosing some?", "faith without works is dead", "the fruit of the Spirit",
    "In the beginning God created the heavens and the earth", "trust in the Lord with all your heart",
)


async def _measure(path: Path, url: str, texts: list[str]) -> dict[str, Any]:
    retriever = Retriever(path, url)
    engine = VerseSearch(retriever)
    names = ("chunks", "verses", "verses_keyword")
    samples: dict[str, dict[str, list[float]]] = {n: {} for n in names}
    try:
        for i, text in enumerate(texts):
            chunk = await retriever.retrieve(RetrievalContext(query=f"{text} (c{i})", mode=SearchMode.HYBRID))
            t = chunk.timings
            found = {"chunks": {"embed": t.embed, "search": t.search, "rank": t.rerank, "total": t.total}}
            for name, mode in (("verses", SearchMode.HYBRID), ("verses_keyword", SearchMode.KEYWORD)):
                result = await engine.search(VerseQuery(f"{text} (v{i})", mode))
                found[name] = {**result.timing_ms, **{f"search.{k}": v for k, v in result.trace.search_ms.items()}}
                found[name]["candidates"] = float(result.trace.candidates)
            if i < WARMUP:
                continue
            for name, values in found.items():
                for key, value in values.items():
                    samples[name].setdefault(key, []).append(value)
    finally:
        await retriever.aclose()
    return {name: {key: stats(values) for key, values in by_key.items()} for name, by_key in samples.items()}


def measure(path: Path, queries: int) -> dict[str, Any]:
    texts = list(VERSE_QUESTIONS + questions.QUESTIONS)
    texts = (texts * (1 + (queries + WARMUP) // len(texts)))[: queries + WARMUP]
    with proxy_for("local") as url:
        out = asyncio.run(_measure(path, url, texts))
    return {"queries": len(texts) - WARMUP, "warmup": WARMUP, "peak_rss_mb": synth.peak_rss_mb(), **out}


def table(report: dict[str, Any]) -> str:
    """Chunk search and verse search side by side (p50 / p95, ms)."""
    def cell(name: str, key: str) -> str:
        s = report.get(name, {}).get(key)
        return f"{s['p50']:.1f} / {s['p95']:.1f}" if s else "—"

    header = ("search", "embed", "search (<50)", "rank", "total (<250 / <500)", "verse search's parts")
    rows = []
    for name, label in (("chunks", "chunks, hybrid (app default)"), ("verses", "verses, hybrid (default)"),
                        ("verses_keyword", "verses, keyword (offline)")):
        parts = ", ".join(f"{k.split('.', 1)[1]} {report[name][k]['p50']:.1f}"
                          for k in sorted(report.get(name, {})) if k.startswith("search."))
        rows.append((label, cell(name, "embed"), cell(name, "search"), cell(name, "rank"), cell(name, "total"),
                     parts or "—"))
    widths = [max(len(str(r[i])) for r in (header, *rows)) for i in range(len(header))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)) for r in (header, *rows)]
    lines.insert(1, "  ".join("-" * w for w in widths))
    lines.append(f"{report['queries']} questions each after {report['warmup']} warm-up, every text distinct; "
                 f"verse search scored {report['verses']['candidates']['p50']:.0f} candidate verses (p50); "
                 f"peak RSS {report['peak_rss_mb']:.0f} MB")
    return "\n".join(lines)


class _RandomVectors:
    """Unit vectors seeded by each text: a full-scale database's timing without an hour of embedding."""

    def __init__(self, model_id: str, dims: int) -> None:
        self.model_id, self.dims = model_id, dims

    def load(self) -> None:
        """Nothing to load."""

    def close(self) -> None:
        """Nothing to release."""

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        rows = []
        for text in texts:
            seed = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:8], "little")
            v = np.random.default_rng(seed).standard_normal(self.dims)
            rows.append(v / np.linalg.norm(v))
        return np.asarray(rows, dtype=np.float32).reshape(len(texts), self.dims)


def build_full_scale(path: Path, model_id: str, dims: int = 384) -> dict[str, Any]:
    """The whole Bible's chunks, verses, both translations and Strong's tags, read from the installed
    sources as ``build-db --all`` reads them, with **random** vectors under ``model_id``: the sizes and
    text verse search meets on the whole Bible (31k verses, 56k chunks), for timing only — the nearest
    verses and notes are not meaningful."""
    from ..corpus.build import build_database

    t0 = time.perf_counter()
    report = build_database(path, None, _RandomVectors(model_id, dims), batch=2048)
    return {"build_s": time.perf_counter() - t0, "chunks": report.chunk_count, "verses": report.verses}


def has_verse_vectors(path: Path) -> bool:
    """Whether ``path`` can be verse-searched by meaning (it holds the builder's verse vectors)."""
    from ..store.scripture import ScriptureStore
    from ..store.verses import VerseIndex

    with ScriptureStore(path) as store:
        return VerseIndex.for_store(store).has_vectors


def run_child(path: Path, queries: int, env: dict[str, str]) -> dict[str, Any]:
    """:func:`measure` in a child process (its own peak RSS), as the benchmark runs its other steps."""
    cmd = [sys.executable, "-m", "amicus_desktop.bench.verses", "--path", str(path), "--queries", str(queries)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=None, env=env, text=True, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"the verse benchmark failed (exit {proc.returncode}): {proc.stdout[-2000:] or 'no output'}")
    report: dict[str, Any] = json.loads(lines[-1])
    return report


if __name__ == "__main__":  # its command line is read in cli/ (cli/bench_children.py)
    from amicus_desktop.cli.bench_children import verses_main

    sys.exit(verses_main())
