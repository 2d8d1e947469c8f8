"""Overlays: one role's retrieval policy in a JSON file, checked and applied (CONTRACT section 12). No Qt.

========  =========================================================================================
load      read a file, check it against ``resources/schemas/overlay.schema.json`` (``jsonschema``) and
          the rules between its fields; every problem with its JSON pointer (:class:`OverlayError`)
model     :class:`Overlay`: what each part means to the pipeline — flag defaults, the governance rules —
          and the file again (``to_json``)
apply     an overlay on a retrieval: the flags not given explicitly, the forbidden sources, the vocabulary
========  =========================================================================================

The rules themselves run where their kind runs: forbidden sources and the vocabulary factor in
:mod:`amicus_desktop.rerank`, boost terms in :mod:`amicus_desktop.understand`, ``forbidden_hit`` and
``provenance`` in :mod:`amicus_desktop.bundle`.
"""

from .apply import govern
from .load import OverlayError, check, load_json, parse_overlay, read_overlay
from .model import Overlay

__all__ = ["Overlay", "OverlayError", "check", "govern", "load_json", "parse_overlay",
           "read_overlay"]
