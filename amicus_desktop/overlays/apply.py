"""An overlay applied to the app's retrieval (CONTRACT section 12).

``query``, ``context``, ``eval``, the service and the MCP server take an overlay's knob values
(:meth:`~.model.Overlay.flag_defaults`) for every knob the request did not give explicitly
(:meth:`amicus_desktop.retrieval.request.SearchRequest.under`, and ``cli/search_args.py`` for the flags).
The app's ranking settings are the reader's own, so :func:`govern` takes only the forbidden sources, the
vocabulary (with its weight) and nothing else; the preferred sources are the app's profile.

The order is the preset's, one step further: a preset's value < the overlay's < a knob given explicitly.
"""

from __future__ import annotations

from dataclasses import replace

from ..core.query import RetrievalContext
from .model import Overlay


def govern(ctx: RetrievalContext, overlay: Overlay | None) -> RetrievalContext:
    """``ctx`` under the overlay's forbidden sources and vocabulary (``None``: ``ctx`` as it is)."""
    if overlay is None:
        return ctx
    weight = overlay.vocabulary_weight
    weights = ctx.weights if weight is None else replace(ctx.weights, vocabulary=weight)
    return ctx.replace(governance=overlay.governance, weights=weights)
