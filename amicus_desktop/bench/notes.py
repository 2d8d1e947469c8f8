"""The notes row of the benchmark: what a workspace of N notes adds to a question (``bench --notes N``).

The budget (issue #24): **a workspace of 10,000 notes adds at most 5 ms p95 to a question**, and a
note just written is found by the next question at once.

Run in a child process (BLAS on one thread, as every benchmark child): a notes store with N notes is
built once into the output folder — each note one to three sentences of the library's own text (so
word frequencies are those of real study prose, common words included), 60% of them on a passage the
library covers, every one with a unit vector of the library's model (clustered as :mod:`.synth` draws
them) — and the real questions of :mod:`.questions` are asked through :class:`Retriever` twice each, with
the workspace and without it, alternating which goes first, in every mode. The question's vector comes
from a fixed in-process embedder, so the figures are the engine's alone (the proxy's cost is the
same with or without notes). Reported per mode: the question's time without embedding (``total -
embed``) with and without the workspace, their paired difference, and the notes' own stage; then the
first question of a process (the workspace read whole), saving a note, and the next question after it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.query import RetrievalContext, SearchMode
from ..core.results import ModelInfo
from ..embedding.client import EmbedClient, Embedding
from ..notes import Note, NotesError, NotesStore, parse_ref
from ..retrieval import Retriever
from ..store.scripture import ScriptureStore
from . import questions, synth

WORKSPACE = "bench"
#: The budget a workspace of 10,000 notes must keep to (milliseconds added to a question, p95).
ADDED_P95_BUDGET = 5.0
ROUNDS = 3
CHANGES = 20


def stats(samples: list[float]) -> dict[str, float]:
    a = np.asarray(samples, dtype=np.float64)
    if a.size == 0:
        return {}
    p50, p95 = np.percentile(a, [50, 95])
    return {"p50": float(p50), "p95": float(p95), "mean": float(a.mean()), "max": float(a.max()), "n": int(a.size)}


class FixedEmbedder(EmbedClient):
    """Question vectors without HTTP: a unit vector of the library's model seeded by the text."""

    def __init__(self, model: ModelInfo, seed: int) -> None:
        super().__init__("http://127.0.0.1:9")
        self._model, self._seed = model, seed

    async def embed(self, text: str) -> Embedding:
        vector = synth.query_vector(text, self._model.dims, self._seed)
        return Embedding(np.asarray(vector, dtype=np.float32), self._model)

    async def embed_batch(self, texts: Sequence[str]) -> tuple[ModelInfo, np.ndarray]:
        return self._model, np.stack([synth.query_vector(t, self._model.dims, self._seed) for t in texts])


def _sentences(db: Path, limit: int = 6000) -> tuple[list[str], list[str | None]]:
    """Sentences of the library's own text, and passages it covers (``"Romans 9:1-5"``)."""
    store = ScriptureStore(db)
    try:
        rows = store.fetch(range(1, min(store.info.chunk_count, limit) + 1))
    finally:
        store.close()
    sentences: list[str] = []
    passages: list[str | None] = []
    for _chunk_id, _type, _source, body, m in rows.values():
        sentences += [s for s in re.split(r"(?<=[.!?])\s+", body) if 30 <= len(s) <= 400]
        if m.book_id and m.chapter_num:
            verses = f":{m.verse_start}" if m.verse_start else ""
            passages.append(f"{m.book_id} {m.chapter_num}{verses}")
    return sentences or [w + " and grace" for w in synth.WORDS], passages or [None]


def build_store(path: Path, db: Path, n: int, seed: int) -> dict[str, Any]:
    """A notes store at ``path`` whose workspace :data:`WORKSPACE` holds ``n`` notes (see the module docstring)."""
    t0 = time.perf_counter()
    store = ScriptureStore(db)
    model = ModelInfo(store.info.model_id, store.info.dims)
    store.close()
    sentences, passages = _sentences(db)
    rng = np.random.default_rng(seed)
    notes = []
    for _ in range(n):
        text = " ".join(sentences[j] for j in rng.choice(len(sentences), size=int(rng.integers(1, 4))))
        where = passages[int(rng.integers(len(passages)))] if rng.random() < 0.6 else None
        try:
            ref = parse_ref(where) if where else None
        except NotesError:  # a passage the parser cannot read back: the note is on none
            ref = None
        notes.append(Note("", WORKSPACE, text, ref, "", ""))
    vectors = synth.vector_matrix(n, model.dims, seed + 17)
    with NotesStore(path) as notes_store:
        ws = notes_store.workspace(WORKSPACE)
        saved = ws.restore_all(notes)
        for start in range(0, n, 2000):
            ws.store_vectors(model.id, list(zip(saved[start:start + 2000], vectors[start:start + 2000], strict=True)))
    return {"notes": n, "build_s": time.perf_counter() - t0, "mean_chars": float(np.mean([len(x.text) for x in notes]))}


