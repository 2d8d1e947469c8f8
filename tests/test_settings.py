"""Typed settings (``settings.py``): atomic, 0600, a corrupt file kept aside as .bak, an unwritable folder
told, not fatal."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from amicus_desktop import paths
from amicus_desktop.core.preset import APP
from amicus_desktop.core.query import Profile
from amicus_desktop.settings import Settings, SettingsStore, from_json, validate


def test_defaults_on_first_run(amicus_home: Path) -> None:
    store = SettingsStore()
    s = store.load()
    assert s == Settings() and store.notice is None and store.writable
    assert s.resolved_db_path() == paths.default_db_path()
    assert s.proxy_url == paths.DEFAULT_PROXY_URL
    assert s.weights == APP.weights and s.profile == Profile()  # the app's preset (core/preset.py)


def test_round_trip_is_atomic_and_private(amicus_home: Path) -> None:
    store = SettingsStore()
    s = Settings(db_path="/x/y.db", token="s3cret", preferred_scholars=("b", "a"), k=12, last_chapter="romans:9")
    assert store.save(s.with_profile(Profile.of(["b", "a"], ["t"])))
    path = paths.config_dir() / "settings.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert [p.name for p in path.parent.iterdir() if p.name.endswith(".tmp")] == []
    loaded = SettingsStore().load()
    assert loaded.preferred_scholars == ("a", "b") and loaded.preferred_traditions == ("t",)
    assert loaded.token == "s3cret" and loaded.k == 12 and loaded.last_chapter == "romans:9"
    assert "s3cret" not in repr(loaded)
    assert json.loads(path.read_text())["version"] == 1


def test_corrupt_file_is_kept_aside_and_defaults_restored(amicus_home: Path) -> None:
    path = paths.config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe not json")
    store = SettingsStore()
    assert store.load() == Settings()
    assert "damaged" in store.notice and "settings.json.bak" in store.notice
    assert (path.parent / "settings.json.bak").read_bytes() == b"\xff\xfe not json"
    assert not path.exists()


def test_bad_values_are_reset_one_by_one(amicus_home: Path) -> None:
    s, notes = from_json({"k": 500, "proxy_url": "ftp://x", "chapter_boost": "big", "scholar_boost": 1.2,
                          "preferred_scholars": ["a", 3], "unknown": True})
    assert s.k == Settings().k and s.proxy_url == paths.DEFAULT_PROXY_URL and s.chapter_boost == 1.5
    assert s.scholar_boost == 1.2 and s.preferred_scholars == ("a",)  # one bad entry costs only itself (#20.2)
    assert len(notes) == 4
    with pytest.raises(ValueError):
        validate(Settings(proxy_url="nope"))


def test_one_bad_entry_keeps_the_good_ones_and_the_file_as_it_was(amicus_home: Path) -> None:
    """#20.2: one bad entry in the pins or preferred scholars used to reset the whole list, and the
    next save wrote it empty with no backup."""
    path = paths.config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    raw = (b'{"pins": ["p1", 3, "p2", "", "\\ud800", "p1"], "preferred_scholars": ["henry", null, "scofield"],'
           b' "k": 12}')
    path.write_bytes(raw)
    store = SettingsStore()
    s = store.load()
    assert s.pins == ("p1", "p2") and s.preferred_scholars == ("henry", "scofield") and s.k == 12
    assert store.notice is not None and "pins" in store.notice and "preferred_scholars" in store.notice
    assert "settings.json.bak" in store.notice
    assert (path.parent / "settings.json.bak").read_bytes() == raw  # kept before any save writes over it
    assert store.save(s.replace(k=13))
    assert json.loads(path.read_text())["pins"] == ["p1", "p2"]


def test_every_damaged_file_keeps_its_own_backup(amicus_home: Path) -> None:
    """#20.2: a second damaged settings file overwrote the first backup."""
    path = paths.config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    for n, damage in enumerate((b"{ first", b"{ second", b"{ third"), start=1):
        path.write_bytes(damage)
        store = SettingsStore()
        assert store.load() == Settings()
        name = "settings.json.bak" if n == 1 else f"settings.json.bak.{n}"
        assert store.notice is not None and name in store.notice
    assert (path.parent / "settings.json.bak").read_bytes() == b"{ first"
    assert (path.parent / "settings.json.bak.2").read_bytes() == b"{ second"
    assert (path.parent / "settings.json.bak.3").read_bytes() == b"{ third"


