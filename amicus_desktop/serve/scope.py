"""Whose library a request reads: its workspace (CONTRACT section 11) and its overlay (section 12).

This is the one place where a request's scope changes what is retrieved — the seam where notes and
overlays plug in when they exist:

* **overlays** — :meth:`Overlays.find` turns ``overlay=NAME`` into a file of ``--overlays DIR`` (404
  ``OVERLAY_NOT_FOUND`` otherwise). :func:`apply` is where the overlay's policy will be applied to the
  context (``ctx = overlay.apply(ctx, explicit=params.given)``: a parameter given explicitly wins).
  Until the overlay loader exists an overlay that is found is refused (501 ``NOT_IMPLEMENTED``) rather
  than ignored: a role that forbids a source must never get it silently.
* **notes** — the workspace id is checked (format in :mod:`.params`, the token's list in
  :mod:`.access`) before anything is read. :func:`apply` puts it in the context
  (``ctx.replace(workspace=scope.workspace)``): the engine then searches that workspace's notes with the
  library (:mod:`amicus_desktop.candidates.notes`) and no other workspace's, and without a workspace no
  note is a candidate (docs/NOTES.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core.query import RetrievalContext
from .errors import ServiceCode, ServiceError


@dataclass(frozen=True)
class Scope:
    """A request's workspace (already permitted for its token) and overlay file (already found)."""

    workspace: str | None = None
    overlay: Path | None = None


class Overlays:
    """The overlay files a service may use: ``NAME.json`` in one folder (``--overlays DIR``)."""

    def __init__(self, folder: Path | None) -> None:
        self.folder = folder

    def find(self, name: str | None) -> Path | None:
        """The file of overlay ``name`` (a name :mod:`.params` accepted), or ``OVERLAY_NOT_FOUND``."""
        if name is None:
            return None
        if self.folder is None:
            raise ServiceError(ServiceCode.OVERLAY_NOT_FOUND,
                               f"No overlay called {name!r}: this service was started without an overlays folder.")
        path = self.folder / f"{name}.json"
        if not path.is_file():
            raise ServiceError(ServiceCode.OVERLAY_NOT_FOUND, f"No overlay called {name!r} in the overlays folder.")
        return path


def apply(ctx: RetrievalContext, scope: Scope, explicit: frozenset[str] = frozenset()) -> RetrievalContext:
    """The retrieval ``ctx`` under ``scope`` (``explicit``: the parameters the request named)."""
    if scope.overlay is not None:
        raise ServiceError(ServiceCode.NOT_IMPLEMENTED,
                           "Overlays are not applied by this version of the service yet; ask without one.")
    return ctx.replace(workspace=scope.workspace)
