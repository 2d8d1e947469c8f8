"""The app's retrieval context: how the reader's settings, chapter, search and overlay become the one
:class:`~amicus_desktop.core.query.RetrievalContext` a question is asked with (what ``--preset app`` reproduces
on the command line). No Qt."""

from __future__ import annotations

from ..core.query import Filters, RetrievalContext, SearchMode
from ..core.references import ChapterRef
from ..overlays import Overlay, govern
from ..retrieval.request import SearchRequest
from ..settings import Settings


def app_context(
    settings: Settings,
    query: str,
    *,
    chapter: ChapterRef | None = None,
    mode: SearchMode | None = None,
    filters: Filters = Filters(),
    pins: tuple[str, ...] = (),
    workspace: str | None = None,
    overlay: Overlay | None = None,
) -> RetrievalContext:
    """The app's retrieval for ``query`` under ``settings``: the reader's weights, cap, k and profile on the app
    preset's fusion and ranking policy (what ``--preset app`` reproduces on the command line) with the
    curator's fusion, spread factor and focus boost (the app preset's until a weight search is applied), under
    the ``overlay``'s forbidden sources and vocabulary (its preferred sources are the profile already; its
    retrieval policy is kept for the command line and the service, the reader's settings rule the app)."""
    s = settings
    ctx = SearchRequest.from_settings(query, s).context(())  # the knobs: weights, cap, k, fusion, policy
    return govern(ctx.replace(profile=s.profile, chapter=chapter, candidates=max(s.candidates, s.k),
                              mode=mode or s.search_mode, filters=filters, pins=pins, workspace=workspace),
                  overlay)


__all__ = ["app_context"]