@pytest.mark.parametrize(
    ("key", "value", "says"),
    [
        ("proxy_url", "http://[::1", "cannot be read"),
        ("proxy_url", "http://256.256.256.256:1", "not a valid IP address"),
        ("proxy_url", "http://localhost:99999", "port"),
        ("proxy_url", "http://" + "a" * 100_000, "characters long"),
        ("db_path", "/data/scripture.db\\u0000x", "NUL"),
    ],
)
def test_a_saved_address_or_path_that_cannot_work_is_reset_saying_why(
    amicus_home: Path, key: str, value: str, says: str
) -> None:
    """#20.7 and #20.21: a saved proxy URL httpx cannot use, or a path with a NUL byte, stopped the app."""
    path = paths.config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    path.write_text(f'{{"{key}": "{value}"}}')
    store = SettingsStore()
    s = store.load()
    assert getattr(s, key) == getattr(Settings(), key)
    assert store.notice is not None and key in store.notice and says in store.notice
    assert len(store.notice) < 600  # the 100k-character address is not echoed
    with pytest.raises(ValueError, match=says):
        validate(Settings().replace(**{key: json.loads(f'"{value}"')}))


def test_a_settings_file_that_is_a_fifo_is_not_waited_on(amicus_home: Path) -> None:
    path = paths.config_dir() / "settings.json"
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    store = SettingsStore()
    assert store.load() == Settings()
    assert store.notice is not None and "not a regular file" in store.notice


_UNWRITABLE_CHECK = """
import os
from amicus_desktop.settings import Settings, SettingsStore  # imported first: nobody can't read ~root
if os.geteuid() == 0:  # root writes anywhere: become nobody so the permission bits count
    os.setgid(65534); os.setuid(65534)
store = SettingsStore()
store.load()
saved = store.save(Settings(k=3))
print(store.writable, saved, store.notice)
"""


def test_unwritable_directory_is_reported_not_fatal(tmp_path: Path) -> None:
    """A config folder with no write permission, checked in a child process that is not root
    (root ignores permission bits), so it runs on every machine."""
    import subprocess
    import sys
    import tempfile

    home = Path(tempfile.mkdtemp(prefix="amicus-ro-"))  # under /tmp, reachable by any user
    try:
        home.chmod(0o755)
        cfg = home / "config"
        cfg.mkdir()
        cfg.chmod(0o555)
        root = Path(__file__).resolve().parents[2]
        proc = subprocess.run(
            [sys.executable, "-c", _UNWRITABLE_CHECK], capture_output=True, text=True, timeout=60,
            env={**os.environ, "AMICUS_HOME": str(home), "PYTHONPATH": str(root)}, cwd="/",
        )
        assert proc.returncode == 0, proc.stderr
        writable, saved, notice = proc.stdout.strip().split(" ", 2)
        assert (writable, saved) == ("False", "False")
        assert "cannot be saved" in notice and "permission denied" in notice.lower()
        assert not (cfg / "settings.json").exists()
    finally:
        (home / "config").chmod(0o755)
        import shutil

        shutil.rmtree(home)


def test_unwritable_path_is_reported_not_fatal(amicus_home: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    store = SettingsStore(blocker / "settings.json")  # its "directory" is a file: cannot be created
    store.load()
    assert store.save(Settings(k=3)) is False
    assert not store.writable and "cannot be saved" in store.notice


def test_read_only_store_never_writes(amicus_home: Path) -> None:
    store = SettingsStore(read_only=True)
    store.load()
    assert store.save(Settings(k=3)) is False
    assert not (paths.config_dir() / "settings.json").exists()