async def measure(db: Path, notes_path: Path, seed: int, queries: int) -> dict[str, Any]:
    store = ScriptureStore(db)
    model = ModelInfo(store.info.model_id, store.info.dims)
    store.close()
    texts = list(questions.QUESTIONS[:queries])
    retriever = Retriever(db, "http://127.0.0.1:9", embed_client=FixedEmbedder(model, seed), notes_path=notes_path)
    out: dict[str, Any] = {"model": model.id, "dims": model.dims, "questions": len(texts)}
    try:
        t0 = time.perf_counter()
        first = await retriever.retrieve(RetrievalContext("warm up the library", workspace=WORKSPACE))
        out["first_question_ms"] = (time.perf_counter() - t0) * 1000
        out["first_notes_stage_ms"] = first.timings.notes
        await retriever.retrieve(RetrievalContext("warm up the library"))
        for mode in SearchMode:
            without: list[float] = []
            within: list[float] = []
            added: list[float] = []
            stage: list[float] = []
            for _ in range(ROUNDS):
                for i, text in enumerate(texts):
                    plain = RetrievalContext(text, mode=mode)
                    scoped = dataclasses.replace(plain, workspace=WORKSPACE)
                    pair = [plain, scoped] if i % 2 else [scoped, plain]
                    took: dict[bool, float] = {}
                    for ctx in pair:
                        result = await retriever.retrieve(ctx)
                        took[ctx.workspace is not None] = result.timings.total - result.timings.embed
                        if ctx.workspace is not None:
                            stage.append(result.timings.notes or 0.0)
                    without.append(took[False])
                    within.append(took[True])
                    added.append(took[True] - took[False])
            out[mode.value] = {"without": stats(without), "with": stats(within), "added": stats(added),
                               "notes_stage": stats(stage)}
        saves: list[float] = []
        next_question: list[float] = []
        found = 0
        with NotesStore(notes_path) as notes_store:
            ws = notes_store.workspace(WORKSPACE)
            for i in range(CHANGES):
                word = f"zq{hashlib.sha256(f'{seed}-{i}'.encode()).hexdigest()[:10]}"
                t0 = time.perf_counter()
                ws.add(f"A new thought on {word} and grace")
                saves.append((time.perf_counter() - t0) * 1000)
                result = await retriever.retrieve(RetrievalContext(word, workspace=WORKSPACE, mode=SearchMode.KEYWORD))
                next_question.append(result.timings.total - result.timings.embed)
                found += bool(result.results) and result.results[0].candidate.text.endswith(f"{word} and grace")
        out["after_a_new_note"] = {"save": stats(saves), "next_question": stats(next_question),
                                   "found_by_next_question": found, "notes_added": CHANGES}
    finally:
        await retriever.aclose()
    return out


if __name__ == "__main__":  # its command line is read in cli/ (cli/bench_children.py)
    from amicus_desktop.cli.bench_children import notes_main

    sys.exit(notes_main())


def run_notes_bench(db: Path, notes: int, out_dir: Path, *, queries: int, seed: int = 0) -> dict[str, Any]:
    """Run :func:`main` in a child process (BLAS on one thread) and return its report."""
    import subprocess

    from .runner import child_env

    cmd = [sys.executable, "-m", "amicus_desktop.bench.notes", "--db", str(db), "--notes", str(notes),
           "--out-dir", str(out_dir), "--queries", str(queries), "--seed", str(seed)]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=None, env=child_env(), text=True, check=False)
    lines = [ln for ln in proc.stdout.splitlines() if ln.strip()]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"the notes benchmark failed (exit {proc.returncode}): {proc.stdout[-2000:]}")
    report: dict[str, Any] = json.loads(lines[-1])
    return report


def _pp(s: dict[str, float]) -> str:
    return f"{s['p50']:.2f} / {s['p95']:.2f}" if s else "–"


def notes_table(report: dict[str, Any]) -> str:
    """The notes row as Markdown: per mode, a question without and with the workspace, and the difference."""
    n = report["notes"]
    lines = [f"Notes: a workspace of {n:,} notes ({report['dims']}-d, {report['questions']} questions × {ROUNDS}, "
             "engine only; p50 / p95 ms)", "",
             "| mode | without the workspace | with it | p95 added | each question's own difference | "
             "the notes' stage |",
             "|---|---|---|---|---|---|"]
    for mode in SearchMode:
        m = report[mode.value]
        lines.append(f"| {mode.value} | {_pp(m['without'])} | {_pp(m['with'])} | "
                     f"**{m['with']['p95'] - m['without']['p95']:.2f}** | {_pp(m['added'])} | "
                     f"{_pp(m['notes_stage'])} |")
    worst = max(report[mode.value]["with"]["p95"] - report[mode.value]["without"]["p95"] for mode in SearchMode)
    verdict = "within" if worst <= report["budget_added_p95_ms"] else "OVER"
    after = report["after_a_new_note"]
    lines += ["", f"p95 added, worst mode: {worst:.2f} ms — {verdict} the {report['budget_added_p95_ms']:g} ms budget.",
              f"First question of a process (the workspace read whole): {report['first_question_ms']:.0f} ms.",
              f"Saving a note: {_pp(after['save'])} ms; the next question: {_pp(after['next_question'])} ms, "
              f"which found it {after['found_by_next_question']} times of {after['notes_added']}."]
    return "\n".join(lines)
