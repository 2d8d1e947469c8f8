"""What the user chose (``session/preferences.py``): a reconnect told from a re-rank, a damaged settings
file announced."""

from __future__ import annotations

from pathlib import Path

from amicus_desktop import paths
from amicus_desktop.core.query import Profile
from amicus_desktop.session import Overrides, Preferences
from amicus_desktop.settings import SettingsStore


def test_preferences_tell_a_reconnect_from_a_rerank(amicus_home: Path) -> None:
    prefs = Preferences(SettingsStore(), Overrides(db_path="/tmp/x.db", proxy_url="http://127.0.0.1:1"))
    changes: list[object] = []
    prefs.changed.connect(changes.append)
    assert prefs.endpoints.db_path == Path("/tmp/x.db")
    assert prefs.apply(prefs.settings.replace(k=4)) is False  # ranking only
    assert prefs.endpoints.proxy_url == "http://127.0.0.1:1"  # this run's override stays
    assert prefs.apply(prefs.settings.replace(proxy_url="http://127.0.0.1:2")) is True
    assert prefs.endpoints.proxy_url == "http://127.0.0.1:2"  # chosen now: replaces the override
    assert prefs.endpoints.db_path == Path("/tmp/x.db")
    prefs.use_database("/tmp/y.db")
    assert prefs.endpoints.db_path == Path("/tmp/y.db") and len(changes) == 3
    assert prefs.set_profile(Profile.of(["a"], [])) is True and prefs.set_profile(Profile.of(["a"], [])) is False
    assert SettingsStore().load().preferred_scholars == ("a",)


def test_a_corrupt_settings_file_is_announced_at_start(amicus_home: Path) -> None:
    cfg = paths.config_dir()
    cfg.mkdir(parents=True, exist_ok=True)
    (cfg / "settings.json").write_text("{ not json")
    prefs = Preferences(SettingsStore())
    notes: list[str] = []
    prefs.notice.connect(notes.append)
    prefs.announce_load_problem()
    assert len(notes) == 1 and "damaged" in notes[0]
