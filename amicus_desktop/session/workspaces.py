"""Workspaces: the reader's separate studies, each with its own notes, pins, profile and overlay. No Qt.

**Workspaces hold profiles.** A workspace is a name the reader chose ("Sermon on Romans 9"), an id the
notes store keys its notes by (``sermon-on-romans-9``: CONTRACT section 11, the id the command line's
``--workspace`` takes), and what it *holds* of the reader's preferences: the profile (preferred scholars
and traditions), the overlay (its role, forbidden sources and vocabulary — the rest of an overlay, whose
preferred sources *are* the profile: one without the other would be half a role) and the pins.
Everything else — the database, the proxy, the weights, the search mode, the appearance — belongs to the
reader and is the same in every workspace.

The current workspace's held values are where they have always been — the profile in the settings file,
the overlay in ``overlay.json`` beside it, the pins and their scopes with the search — so the profile dock's
editors and the pins keep working on :class:`~.preferences.Preferences` as before; ``workspaces.json`` beside
the settings keeps the list, the current id, and the held values of each workspace as they were when it was
last left. Switching (:meth:`Workspaces.switch`) puts the current values away under the old workspace and hands back
the new one's. Written atomically, mode 0600; a file that cannot be read is set aside as
``workspaces.json.bak`` and the default workspace is used, with a notice. A held overlay that is no longer
a valid overlay is dropped (the rest of its workspace is kept). The notes themselves are in the notes
store (docs/NOTES.md), never here.
"""

from __future__ import annotations

import json
import logging
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .. import settings_values as values
from ..core.query import Profile
from ..files import FileWriteError, read_small, write_atomic
from ..notes import WORKSPACE_ID
from ..overlays import Overlay, OverlayError, parse_overlay
from ..pin_scopes import PinScope
from .events import Event

log = logging.getLogger("amicus.session")

FILE_NAME = "workspaces.json"
VERSION = 1
#: The workspace every reader starts in (and the one their earlier profile, overlay and pins become).
DEFAULT_ID, DEFAULT_NAME = "personal", "Personal"
MAX_NAME_CHARS = 80
MAX_WORKSPACES = 200
_MAX_FILE_BYTES = 4 << 20


@dataclass(frozen=True)
class Held:
    """What a workspace holds of the reader's preferences: its profile, its pins (in pin order) and its
    overlay without the preferred sources (``None``: no overlay)."""

    profile: Profile = field(default_factory=Profile)
    pins: tuple[str, ...] = ()
    overlay: Overlay | None = None
    #: where each pin that is not for every question applies (``pin_scopes.py``; older files have none)
    pin_scopes: tuple[PinScope, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"preferred_scholars": sorted(self.profile.preferred_scholars),
                               "preferred_traditions": sorted(self.profile.preferred_traditions),
                               "pins": list(self.pins), "pin_scopes": [s.to_json() for s in self.pin_scopes]}
        if self.overlay is not None:
            out["overlay"] = self.overlay.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any) -> Held:
        if not isinstance(data, dict):
            return cls()

        def names(key: str) -> list[str]:
            value = data.get(key)
            return [v for v in value if isinstance(v, str) and v] if isinstance(value, list) else []

        try:
            scopes = values.pin_scopes(data.get("pin_scopes", []))
        except values.Kept as kept:
            scopes = kept.value
        except (TypeError, ValueError):
            scopes = ()
        return cls(Profile.of(names("preferred_scholars"), names("preferred_traditions")),
                   tuple(dict.fromkeys(names("pins"))), _overlay(data.get("overlay")), scopes)


def _overlay(data: Any) -> Overlay | None:
    """A held overlay, checked as the overlay file is; one that is no longer valid is not used (logged)."""
    if data is None:
        return None
    try:
        return parse_overlay(data, "a workspace's overlay")
    except OverlayError:
        log.warning("workspace overlay unusable")
        return None


@dataclass(frozen=True)
class WorkspaceInfo:
    """One workspace: its notes' id, the name shown, and what it held when it was last left."""

    id: str
    name: str
    held: Held = field(default_factory=Held)


