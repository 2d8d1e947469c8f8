"""What leaves the app: a result's clipboard text, the CSV rows of a result set, and safe file writing.

No Qt. The window asks for these and puts the outcome on the clipboard or in the status bar:

* :func:`clip_text` — a result's text followed by its citation line (Ctrl+C on a result);
* :func:`csv_rows` — one row per result and per rejected candidate, with every breakdown column;
* :func:`export_result` — the bundle as JSON (exactly :meth:`RetrievalResult.to_json`) or CSV, written
  atomically and never over a database, a folder, a pipe or a device (the rules, shared with
  ``--screenshot``, are :mod:`amicus_desktop.files`'s). A failure raises :class:`ExportError` with a
  sentence for the user; the old file, if any, is left as it was and no temporary file is left behind.
"""

from __future__ import annotations

import csv
import enum
import io
import json
import logging
from collections.abc import Sequence
from pathlib import Path

from ..core.names import Names
from ..core.results import Candidate, RejectedChunk, RetrievalResult, RetrievedChunk, ScoreBreakdown
from ..files import FileWriteError, check_target, write_atomic
from .titles import ChunkLike, citation

log = logging.getLogger("amicus.export")

#: A refused or failed export: the one error of every write the user asks for (amicus_desktop.files).
ExportError = FileWriteError


class ExportFormat(enum.StrEnum):
    """The file formats of *Export results*."""

    JSON = "json"
    CSV = "csv"

    @classmethod
    def for_path(cls, path: Path) -> ExportFormat | None:
        """The format a file name asks for by its suffix (``None``: neither)."""
        suffix = path.suffix.lower().lstrip(".")
        return next((f for f in cls if f.value == suffix), None)


# -- the clipboard -----------------------------------------------------------------------------------
def clip_text(chunk: ChunkLike, names: Names) -> str:
    """A result as it is copied: its text, a blank line, and ``— <citation>``."""
    return f"{chunk.text.strip()}\n\n— {citation(chunk, names)}"


# -- CSV -----------------------------------------------------------------------------------------------
#: The CSV columns, in order: where the row comes from, the chunk, its place, and every breakdown value.
CSV_COLUMNS: tuple[str, ...] = (
    "status", "rank", "reason", "chunk_id", "source_type", "source_id", "scholar_id", "tradition",
    "book_id", "chapter_num", "verse_start", "verse_end", "panel_type", "pinned", "score",
    "mode", "distance", "similarity", "lexical", "base", "chapter_boost", "scholar_boost",
    "tradition_boost", "reference_boost", "final", "nth_by_scholar", "origins", "citation", "text",
)

_BREAKDOWN_KEYS = ("mode", "distance", "similarity", "lexical", "base", "chapter_boost", "scholar_boost",
                   "tradition_boost", "reference_boost", "final")


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return repr(value)  # every digit: a curator compares exact scores
    return str(value)


def _chunk_cells(c: Candidate, names: Names) -> dict[str, str]:
    m = c.metadata
    return {
        "chunk_id": c.chunk_id, "source_type": c.source_type, "source_id": c.source_id,
        "scholar_id": _cell(m.scholar_id), "tradition": _cell(m.tradition), "book_id": _cell(m.book_id),
        "chapter_num": _cell(m.chapter_num), "verse_start": _cell(m.verse_start), "verse_end": _cell(m.verse_end),
        "panel_type": _cell(m.panel_type), "origins": ";".join(sorted(o.value for o in c.origins)),
        "citation": citation(c, names), "text": c.text,
    }


def _breakdown_cells(b: ScoreBreakdown | None) -> dict[str, str]:
    if b is None:
        return {k: "" for k in _BREAKDOWN_KEYS}
    values = b.to_json()
    return {k: _cell(values[k]) for k in _BREAKDOWN_KEYS}


def result_row(r: RetrievedChunk, names: Names) -> dict[str, str]:
    """The CSV row of a result (``status`` ``result``, or ``pinned`` for a pinned one)."""
    row = {k: "" for k in CSV_COLUMNS}
    row.update(_chunk_cells(r.candidate, names))
    row.update(_breakdown_cells(r.breakdown))
    row.update(status="pinned" if r.pinned else "result", rank=str(r.rank), pinned=_cell(r.pinned),
               score=_cell(r.score))
    return row


def rejected_row(r: RejectedChunk, names: Names) -> dict[str, str]:
    """The CSV row of a rejected candidate (``status`` ``rejected``; no breakdown below the threshold)."""
    row = {k: "" for k in CSV_COLUMNS}
    row.update(_chunk_cells(r.candidate, names))
    row.update(_breakdown_cells(r.breakdown))
    row.update(status="rejected", reason=r.reason.value, pinned="false", score=_cell(r.score),
               similarity=_cell(r.similarity), nth_by_scholar=_cell(r.nth_by_scholar))
    return row


def csv_rows(result: RetrievalResult, names: Names) -> list[dict[str, str]]:
    """Every result (in rank order), then every rejected candidate (in the engine's order)."""
    return [*(result_row(r, names) for r in result.results), *(rejected_row(r, names) for r in result.rejected)]


def csv_text(rows: Sequence[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return out.getvalue()


def json_text(result: RetrievalResult) -> str:
    """The bundle exactly as the CLI's ``query --json`` prints it (indented for reading)."""
    return json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n"


# -- writing (the rules: amicus_desktop.files) ---------------------------------------------------------
def export_result(result: RetrievalResult, path: Path, fmt: ExportFormat, names: Names,
                  protected: Sequence[Path] = ()) -> int:
    """Write ``result`` to ``path`` as ``fmt`` (checked first, written atomically); returns the rows
    written (results plus rejected candidates). Raises :class:`ExportError`."""
    check_target(path, protected, what="results")
    if fmt is ExportFormat.JSON:
        data = json_text(result)
    else:
        data = csv_text(csv_rows(result, names))
    write_atomic(path, data)
    log.info("results exported", extra={"format": fmt.value, "rows": len(result.results) + len(result.rejected)})
    return len(result.results) + len(result.rejected)
