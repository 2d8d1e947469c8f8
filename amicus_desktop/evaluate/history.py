"""Every evaluation run of a golden set, kept, so a curator sees whether the ranking got better over weeks.

One plain JSON file per golden set in the user's data folder (``history/<set>.json``), rewritten
atomically with each run added; the newest :data:`MAX_RUNS` are kept::

    {"golden": "demo-romans-john", "runs": [
      {"at": "2026-11-27T10:02:11Z", "source": "workbench", "questions": 141,
       "config": "hybrid, convex α 0.7, chapter ×1.5, …", "settings": {"mode": "hybrid", …},
       "library": "/home/ana/.local/share/amicus-desktop/scripture.db", "chunks": 4645,
       "model": "all-MiniLM-L6-v2", "metrics": {"ndcg@10": 0.643, "mrr@10": 0.71, "recall@10": 0.37,
       "pool_recall": 0.81, "judged_share": 0.99}}]}

A run holds no question text (only how many questions there were), so the file says nothing a golden set
does not. A file that cannot be read is started again, never a reason for an evaluation to fail.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import read_small
from .golden import write_json
from .judges import now
from .run import EvalConfig, EvalReport

MAX_RUNS = 2000
MAX_FILE_BYTES = 8 << 20


@dataclass(frozen=True)
class Run:
    """One evaluation: when, of what (configuration, library, model) and its mean scores."""

    at: str
    source: str
    questions: int
    config: str
    library: str
    model: str
    metrics: dict[str, float]
    chunks: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "source": self.source, "questions": self.questions, "config": self.config,
                "settings": self.settings, "library": self.library, "chunks": self.chunks, "model": self.model,
                "metrics": self.metrics}

    @classmethod
    def of(cls, report: EvalReport, *, library: str, chunks: int | None = None, source: str = "eval",
           at: str | None = None) -> Run:
        m = dict(report.mean)
        m["pool_recall"] = report.pool_recall
        m["judged_share"] = report.judged_share
        return cls(at or now(), source, len(report.queries), report.config.describe(), library, report.model,
                   {k: round(v, 6) for k, v in m.items()}, chunks, settings(report.config))


def settings(config: EvalConfig) -> dict[str, Any]:
    """A configuration as plain JSON (what the run was asked with)."""
    w, p = config.weights, config.policy
    return {"mode": config.mode.value, "fusion": config.fusion.method.value, "alpha": config.fusion.alpha,
            "candidates": config.candidates, "chapter_boost": w.chapter, "scholar_boost": w.scholar,
            "tradition_boost": w.tradition, "reference_boost": w.reference, "scholar_cap": w.per_scholar_cap,
            "spread": p.spread, "passage_first": p.passage_first, "source_priors": p.source_priors, "focus": p.focus}


def file_for(folder: Path, golden_name: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", golden_name.strip()).strip("-") or "golden-set"
    return folder / f"{slug}.json"


def _run(data: Any) -> Run | None:
    if not isinstance(data, dict):
        return None
    try:
        metrics = {str(k): float(v) for k, v in data["metrics"].items()}
        chunks = data.get("chunks")
        return Run(str(data["at"]), str(data.get("source", "")), int(data["questions"]), str(data["config"]),
                   str(data.get("library", "")), str(data.get("model", "")), metrics,
                   int(chunks) if isinstance(chunks, int) else None,
                   data["settings"] if isinstance(data.get("settings"), dict) else {})
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def load(folder: Path, golden_name: str) -> list[Run]:
    """The runs of ``golden_name``, oldest first (unreadable runs, or an unreadable file, are left out)."""
    path = file_for(folder, golden_name)
    try:
        data = json.loads(read_small(path, MAX_FILE_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return []
    raw = data.get("runs") if isinstance(data, dict) else None
    runs = [r for r in map(_run, raw if isinstance(raw, list) else []) if r is not None]
    return sorted(runs, key=lambda r: r.at)


def record(folder: Path, golden_name: str, run: Run) -> Path:
    """Add ``run`` to the set's history (atomically; the oldest go past :data:`MAX_RUNS`). ``OSError`` when
    the folder cannot be written."""
    runs = [*load(folder, golden_name), run][-MAX_RUNS:]
    path = file_for(folder, golden_name)
    write_json({"golden": golden_name, "runs": [r.to_json() for r in runs]}, path)
    return path
