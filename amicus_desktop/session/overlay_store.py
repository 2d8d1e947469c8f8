"""The app's overlay on disk: ``overlay.json`` beside the settings, written atomically. No Qt.

The reader's overlay (CONTRACT section 12) is kept in two homes, each for what it owns: the preferred
scholars and traditions are the profile, in the settings file (as they always were); everything else of
the overlay — its role id, forbidden sources, vocabulary, and the parts the app keeps but does not apply
(mission, anti-goals, retrieval policy, eval profile) — is this file, checked against the shipped schema
when it is read. :func:`combined` puts the two together for an export; :func:`split` takes an import apart.

A file that is missing means no overlay (``no_overlay``); one that cannot be read or is not a valid overlay
is left where it is, no overlay is used, and :attr:`OverlayStore.notice` says why.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

from .. import paths
from ..core.query import Profile
from ..files import FileWriteError, check_target, write_atomic
from ..overlays import Overlay, OverlayError, read_overlay

log = logging.getLogger("amicus.session")

FILE_NAME = "overlay.json"


class OverlayStore:
    """Loads and saves the app's overlay (without its preferred sources) at ``path``."""

    def __init__(self, path: str | Path | None = None, *, read_only: bool = False) -> None:
        self.path = Path(path) if path else paths.config_dir() / FILE_NAME
        self.read_only = read_only
        self.notice: str | None = None

    def load(self) -> Overlay | None:
        """The saved overlay, or ``None`` (none saved, or one that cannot be used: see :attr:`notice`)."""
        self.notice = None
        if not self.path.exists():
            return None
        try:
            return split(read_overlay(self.path))[0]
        except OverlayError as err:
            self.notice = f"The saved overlay is not used: {err}."
            log.warning("overlay unusable", extra={"path": str(self.path)})
            return None

    def save(self, overlay: Overlay | None) -> bool:
        """Write ``overlay`` (``None``: remove the file); ``False`` when it could not be saved."""
        if self.read_only:
            return False
        try:
            if overlay is None:
                self.path.unlink(missing_ok=True)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                write_atomic(self.path, json.dumps(overlay.to_json(), indent=2, ensure_ascii=False) + "\n")
        except (OSError, FileWriteError) as exc:
            self.notice = f"The overlay could not be saved ({getattr(exc, 'message', None) or exc})."
            log.warning("overlay not saved", extra={"error": type(exc).__name__})
            return False
        return True


def split(overlay: Overlay) -> tuple[Overlay, Profile]:
    """An overlay as the app keeps it: the rest of it, and its preferred sources as a profile."""
    profile = Profile.of(overlay.preferred_scholars, overlay.preferred_traditions)
    return overlay.replace(preferred_scholars=(), preferred_traditions=()), profile


def combined(overlay: Overlay, profile: Profile) -> Overlay:
    """The whole overlay again, the profile's preferred sources in it (sorted, as the settings keep them)."""
    return overlay.replace(preferred_scholars=tuple(sorted(profile.preferred_scholars)),
                           preferred_traditions=tuple(sorted(profile.preferred_traditions)))


# -- the work behind Import… and Export… (for a worker thread: plain values in, plain values out) --
def read_work(path: Path) -> Callable[[], Overlay]:
    """Reading an overlay file the reader chose: the overlay, or :class:`~amicus_desktop.overlays.OverlayError`
    naming the file and the JSON pointer of its first problem."""
    return partial(read_overlay, path)


def write_work(overlay: Overlay, path: Path, protected: Sequence[Path] = ()) -> Callable[[], Path]:
    """Writing ``overlay`` to ``path`` (a ``.json`` name, never over a database), atomically: the path, or
    :class:`~amicus_desktop.files.FileWriteError` with a sentence for the reader."""

    def write() -> Path:
        check_target(path, protected, what="overlays", suffixes=(".json",), hint="a name ending in .json")
        write_atomic(path, json.dumps(overlay.to_json(), indent=2, ensure_ascii=False) + "\n")
        return path

    return write
