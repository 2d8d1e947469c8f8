"""present/export.py: clipboard text, CSV rows, the JSON bundle: Bundle, and atomic, careful writing."""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from pathlib import Path

import pytest

from amicus_desktop.core.names import Names
from amicus_desktop.core.results import RetrievalResult
from amicus_desktop.present.export import (
    CSV_COLUMNS,
    ExportError,
    ExportFormat,
    clip_text,
    csv_rows,
    export_result,
    write_atomic,
)
from amicus_desktop.present.titles import citation
from tests.bundle.results import keyword_result

Bundle = tuple[RetrievalResult, Names]


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Bundle:
    return keyword_result(tmp_path_factory.mktemp("export"))


def test_clip_text_is_the_text_then_the_citation_line(bundle) -> None:
    result, names = bundle
    top = result.results[0]
    text = clip_text(top.candidate, names)
    body, cite = text.rsplit("\n\n— ", 1)
    assert body == top.candidate.text.strip()
    assert cite == citation(top.candidate, names)
    assert cite.startswith("Section note:") and cite.endswith("Romans 5:1-2")


def test_csv_has_a_row_per_result_and_per_rejection_with_every_breakdown_column(bundle: Bundle, tmp_path: Path) -> None:
    result, names = bundle
    assert result.results and result.rejected  # k=3 over a dozen chunks: both kinds of row
    out = tmp_path / "r.csv"
    rows = export_result(result, out, ExportFormat.CSV, names)
    read = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert rows == len(read) == len(result.results) + len(result.rejected)
    assert tuple(read[0]) == CSV_COLUMNS
    for row, r in zip(read, result.results, strict=False):
        assert row["status"] == "result" and int(row["rank"]) == r.rank and row["chunk_id"] == r.chunk_id
        assert float(row["final"]) == r.breakdown.final and float(row["score"]) == r.score  # every digit kept
        assert float(row["lexical"]) == r.breakdown.lexical and row["mode"] == "keyword"
        assert row["similarity"] == "" and row["distance"] == ""  # keyword mode makes no vector
        assert row["text"] == r.candidate.text
    rejected = read[len(result.results):]
    assert [row["chunk_id"] for row in rejected] == [r.chunk_id for r in result.rejected]
    assert {row["reason"] for row in rejected} == {r.reason.value for r in result.rejected}
    assert all(row["status"] == "rejected" and row["rank"] == "" for row in rejected)
    assert csv_rows(result, names)[0]["citation"] == citation(result.results[0].candidate, names)


def test_json_is_exactly_the_bundle(bundle: Bundle, tmp_path: Path) -> None:
    result, names = bundle
    out = tmp_path / "r.json"
    export_result(result, out, ExportFormat.JSON, names)
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data == json.loads(json.dumps(result.to_json()))
    assert {"query_trace", "warnings", "diagnostics", "results", "rejected", "timing_ms"} <= set(data)


@pytest.mark.parametrize("name", ["scripture.db", "other.DB", "x.sqlite", "scripture.db-wal"])
def test_never_writes_over_a_database(bundle: Bundle, tmp_path: Path, name: str) -> None:
    result, names = bundle
    target = tmp_path / name
    target.write_bytes(b"SQLite format 3\x00 keep me")
    with pytest.raises(ExportError, match="database"):
        export_result(result, target, ExportFormat.JSON, names)
    assert target.read_bytes() == b"SQLite format 3\x00 keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_never_writes_over_the_open_database_whatever_its_name(bundle: Bundle, tmp_path: Path) -> None:
    result, names = bundle
    db = tmp_path / "library.bin"
    db.write_bytes(b"db")
    link = tmp_path / "results.json"
    link.symlink_to(db)
    with pytest.raises(ExportError, match="open scripture database"):
        export_result(result, link, ExportFormat.JSON, names, protected=[db])
    assert db.read_bytes() == b"db"
    with pytest.raises(ExportError, match="folder"):
        export_result(result, tmp_path, ExportFormat.JSON, names)


