"""Typed user settings: one JSON file under ``paths.config_dir()``, written atomically. No Qt.

Every option is declared once in :data:`OPTIONS` with its type, default and a check (the checks are
:mod:`amicus_desktop.settings_values`'s); loading
coerces what it can and falls back to the default (with a note for the user) for what it can't. In a
list (pins, preferred scholars and traditions) one bad entry is dropped, not the list.

Failure rules, each visible to the user through :attr:`SettingsStore.notice`:

* an unreadable or corrupt file is moved aside to ``settings.json.bak`` and defaults are used;
* a file some of whose values had to be reset or dropped is copied aside the same way before
  anything is saved over it, so nothing the user had is lost;
* a backup is never overwritten: the next one is ``settings.json.bak.2``, then ``.3`` …;
* a directory that cannot be written leaves the app running, with a notice that changes will not
  be saved (``SettingsStore.writable`` is ``False``).

The file holds the proxy token, so it is created with permissions 0600 and the token is never
logged (``repr(Settings)`` masks it).

Window geometry and splitter positions are *not* here: the Qt layer keeps them in QSettings.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import logging
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paths
from . import settings_values as values
from .core.preset import APP
from .core.query import (
    DEFAULT_CANDIDATES,
    DEFAULT_CONTEXT_BUDGET,
    BoostWeights,
    Fusion,
    FusionMethod,
    Profile,
    RankingPolicy,
    SearchMode,
)
from .files import read_small
from .knobs import BY_SETTING
from .pin_scopes import PinScope

log = logging.getLogger("amicus.settings")

SETTINGS_VERSION = 1
FILE_NAME = "settings.json"
#: a settings file is a few kB; anything past this is not one (and is not read into memory)
MAX_FILE_BYTES = 1 << 20
#: backups kept at most (settings.json.bak … .bak.1000); past that a damaged file stays where it is
MAX_BACKUPS = 1000
MIN_CONTEXT_BUDGET, MAX_CONTEXT_BUDGET = 256, 200_000
MIN_FONT_SIZE, MAX_FONT_SIZE = 6, 40
COLOR_SCHEMES = ("system", "light", "dark")


@dataclass(frozen=True)
class Settings:
    """What the user chose. ``db_path`` ``None`` means :func:`paths.default_db_path`."""

    db_path: str | None = None
    proxy_url: str = paths.DEFAULT_PROXY_URL
    token: str | None = field(default=None, repr=False)
    preferred_scholars: tuple[str, ...] = ()
    preferred_traditions: tuple[str, ...] = ()
    chapter_boost: float = APP.weights.chapter
    scholar_boost: float = APP.weights.scholar
    tradition_boost: float = APP.weights.tradition
    #: at most this many results per scholar; ``None``: no cap.
    per_scholar_cap: int | None = APP.weights.per_scholar_cap
    reference_boost: float = APP.weights.reference
    k: int = APP.k
    candidates: int = APP.candidates
    #: the chapter last open in the reader, as ``book_id:chapter``.
    last_chapter: str | None = None
    #: the translation the reader shows and verse search runs on, by id (``None``: the database's default;
    #: one the database does not hold falls back to it)
    translation: str | None = None
    #: the second translation shown beside it in the reader, by id (``None``: one translation; one the
    #: database does not hold, or the one shown, is none)
    beside_translation: str | None = None
    #: how the app searches (the CLI's ``query`` default stays ``semantic``: the contract).
    search_mode: SearchMode = APP.mode
    #: chunk ids pinned to the top of the ranking (CONTRACT section 6), in the order pinned.
    pins: tuple[str, ...] = ()
    #: where the pins that are not for every question apply (``pin_scopes.py``: a passage, questions like one);
    #: a pin without an entry here is for every question, as every pin of a file from before scopes is.
    pin_scopes: tuple[PinScope, ...] = ()
    #: "Copy as Amicus context" budget, in the model tokenizer's tokens.
    context_budget: int = DEFAULT_CONTEXT_BUDGET
    #: reading text size in points; ``None``: the platform's default font size.
    font_size: int | None = None
    #: ``system``, ``light`` or ``dark``.
    color_scheme: str = "system"
    #: how hybrid search fuses meaning and words (``convex`` or ``rrf``), and convex fusion's weight of meaning
    fusion: str = APP.fusion.method.value
    alpha: float = APP.fusion.alpha
    #: the ranking policy's spread factor past the cap per source (``None``: the contract's hard cap)
    spread: float | None = APP.policy.spread
    #: the boost of the chapter the commentary centres on when no chapter is open (``None``: off)
    focus_boost: float | None = APP.policy.focus
    #: the curator's name in a golden set's ``judges`` (``None``: the account's login name)
    judge_name: str | None = None
    #: the golden set open in the curator workbench, reopened at the next start
    golden_set: str | None = None

    # -- derived -------------------------------------------------------------------------
    @property
    def profile(self) -> Profile:
        return Profile.of(self.preferred_scholars, self.preferred_traditions)

    @property
    def weights(self) -> BoostWeights:
        return BoostWeights(self.chapter_boost, self.scholar_boost, self.tradition_boost, self.per_scholar_cap,
                            self.reference_boost)

    @property
    def fusion_config(self) -> Fusion:
        return Fusion(FusionMethod(self.fusion), self.alpha, APP.fusion.rrf_k)

    @property
    def policy(self) -> RankingPolicy:
        """The app's ranking policy with the curator's spread factor and focus boost."""
        return dataclasses.replace(APP.policy, spread=self.spread, focus=self.focus_boost)

    def resolved_db_path(self) -> Path:
        return Path(self.db_path).expanduser() if self.db_path else paths.default_db_path()

    def replace(self, **changes: Any) -> Settings:
        return dataclasses.replace(self, **changes)

    def with_profile(self, profile: Profile) -> Settings:
        return self.replace(
            preferred_scholars=tuple(sorted(profile.preferred_scholars)),
            preferred_traditions=tuple(sorted(profile.preferred_traditions)),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": SETTINGS_VERSION}
        for opt in OPTIONS:
            value = getattr(self, opt.name)
            if isinstance(value, tuple):
                value = [v.to_json() if isinstance(v, PinScope) else v for v in value]
            elif isinstance(value, SearchMode):
                value = value.value
            out[opt.name] = value
        return out


# -- typed options ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Option:
    """One setting: how to read it from JSON and what values are acceptable."""

    name: str
    coerce: Callable[[Any], Any]

    @property
    def default(self) -> Any:
        return getattr(Settings(), self.name)


def _knob(name: str) -> Option:
    """A setting that is a knob of the search request: its coercer from the table's row."""
    return Option(name, values.of_knob(BY_SETTING[name]))


