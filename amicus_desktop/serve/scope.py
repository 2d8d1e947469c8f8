"""Whose library a request reads: its workspace (CONTRACT section 11) and its overlay (section 12).

This is the one place where a request's scope changes what is retrieved:

* **overlays** — :meth:`Overlays.find` turns ``overlay=NAME`` into the overlay in ``NAME.json`` of
  ``--overlays DIR``, read and checked against the shipped schema (404 ``OVERLAY_NOT_FOUND`` when there is
  no such file; 500 ``OVERLAY_INVALID`` when the file stopped being a valid overlay after the service
  started — it checked every one then). A service started with ``--require-overlay`` answers a request
  naming none with 400 ``NO_OVERLAY``: every answer it gives is governed. :func:`apply` applies the overlay
  to the request's parameters as ``query`` applies one to its flags
  (:meth:`amicus_desktop.retrieval.request.SearchRequest.under`): a parameter given explicitly wins.
* **notes** — the workspace id is checked (format in :mod:`.params`, the token's list in
  :mod:`.access`) before anything is read. :func:`apply` puts it in the context
  (``ctx.replace(workspace=scope.workspace)``): the engine then searches that workspace's notes with the
  library (:mod:`amicus_desktop.candidates.notes`) and no other workspace's, and without a workspace no
  note is a candidate (docs/NOTES.md).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from ..core.query import RetrievalContext
from ..overlays import Overlay, OverlayError, read_overlay
from .errors import ServiceCode, ServiceError
from .params import RetrieveParams


@dataclass(frozen=True)
class Scope:
    """A request's workspace (already permitted for its token) and overlay (already found and read)."""

    workspace: str | None = None
    overlay: Overlay | None = None


class Overlays:
    """The overlays a service may apply: ``NAME.json`` in one folder (``--overlays DIR``), each read once
    and again only when its file changes. ``required``: a request must name one."""

    def __init__(self, folder: Path | None, *, required: bool = False) -> None:
        self.folder = folder
        self.required = required
        self._read: dict[str, tuple[tuple[int, int, int], Overlay]] = {}
        self._lock = threading.Lock()

    def check_all(self) -> list[str]:
        """Every overlay file of the folder that is not a valid overlay, as sentences (none: all are)."""
        if self.folder is None:
            return []
        bad = []
        for path in sorted(self.folder.glob("*.json")):
            try:
                read_overlay(path)
            except OverlayError as err:
                bad.append(str(err))
        return bad

    def find(self, name: str | None) -> Overlay | None:
        """The overlay ``name`` (a name :mod:`.params` accepted), or ``OVERLAY_NOT_FOUND``,
        ``OVERLAY_INVALID``, ``NO_OVERLAY`` (a service that requires one, asked without)."""
        if name is None:
            if self.required:
                raise ServiceError(ServiceCode.NO_OVERLAY,
                                   "This service answers only under an overlay: name one with overlay=NAME.")
            return None
        if self.folder is None:
            raise ServiceError(ServiceCode.OVERLAY_NOT_FOUND,
                               f"No overlay called {name!r}: this service was started without an overlays folder.")
        path = self.folder / f"{name}.json"
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            st = None
        if st is None or not path.is_file():
            raise ServiceError(ServiceCode.OVERLAY_NOT_FOUND, f"No overlay called {name!r} in the overlays folder.")
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        with self._lock:
            known = self._read.get(name)
        if known is not None and known[0] == stamp:
            return known[1]
        try:
            overlay = read_overlay(path)
        except OverlayError as err:
            raise ServiceError(ServiceCode.OVERLAY_INVALID,
                               f"The overlay {name!r} is not valid: {err.problems[0]}. "
                               "Fix the file (amicus-desktop validate overlay lists its problems).") from None
        with self._lock:
            self._read[name] = (stamp, overlay)
        return overlay


def apply(params: RetrieveParams, scope: Scope, known_books: Collection[str]) -> RetrievalContext:
    """The retrieval ``params`` ask for under ``scope``, books resolved against ``known_books`` (400 for a
    combination the overlay's policy and the request's parameters cannot make together)."""
    if scope.overlay is not None:
        params = params.under(scope.overlay)
    return params.context(known_books).replace(workspace=scope.workspace)
