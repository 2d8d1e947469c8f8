"""Exporting results when the disk says no: an unwritable folder and a full disk.

Each case runs the real export (``present/export.py``) in a child process so that the fault is real
and confined: a folder the process may not write in (as root, the child gives up the capability
that lets root write anywhere), and a file-size limit (``RLIMIT_FSIZE``) that makes the disk look
full after a few kilobytes. In both, the user gets a clear sentence, the old file keeps its
contents and no temporary file is left.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The file-size limit of the "full disk": a few hundred bytes, far less than any export here.
LIMIT = 512

CHILD = """
import json, resource, signal, sys
from pathlib import Path
from amicus_desktop.present.export import ExportError, ExportFormat, export_result
from tests.bundle.results import keyword_result

work, target, fmt, limit = Path(sys.argv[1]), Path(sys.argv[2]), ExportFormat(sys.argv[3]), int(sys.argv[4])
result, names = keyword_result(work, k=8)
if limit:
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
try:
    rows = export_result(result, target, fmt, names)
except ExportError as err:
    print(json.dumps({"error": err.message}))
else:
    print(json.dumps({"rows": rows}))
"""


def export_in_child(
    work: Path, target: Path, fmt: str, *, limit: int = 0, drop_root: bool = False
) -> dict[str, object]:
    cmd = [sys.executable, "-c", CHILD, str(work), str(target), fmt, str(limit)]
    if drop_root and os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: a folder cannot be made unwritable")
        cmd = [setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--", *cmd]
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    out: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def test_export_to_an_unwritable_folder_says_so_and_changes_nothing(tmp_path: Path) -> None:
    work = tmp_path / "work"
    work.mkdir()
    folder = tmp_path / "locked"
    folder.mkdir()
    old = folder / "results.csv"
    old.write_text("old results\n", encoding="utf-8")
    folder.chmod(stat.S_IRUSR | stat.S_IXUSR | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    try:
        out = export_in_child(work, old, "csv", drop_root=True)
    finally:
        folder.chmod(0o755)
    assert "error" in out, out
    message = str(out["error"])
    assert message.startswith(f"Cannot write in {folder}") and "permission denied" in message
    assert "Choose another folder" in message
    assert old.read_text(encoding="utf-8") == "old results\n"
    assert sorted(p.name for p in folder.iterdir()) == ["results.csv"]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_export_to_a_full_disk_keeps_the_old_file_whole(tmp_path: Path, fmt: str) -> None:
    work = tmp_path / "work"
    work.mkdir()
    folder = tmp_path / "out"
    folder.mkdir()
    old = folder / f"results.{fmt}"
    old.write_text("old results\n", encoding="utf-8")
    out = export_in_child(work, old, fmt, limit=LIMIT)  # the export is several times larger
    assert "error" in out, out
    message = str(out["error"])
    assert message.startswith(f"Could not write results.{fmt}: file too large") and "Nothing was changed" in message
    assert old.read_text(encoding="utf-8") == "old results\n"
    assert sorted(p.name for p in folder.iterdir()) == [f"results.{fmt}"]  # no half-written temporary file
    # Without the limit the same export succeeds: the limit, not the data, made it fail.
    again = tmp_path / "again"
    again.mkdir()
    ok = export_in_child(again, old, fmt)
    assert isinstance(ok.get("rows"), int) and old.stat().st_size > 2 * LIMIT