OPTIONS: tuple[Option, ...] = (
    Option("db_path", values.file_path),
    Option("proxy_url", values.base_url),
    Option("token", values.text_or_none),
    Option("preferred_scholars", values.name_set),
    Option("preferred_traditions", values.name_set),
    _knob("chapter_boost"),
    _knob("scholar_boost"),
    _knob("tradition_boost"),
    _knob("per_scholar_cap"),
    _knob("reference_boost"),
    _knob("k"),
    _knob("candidates"),
    Option("last_chapter", values.chapter),
    Option("translation", values.text_or_none),
    Option("beside_translation", values.text_or_none),
    Option("search_mode", values.search_mode),
    Option("pins", values.ordered_names),
    Option("pin_scopes", values.pin_scopes),
    Option("context_budget", values.int_in(MIN_CONTEXT_BUDGET, MAX_CONTEXT_BUDGET)),
    Option("font_size", values.int_in_or_none(MIN_FONT_SIZE, MAX_FONT_SIZE)),
    Option("color_scheme", values.choice(*COLOR_SCHEMES)),
    _knob("fusion"),
    _knob("alpha"),
    _knob("spread"),
    _knob("focus_boost"),
    Option("judge_name", values.text_or_none),
    Option("golden_set", values.file_path),
)


def from_json(data: Any) -> tuple[Settings, list[str]]:
    """Settings from a decoded JSON object, and a note per value that had to be reset."""
    if not isinstance(data, dict):
        raise ValueError("the settings file does not hold a JSON object")
    notes: list[str] = []
    chosen: dict[str, Any] = {}
    for opt in OPTIONS:
        if opt.name not in data:
            continue
        try:
            chosen[opt.name] = opt.coerce(data[opt.name])
        except values.Kept as kept:
            chosen[opt.name] = kept.value
            notes.append(f"in {opt.name}, {kept}")
        except (TypeError, ValueError) as exc:
            notes.append(f"{opt.name} was reset to its default ({exc})")
    settings = Settings(**chosen)
    if settings.candidates < settings.k:
        settings = settings.replace(candidates=max(settings.k, DEFAULT_CANDIDATES))
        notes.append("candidates was raised to at least k")
    return settings, notes


def validate(settings: Settings) -> Settings:
    """The same checks as loading, for values typed into the settings dialog (``ValueError``)."""
    data = settings.to_json()
    clean, notes = from_json(data)
    if notes:
        raise ValueError("; ".join(notes))
    return clean


