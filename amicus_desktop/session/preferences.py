"""What the user chose, kept on disk: settings, this run's overrides, the profile. No Qt.

:class:`Preferences` is the one place that reads and writes the typed settings file
(:class:`~amicus_desktop.settings.SettingsStore`) for the app, and the one place that combines
saved values with this run's overrides (command line, environment) into the connection values
(database path, proxy URL, token). Everything the user sets that outlives the window belongs
here: the profile, the overlay (its own file, :mod:`.overlay_store`), the search mode and the pins.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..config import Connection as ConnectionInUse
from ..config import Resolved, Source, resolve_connection
from ..core.query import Profile, SearchMode
from ..core.references import ChapterRef
from ..overlays import Overlay, check
from ..paths import DEFAULT_PROXY_URL
from ..pin_scopes import PinScope
from ..settings import COLOR_SCHEMES, MAX_FONT_SIZE, MIN_FONT_SIZE, Settings, SettingsStore
from .events import Event
from .overlay_store import OverlayStore, combined, split

log = logging.getLogger("amicus.session")


@dataclass(frozen=True)
class Overrides:
    """Connection values given for this run only (command line, environment): never saved."""

    db_path: str | None = None
    proxy_url: str | None = None
    token: str | None = None
    chapter: str | None = None
    #: Where each override came from, as ``(field, source)`` pairs (``flag`` when not listed).
    sources: tuple[tuple[str, Source], ...] = ()

    def source(self, name: str) -> Source:
        return dict(self.sources).get(name, "flag")

    @classmethod
    def from_env(cls, db: str | None = None, proxy: str | None = None, chapter: str | None = None) -> Overrides:
        # Flags and the environment only: the saved settings are applied (and changed) by the session.
        c = resolve_connection(db=db, proxy=proxy)
        values: dict[str, Resolved[Any]] = {"db_path": c.db_path, "proxy_url": c.proxy_url, "token": c.token}
        return cls(
            db_path=str(c.db_path.value) if c.db_path.overridden else None,
            proxy_url=c.proxy_url.value if c.proxy_url.overridden else None,
            token=c.token.value if c.token.overridden else None,
            chapter=chapter,
            sources=tuple((name, r.source) for name, r in values.items() if r.overridden),
        )


@dataclass(frozen=True)
class Endpoints:
    """What the engine connects to: a change of any of these means a new engine."""

    db_path: Path
    proxy_url: str
    token: str | None


class Preferences:
    """The saved settings and this run's overrides.

    Events: :attr:`changed` (new settings from the settings dialog or a new database),
    :attr:`profile_changed`, :attr:`overlay_changed`, :attr:`notice` (a sentence for the user when the
    settings or overlay file could not be read or written).
    """

    def __init__(self, store: SettingsStore | None = None, overrides: Overrides | None = None,
                 overlay_store: OverlayStore | None = None) -> None:
        self.store = store or SettingsStore()
        self.settings: Settings = self.store.load()
        # the overlay file lives beside the settings file (a read-only settings store: a read-only one too)
        self.overlay_store = overlay_store or OverlayStore(self.store.path.with_name("overlay.json"),
                                                           read_only=self.store.read_only)
        #: the overlay in use without its preferred sources (they are :attr:`profile`); ``None``: no overlay
        self.overlay: Overlay | None = self.overlay_store.load()
        self.overrides = overrides or Overrides()
        self.changed: Event[Settings] = Event("settings changed")
        self.profile_changed: Event[Profile] = Event("profile changed")
        self.overlay_changed: Event[Overlay | None] = Event("overlay changed")
        self.notice: Event[str] = Event("settings notice")

    # -- derived values --------------------------------------------------------------------
    def in_use(self) -> ConnectionInUse:
        """The database, proxy URL and token in use, each with where it came from (for the
        settings dialog: an override hides the saved value for this run)."""
        o, s = self.overrides, self.settings

        def pick(name: str, override: str | None, saved: str | None, default: str | None) -> Resolved[str | None]:
            if override:
                return Resolved(override, o.source(name))
            if saved:
                return Resolved(saved, "settings")
            return Resolved(default, "default")

        db = pick("db_path", o.db_path, s.db_path, str(s.resolved_db_path()))
        url = pick("proxy_url", o.proxy_url, None if s.proxy_url == DEFAULT_PROXY_URL else s.proxy_url,
                   DEFAULT_PROXY_URL)
        return ConnectionInUse(
            db_path=Resolved(Path(db.value or "").expanduser(), db.source),
            proxy_url=Resolved((url.value or "").rstrip("/"), url.source),
            token=pick("token", o.token, s.token, None),
        )

    @property
    def endpoints(self) -> Endpoints:
        """The saved values, each replaced by this run's override when there is one."""
        o, s = self.overrides, self.settings
        db = Path(o.db_path).expanduser() if o.db_path else s.resolved_db_path()
        return Endpoints(db, (o.proxy_url or s.proxy_url).rstrip("/"), o.token or s.token)

    @property
    def profile(self) -> Profile:
        return self.settings.profile

    @property
    def start_chapters(self) -> list[str]:
        """Chapters to open at start, best first: the ``--chapter`` given, then the last one read."""
        return [text for text in (self.overrides.chapter, self.settings.last_chapter) if text]

    # -- changes ---------------------------------------------------------------------------
    def announce_load_problem(self) -> None:
        """Tell listeners what went wrong reading the settings or overlay file, if anything did."""
        if self.store.notice:
            self.notice.emit(self.store.notice)
        if self.overlay_store.notice:
            self.notice.emit(self.overlay_store.notice)

    # -- the overlay ---------------------------------------------------------------------------
    def set_overlay(self, overlay: Overlay | None) -> bool:
        """Use (and save) ``overlay`` — its preferred sources are the profile's, so any it holds are
        dropped here (see :meth:`adopt_overlay`); ``False`` when it is the one in use, or not a valid overlay
        (a :attr:`notice` names its first problem; the one in use stays)."""
        if overlay is not None:
            overlay = split(overlay)[0]
            problems = check(overlay.to_json())
            if problems:
                self.notice.emit(f"The overlay was not changed: {problems[0]}.")
                return False
        if overlay == self.overlay:
            return False
        self.overlay = overlay
        if not self.overlay_store.save(overlay) and self.overlay_store.notice:
            self.notice.emit(self.overlay_store.notice)
        self.overlay_changed.emit(overlay)
        return True

    def adopt_overlay(self, overlay: Overlay) -> bool:
        """Use an imported overlay whole: its preferred sources become the profile. ``True`` on a change."""
        rest, profile = split(overlay)
        profile_changed = self.set_profile(profile)
        return self.set_overlay(rest) or profile_changed

    def overlay_document(self) -> Overlay | None:
        """The whole overlay in use, the profile's preferred sources in it (what an export writes)."""
        return combined(self.overlay, self.profile) if self.overlay is not None else None

    def set_profile(self, profile: Profile) -> bool:
        """Save ``profile``; ``False`` when it is the one already in use."""
        if profile == self.settings.profile:
            return False
        self._save(self.settings.with_profile(profile))
        self.profile_changed.emit(self.settings.profile)
        return True

    def apply(self, settings: Settings) -> bool:
        """Save settings from the settings dialog. ``True`` when the connection changed (reconnect).

        A database path or proxy URL chosen here replaces the one given for this run.
        """
        old = self.settings
        self._save(settings)
        self.changed.emit(self.settings)
        if settings.profile != old.profile:
            self.profile_changed.emit(settings.profile)
        if _saved_endpoints(old) == _saved_endpoints(settings):
            return False
        if settings.db_path != old.db_path:
            self.overrides = replace(self.overrides, db_path=None)
        if settings.proxy_url != old.proxy_url:
            self.overrides = replace(self.overrides, proxy_url=None)
        return True

    def set_context_budget(self, tokens: int) -> bool:
        """Save the token budget of *Copy as Amicus context* (nothing is re-ranked); ``False`` when unchanged."""
        if tokens == self.settings.context_budget:
            return False
        self._save(self.settings.replace(context_budget=tokens))
        self.changed.emit(self.settings)
        return True

    def set_font_size(self, size: int | None) -> None:
        """Save the reading text size in points (``None``: the default), clamped to the allowed range."""
        if size is not None:
            size = max(MIN_FONT_SIZE, min(MAX_FONT_SIZE, size))
        self._save_appearance(self.settings.replace(font_size=size))

    def set_color_scheme(self, scheme: str) -> None:
        """Save ``system``, ``light`` or ``dark``."""
        if scheme not in COLOR_SCHEMES:
            raise ValueError(f"unknown colour scheme {scheme!r}")
        self._save_appearance(self.settings.replace(color_scheme=scheme))

    def _save_appearance(self, updated: Settings) -> None:
        """Appearance changes are saved and announced; they never re-rank."""
        if updated != self.settings:
            self._save(updated)
            self.changed.emit(self.settings)

    def use_database(self, path: str | Path) -> None:
        """From now on (saved) open the database at ``path``."""
        self.overrides = replace(self.overrides, db_path=None)
        self._save(self.settings.replace(db_path=str(path)))
        self.changed.emit(self.settings)

    def set_search_mode(self, mode: SearchMode) -> bool:
        """Save the search mode; ``False`` when it is the one already in use."""
        if mode is self.settings.search_mode:
            return False
        self._save(self.settings.replace(search_mode=mode))
        return True

    def set_pins(self, pins: tuple[str, ...], scopes: tuple[PinScope, ...] | None = None) -> bool:
        """Save the pinned chunk ids (in the user's order) and, when given, their scopes (``pin_scopes.py``; the
        scopes of pins no longer pinned go); ``False`` when nothing changed."""
        pins = tuple(dict.fromkeys(pins))
        kept = tuple(s for s in (self.settings.pin_scopes if scopes is None else scopes)
                     if s.chunk_id in pins and s.scope != "always")
        if pins == self.settings.pins and kept == self.settings.pin_scopes:
            return False
        self._save(self.settings.replace(pins=pins, pin_scopes=kept))
        return True

    def remember_chapter(self, ref: ChapterRef) -> None:
        self._save(self.settings.replace(last_chapter=str(ref)))

    def remember_translation(self, translation_id: str | None) -> None:
        """The translation chosen in the reader, shown again at the next start."""
        if translation_id != self.settings.translation:
            self._save(self.settings.replace(translation=translation_id))

    def remember_beside(self, translation_id: str | None) -> None:
        """The translation shown beside the text (``None``: none), shown again at the next start."""
        if translation_id != self.settings.beside_translation:
            self._save(self.settings.replace(beside_translation=translation_id))

    def remember_golden_set(self, path: str | None) -> None:
        """The golden set open in the workbench, reopened at the next start (nothing is re-ranked)."""
        if path != self.settings.golden_set:
            self._save(self.settings.replace(golden_set=path))

    def _save(self, settings: Settings) -> None:
        self.settings = settings
        was_writable = self.store.writable
        self.store.save(settings)
        if was_writable and not self.store.writable and self.store.notice:
            self.notice.emit(self.store.notice)


def _saved_endpoints(s: Settings) -> tuple[Path, str, str | None]:
    return s.resolved_db_path(), s.proxy_url, s.token