@pytest.mark.parametrize("length", [245, 250, 255])
def test_a_name_near_the_limit_is_written_the_temporary_name_is_short(
    bundle: Bundle, tmp_path: Path, length: int
) -> None:
    """#20.15: 245–255-byte names failed, blaming the folder: the temporary name was the name plus more."""
    result, names = bundle
    target = tmp_path / ("r" * (length - len(".json")) + ".json")
    assert export_result(result, target, ExportFormat.JSON, names) > 0
    assert json.loads(target.read_text(encoding="utf-8"))["query_trace"]
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_a_name_too_long_for_the_folder_says_so(bundle: Bundle, tmp_path: Path) -> None:
    """#20.15: a 256-byte name gave a bare OSError."""
    result, names = bundle
    with pytest.raises(ExportError, match="shorter name"):
        export_result(result, tmp_path / ("r" * 251 + ".json"), ExportFormat.JSON, names)
    with pytest.raises(ExportError, match="shorter name"):
        export_result(result, tmp_path / ("é" * 130 + ".csv"), ExportFormat.CSV, names)  # 264 bytes
    assert list(tmp_path.iterdir()) == []


def test_a_pipe_or_a_device_is_never_replaced(bundle: Bundle, tmp_path: Path) -> None:
    """#20.15: FIFOs and device nodes were replaced by a regular file (as root, /dev/null)."""
    result, names = bundle
    fifo = tmp_path / "results.json"
    os.mkfifo(fifo)
    targets = [fifo]
    if os.geteuid() == 0:  # a device node of our own (only root may make one): /dev/null's numbers
        device = tmp_path / "null.csv"
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        targets.append(device)
    for target in targets:
        with pytest.raises(ExportError, match="not a regular file"):
            export_result(result, target, ExportFormat.JSON, names)
    assert fifo.is_fifo() and all(not t.is_file() for t in targets)


def test_format_follows_the_suffix() -> None:
    assert ExportFormat.for_path(Path("a.CSV")) is ExportFormat.CSV
    assert ExportFormat.for_path(Path("a.json")) is ExportFormat.JSON
    assert ExportFormat.for_path(Path("a.txt")) is None


def test_atomic_write_replaces_whole_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("old", encoding="utf-8")
    os.chmod(target, 0o640)
    write_atomic(target, "new ✓")
    assert target.read_text(encoding="utf-8") == "new ✓"
    assert target.stat().st_mode & 0o777 == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.csv"]  # no temporary file left


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ExportError, match=r"Cannot write in .*Choose another folder"):
        write_atomic(tmp_path / "nope" / "out.json", "{}")


def test_the_words_for_copied_context_and_for_how_it_was_searched(bundle: Bundle) -> None:
    from amicus_desktop.context import Context
    from amicus_desktop.present import describe, states

    assert describe.context_copied(Context("t", 8000, 3912, ("a",) * 7, ("b",) * 3)) == (
        "Copied 7 chunks, 3,912 tokens (3 dropped to fit 8,000)")
    assert describe.context_copied(Context("t", 8000, 12, ("a",), ())) == "Copied 1 chunk, 12 tokens"
    assert describe.context_copied(Context("t", 300, 298, ("a",), (), cut="a")) == (
        "Copied 1 chunk, 298 tokens (the only chunk was cut to fit 300)")
    result, _names = bundle
    rows = dict(describe.searched_rows(result))
    assert rows["Mode"] == "Keyword" and rows["Question vector"] == "none (keyword search makes no vector)"
    assert rows["References"] == "none detected" and rows["Filters"] == "none" and rows["Pins"] == "none"
    d = result.diagnostics
    assert rows["Candidates"].startswith(f"{d.candidates} pooled of ")
    assert rows["Found"] == f"{d.by_origin['keyword']} by words (keyword)"
    assert states.warning_sentence("Nope. Did you mean “grace”?", "grace") == "Nope."
    assert states.warning_sentence("Nope.", None) == "Nope."