class SettingsStore:
    """Loads and saves :class:`Settings` at ``path`` (default ``config_dir()/settings.json``).

    ``read_only`` stores never write (the ``--screenshot`` mode uses one). After :meth:`load`,
    :attr:`notice` holds a sentence for the user when something went wrong, else ``None``.
    """

    def __init__(self, path: str | Path | None = None, *, read_only: bool = False) -> None:
        self.path = Path(path) if path else paths.config_dir() / FILE_NAME
        self.read_only = read_only
        self.writable = not read_only
        self.notice: str | None = None

    @property
    def backup_path(self) -> Path:
        """The first backup's name; later ones are numbered (:meth:`_keep_copy`)."""
        return self.path.with_name(self.path.name + ".bak")

    def load(self) -> Settings:
        """The saved settings, or defaults (first run, corrupt file)."""
        self.notice = None
        try:
            raw = read_small(self.path, MAX_FILE_BYTES)
        except FileNotFoundError:
            self._check_writable()
            return Settings()
        except OSError as exc:
            self.notice = f"Settings could not be read from {self.path} ({exc.strerror or exc}); defaults are in use."
            log.warning("settings unreadable", extra={"path": str(self.path), "error": type(exc).__name__})
            self._check_writable()
            return Settings()
        try:
            settings, notes = from_json(json.loads(raw.decode("utf-8")))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:  # RecursionError: absurd nesting
            if self.read_only:
                self.notice = f"The settings file is damaged ({_short(exc)}); the defaults are in use."
            else:
                kept = self._keep_copy(raw, move=True)
                where = f"It was kept as {kept.name}" if kept else "It could not be kept"
                self.notice = f"The settings file was damaged ({_short(exc)}). {where} and the defaults were restored."
            log.warning("settings corrupt", extra={"path": str(self.path), "set_aside": not self.read_only})
            self._check_writable()
            return Settings()
        if notes:
            self.notice = "Some settings were invalid and were reset: " + "; ".join(notes) + "."
            if not self.read_only:  # the next save writes over the file: keep it as it was first
                kept = self._keep_copy(raw, move=False)
                if kept is not None:
                    self.notice += f" The file as it was is kept as {kept.name}."
            log.warning("settings values reset", extra={"count": len(notes)})
        self._check_writable()
        return settings

    def save(self, settings: Settings) -> bool:
        """Write ``settings`` atomically (temp file + ``os.replace``), mode 0600. ``False`` if not saved."""
        if self.read_only:
            return False
        data = json.dumps(settings.to_json(), indent=2, sort_keys=True, ensure_ascii=False).encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        except OSError as exc:
            self._unwritable(exc)
            return False
        try:
            with os.fdopen(fd, "wb") as fh:  # mkstemp creates the file 0600
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, self.path)
            with contextlib.suppress(OSError):
                os.chmod(self.path, 0o600)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            self._unwritable(exc)
            return False
        if not self.writable:  # it works again
            self.writable = True
            self.notice = None
        log.info("settings saved")
        return True

    # -- internals -------------------------------------------------------------------------
    def _keep_copy(self, raw: bytes, *, move: bool) -> Path | None:
        """Write ``raw`` to the first free backup name — ``settings.json.bak``, then ``.bak.2``,
        ``.bak.3`` … — never over an existing backup (created exclusively); with ``move`` the file
        itself is then removed. ``None`` when no backup could be written."""
        for n in range(1, MAX_BACKUPS + 1):
            backup = self.backup_path if n == 1 else self.path.with_name(f"{self.path.name}.bak.{n}")
            try:
                with open(backup, "xb") as fh:
                    fh.write(raw)
            except FileExistsError:
                continue
            except OSError:
                return None
            with contextlib.suppress(OSError):
                os.chmod(backup, 0o600)  # it holds the token
                if move:
                    os.unlink(self.path)
            return backup
        return None

    def _check_writable(self) -> None:
        if self.read_only:
            return
        directory = self.path.parent
        probe = directory
        while not probe.exists() and probe != probe.parent:
            probe = probe.parent
        if not probe.is_dir():  # a file where a folder should be: nothing can be created there
            self._unwritable(NotADirectoryError(20, "not a directory"))
        elif not os.access(probe, os.W_OK) or (self.path.exists() and not os.access(self.path, os.W_OK)):
            self._unwritable(PermissionError(13, "permission denied"))

    def _unwritable(self, exc: OSError) -> None:
        self.writable = False
        reason = exc.strerror or str(exc) or type(exc).__name__
        self.notice = (
            f"Settings cannot be saved to {self.path.parent} ({reason}). The app works, but changes "
            "made now will be lost when it closes."
        )
        log.warning("settings not writable", extra={"dir": str(self.path.parent), "error": type(exc).__name__})


def _short(exc: BaseException, limit: int = 80) -> str:
    text = " ".join(str(exc).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
