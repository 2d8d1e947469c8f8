"""Typed user settings: one JSON file under ``paths.config_dir()``, written atomically. No Qt.

Every option is declared once in :data:`OPTIONS` with its type, default and a check; loading
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
import math
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import paths
from .core.query import (
    DEFAULT_CANDIDATES,
    DEFAULT_CONTEXT_BUDGET,
    DEFAULT_K,
    MAX_CANDIDATES,
    MAX_K,
    BoostWeights,
    Profile,
    SearchMode,
)
from .files import read_small
from .http.urls import check_url

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
    chapter_boost: float = BoostWeights.chapter
    scholar_boost: float = BoostWeights.scholar
    tradition_boost: float = BoostWeights.tradition
    #: at most this many results per scholar; ``None``: no cap.
    per_scholar_cap: int | None = BoostWeights.per_scholar_cap
    reference_boost: float = BoostWeights.reference
    k: int = DEFAULT_K
    candidates: int = DEFAULT_CANDIDATES
    #: the chapter last open in the reader, as ``book_id:chapter``.
    last_chapter: str | None = None
    #: how the app searches (the CLI's ``query`` default stays ``semantic``: the contract).
    search_mode: SearchMode = SearchMode.HYBRID
    #: chunk ids pinned to the top of every ranking (CONTRACT section 6), in the order pinned.
    pins: tuple[str, ...] = ()
    #: "Copy as Amicus context" budget, in the model tokenizer's tokens.
    context_budget: int = DEFAULT_CONTEXT_BUDGET
    #: reading text size in points; ``None``: the platform's default font size.
    font_size: int | None = None
    #: ``system``, ``light`` or ``dark``.
    color_scheme: str = "system"

    # -- derived -------------------------------------------------------------------------
    @property
    def profile(self) -> Profile:
        return Profile.of(self.preferred_scholars, self.preferred_traditions)

    @property
    def weights(self) -> BoostWeights:
        return BoostWeights(self.chapter_boost, self.scholar_boost, self.tradition_boost, self.per_scholar_cap,
                            self.reference_boost)

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
                value = list(value)
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


def _opt_str(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError("not a string")
    return value or None


def _path(value: Any) -> str | None:
    path = _opt_str(value)
    if path is not None and ("\x00" in path or not _is_text(path)):
        raise ValueError("not a file path: it holds a NUL byte or characters that are not text")
    return path


def _url(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise TypeError("not a URL")
    return check_url(value)


class Kept(ValueError):
    """A list with some entries dropped: ``value`` is what was kept, the message says what went."""

    def __init__(self, value: tuple[str, ...], message: str) -> None:
        super().__init__(message)
        self.value = value


def _is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800" in the JSON)
        return False
    return True


def _entries(value: Any) -> tuple[str, ...]:
    """The good entries of a list of strings; :class:`Kept` when some were not (one bad entry
    never costs the others)."""
    if not isinstance(value, (list, tuple)):
        raise TypeError("not a list of strings")
    good = tuple(dict.fromkeys(v for v in value if isinstance(v, str) and v.strip() and _is_text(v)))
    bad = sum(1 for v in value if not (isinstance(v, str) and v.strip() and _is_text(v)))
    if bad:
        raise Kept(good, f"{bad} entr{'y was' if bad == 1 else 'ies were'} not text and "
                         f"{'was' if bad == 1 else 'were'} dropped; {len(good)} kept")
    return good


def _str_tuple(value: Any) -> tuple[str, ...]:
    """A set of names, sorted (the profile's scholars and traditions)."""
    try:
        return tuple(sorted(_entries(value)))
    except Kept as kept:
        raise Kept(tuple(sorted(kept.value)), str(kept)) from None


def _boost(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("not a number")
    number = float(value)
    if not math.isfinite(number) or not 0.1 <= number <= 10.0:
        raise ValueError("must be between 0.1 and 10")
    return number


def _int_in(lo: int, hi: int) -> Callable[[Any], int]:
    def coerce(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("not an integer")
        if not lo <= value <= hi:
            raise ValueError(f"must be between {lo} and {hi}")
        return value

    return coerce


def _ordered_str_tuple(value: Any) -> tuple[str, ...]:
    """A list of strings in the user's order, duplicates dropped (pins: the first pinned stays first)."""
    return _entries(value)


def _opt_int_in(lo: int, hi: int) -> Callable[[Any], int | None]:
    def coerce(value: Any) -> int | None:
        return None if value is None else _int_in(lo, hi)(value)

    return coerce


def _choice(*allowed: str) -> Callable[[Any], str]:
    def coerce(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)}")
        return str(value)

    return coerce


def _mode(value: Any) -> SearchMode:
    try:
        return SearchMode(value)
    except ValueError:
        raise ValueError(f"must be one of {', '.join(m.value for m in SearchMode)}") from None


def _chapter(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or ":" not in value:
        raise TypeError("not BOOK:CHAPTER")
    book, _, chapter = value.rpartition(":")
    if not book or not chapter.isdigit() or int(chapter) < 1:
        raise ValueError("not BOOK:CHAPTER")
    return value


OPTIONS: tuple[Option, ...] = (
    Option("db_path", _path),
    Option("proxy_url", _url),
    Option("token", _opt_str),
    Option("preferred_scholars", _str_tuple),
    Option("preferred_traditions", _str_tuple),
    Option("chapter_boost", _boost),
    Option("scholar_boost", _boost),
    Option("tradition_boost", _boost),
    Option("per_scholar_cap", _opt_int_in(1, 50)),
    Option("reference_boost", _boost),
    Option("k", _int_in(1, MAX_K)),
    Option("candidates", _int_in(1, MAX_CANDIDATES)),
    Option("last_chapter", _chapter),
    Option("search_mode", _mode),
    Option("pins", _ordered_str_tuple),
    Option("context_budget", _int_in(MIN_CONTEXT_BUDGET, MAX_CONTEXT_BUDGET)),
    Option("font_size", _opt_int_in(MIN_FONT_SIZE, MAX_FONT_SIZE)),
    Option("color_scheme", _choice(*COLOR_SCHEMES)),
)


def from_json(data: Any) -> tuple[Settings, list[str]]:
    """Settings from a decoded JSON object, and a note per value that had to be reset."""
    if not isinstance(data, dict):
        raise ValueError("the settings file does not hold a JSON object")
    notes: list[str] = []
    values: dict[str, Any] = {}
    for opt in OPTIONS:
        if opt.name not in data:
            continue
        try:
            values[opt.name] = opt.coerce(data[opt.name])
        except Kept as kept:
            values[opt.name] = kept.value
            notes.append(f"in {opt.name}, {kept}")
        except (TypeError, ValueError) as exc:
            notes.append(f"{opt.name} was reset to its default ({exc})")
    settings = Settings(**values)
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