def slug(name: str) -> str:
    """A workspace id from a name: lower-case letters and digits, words joined by '-' ("Romans 9, sermon" →
    ``romans-9-sermon``); ``workspace`` when nothing of the name is left."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii").lower()
    words = re.findall(r"[a-z0-9]+", plain)
    out = "-".join(words)[:64].strip("-")
    return out or "workspace"


def check_name(name: str) -> str:
    """``name`` without surrounding spaces, or ``ValueError`` saying what is wrong with it."""
    name = " ".join(name.split())
    if not name:
        raise ValueError("A workspace needs a name.")
    if len(name) > MAX_NAME_CHARS:
        raise ValueError(f"A workspace name holds at most {MAX_NAME_CHARS} characters.")
    return name


class Workspaces:
    """The workspaces and the current one. Events: :attr:`changed` (the current one, after a switch, a
    new workspace or a new name), :attr:`notice` (the file could not be read or written)."""

    def __init__(self, path: Path, *, read_only: bool = False) -> None:
        self.path = path
        self.read_only = read_only
        self.changed: Event[WorkspaceInfo] = Event("workspace changed")
        self.notice: Event[str] = Event("workspaces notice")
        self.load_problem: str | None = None
        self.all: tuple[WorkspaceInfo, ...] = (WorkspaceInfo(DEFAULT_ID, DEFAULT_NAME),)
        self.current_id = DEFAULT_ID
        self._load()

    @property
    def current(self) -> WorkspaceInfo:
        return next(w for w in self.all if w.id == self.current_id)

    def get(self, workspace_id: str) -> WorkspaceInfo | None:
        return next((w for w in self.all if w.id == workspace_id), None)

    def name_of(self, workspace_id: str | None) -> str:
        """The name shown for ``workspace_id`` (its id when it is not in the list)."""
        found = self.get(workspace_id) if workspace_id else None
        return found.name if found is not None else (workspace_id or "")

    # -- changes ---------------------------------------------------------------------------------
    def switch(self, workspace_id: str, leaving: Held) -> Held | None:
        """Make ``workspace_id`` current, keeping ``leaving`` (the values in use now) with the one left;
        returns what the new one holds, or ``None`` when it is the current one or not in the list."""
        if workspace_id == self.current_id or self.get(workspace_id) is None:
            return None
        self._replace(self.current_id, held=leaving)
        self.current_id = workspace_id
        self._save()
        self.changed.emit(self.current)
        return self.current.held

    def create(self, name: str, workspace_id: str | None = None) -> WorkspaceInfo:
        """A new workspace called ``name`` (``ValueError`` for a bad name, too many workspaces, or an id
        already in the list); its id is ``workspace_id`` or :func:`slug` of the name, numbered to be free.

        An id the notes store already holds notes under (written by the command line) is allowed: the
        workspace then shows those notes — that is how a workspace made elsewhere joins the app."""
        name = check_name(name)
        if len(self.all) >= MAX_WORKSPACES:
            raise ValueError(f"There are already {MAX_WORKSPACES} workspaces.")
        if any(w.name.casefold() == name.casefold() for w in self.all):
            raise ValueError(f"There is already a workspace called “{name}”.")
        if workspace_id is not None:
            if not WORKSPACE_ID.fullmatch(workspace_id):
                raise ValueError("A workspace id is 1–64 characters of a-z, 0-9 and '-'.")
            if self.get(workspace_id) is not None:
                raise ValueError(f"The workspace id {workspace_id} is in use.")
            chosen = workspace_id
        else:
            base, n, chosen = slug(name), 1, slug(name)
            while self.get(chosen) is not None:
                n += 1
                chosen = f"{base[:60]}-{n}"
        info = WorkspaceInfo(chosen, name)
        self.all = (*self.all, info)
        self._save()
        return info

    def rename(self, workspace_id: str, name: str) -> None:
        """Show ``workspace_id`` as ``name`` from now on (its id, and so its notes, stay)."""
        name = check_name(name)
        if any(w.name.casefold() == name.casefold() and w.id != workspace_id for w in self.all):
            raise ValueError(f"There is already a workspace called “{name}”.")
        self._replace(workspace_id, name=name)
        self._save()
        if workspace_id == self.current_id:
            self.changed.emit(self.current)

    def _replace(self, workspace_id: str, **changes: Any) -> None:
        self.all = tuple(replace(w, **changes) if w.id == workspace_id else w for w in self.all)

    # -- the file --------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "current": self.current_id,
                "workspaces": [{"id": w.id, "name": w.name, **w.held.to_json()} for w in self.all]}

    def _load(self) -> None:
        try:
            raw = read_small(self.path, _MAX_FILE_BYTES)
        except FileNotFoundError:
            return
        except OSError as exc:
            self._problem(f"The workspaces could not be read from {self.path} ({exc.strerror or exc}); "
                          "the Personal workspace is in use.", keep=None)
            return
        try:
            data = json.loads(raw.decode("utf-8"))
            found = [WorkspaceInfo(str(w["id"]), check_name(str(w["name"])), Held.from_json(w))
                     for w in data["workspaces"] if WORKSPACE_ID.fullmatch(str(w.get("id", "")))]
        except (UnicodeDecodeError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as exc:
            self._problem(f"The workspaces file was damaged ({type(exc).__name__}); the Personal workspace is in "
                          "use. Your notes are untouched: add a workspace with the same name to see its notes again.",
                          keep=raw)
            return
        unique = list({w.id: w for w in found[:MAX_WORKSPACES]}.values())
        if unique:
            self.all = tuple(unique)
            current = data.get("current")
            self.current_id = current if any(w.id == current for w in unique) else unique[0].id

    def _problem(self, text: str, keep: bytes | None) -> None:
        self.load_problem = text
        log.warning("workspaces file unusable", extra={"path": str(self.path)})
        if keep is not None and not self.read_only:
            try:
                write_atomic(self.path.with_name(FILE_NAME + ".bak"), keep, mode=0o600)
            except (OSError, FileWriteError):
                pass

    def _save(self) -> None:
        if self.read_only:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n", mode=0o600)
        except (OSError, FileWriteError) as exc:
            log.warning("workspaces not saved", extra={"error": type(exc).__name__})
            self.notice.emit(f"The workspaces could not be saved to {self.path.parent} "
                             f"({getattr(exc, 'message', None) or exc}); the change lasts until the app closes.")
