"""An overlay applied to a retrieval (CONTRACT section 12): what it sets, unless the request set it.

Two ways in, one rule each:

* :func:`apply_to_args` — for ``query``, ``context``, ``eval``, the service and the MCP server, whose
  retrievals are described by ``query``'s flags (the service's parameters are parsed by the same
  parser): each value of :meth:`~.model.Overlay.flag_defaults` replaces its flag's value unless that flag
  was given explicitly (``given``), and the overlay's :class:`~amicus_desktop.core.governance.Governance`
  is put beside the flags (``args.governance``) for :func:`amicus_desktop.cli.search_args.context_from_args`;
* :func:`govern` — for the app, whose ranking settings are the reader's own: only the forbidden sources,
  the vocabulary (with its weight) and nothing else; the preferred sources are the app's profile.

The order is the preset's, one step further: a preset's value < the overlay's < a flag given explicitly.
"""

from __future__ import annotations

import argparse
from collections.abc import Collection
from dataclasses import replace

from ..core.query import RetrievalContext
from .model import Overlay


def apply_to_args(args: argparse.Namespace, overlay: Overlay, given: Collection[str] = ()) -> argparse.Namespace:
    """``args`` with the overlay's values for every flag not in ``given`` (argparse dests), and its rules.

    Only the flags the command has are set (``eval`` has no ``--k``). Changes ``args`` and returns it.
    """
    for dest, value in overlay.flag_defaults().items():
        if dest not in given and hasattr(args, dest):
            setattr(args, dest, list(value) if isinstance(value, list) else value)
    args.governance = overlay.governance
    return args


def govern(ctx: RetrievalContext, overlay: Overlay | None) -> RetrievalContext:
    """``ctx`` under the overlay's forbidden sources and vocabulary (``None``: ``ctx`` as it is)."""
    if overlay is None:
        return ctx
    weight = overlay.vocabulary_weight
    weights = ctx.weights if weight is None else replace(ctx.weights, vocabulary=weight)
    return ctx.replace(governance=overlay.governance, weights=weights)
