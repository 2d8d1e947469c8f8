"""Words for what the engine computed: boosts, breakdowns, rejections, rank moves, timings. No Qt.

The UI never recomputes a score; these functions only put the engine's numbers into sentences, so
every boost and every rejection is written out, never conveyed by colour alone. A score's factors have
their own words (:mod:`.factors`: labels, formula, "why" sentences); numbers in words are :mod:`.formats`'
(named here too).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

from ..core.governance import ForbiddenRule
from ..core.names import DEFAULT_NAMES, Names
from ..core.query import USER_NOTE, BoostWeights, Filters, RankingPolicy, RetrievalContext, SearchMode
from ..core.results import (
    RejectedChunk,
    RejectReason,
    RetrievalResult,
)
from . import titles
from .bounds import and_more
from .formats import BASE_NAMES as BASE_NAMES
from .formats import fmt_boost as fmt_boost
from .formats import fmt_score as fmt_score
from .formats import ordinal as ordinal
from .sentences import shorten

if TYPE_CHECKING:  # only named in signatures: the CLI uses these words without loading the session
    from ..context import Context
    from ..pin_scopes import PinScope
    from ..session import ResultView

#: What each kind of chunk is called: one home, ``present.titles`` (citations use the same words).
source_label = titles.source_label


def weights_text(w: BoostWeights, policy: RankingPolicy | None = None) -> str:
    """The weights in force, every one written out: "chapter ×1.5, scholar ×1.1, …, at most 2 per scholar"
    (under the app's spread: "…, past 3 per source each ×0.85")."""
    spread = policy.spread if policy is not None else None
    if w.per_scholar_cap is None:
        cap = "no cap per scholar"
    elif spread is not None:
        cap = f"past {w.per_scholar_cap} per source each {fmt_boost(spread)}"
    else:
        cap = f"at most {w.per_scholar_cap} per scholar"
    return (f"chapter {fmt_boost(w.chapter)}, scholar {fmt_boost(w.scholar)}, tradition {fmt_boost(w.tradition)}, "
            f"reference {fmt_boost(w.reference)}, {cap}")


def mode_title(mode: SearchMode) -> str:
    """``Hybrid search`` (results headers, the mode switch's tooltips)."""
    return f"{mode.label} search"


MODE_HELP = {
    SearchMode.SEMANTIC: "Semantic: finds passages whose meaning is close to the question (needs the embed proxy).",
    SearchMode.HYBRID: "Hybrid: meaning and words together, fused into one score (needs the embed proxy).",
    SearchMode.KEYWORD: "Keyword: finds passages holding the question's words (works offline).",
}


def move_text(rank: int, previous: Mapping[str, int] | None, chunk_id: str) -> tuple[str, str, int]:
    """(short text, sentence, sort value) for how a result's rank moved in the last re-rank."""
    if previous is None:
        return "", "", 0
    before = previous.get(chunk_id)
    if before is None:
        return "new", "New in the top results", 1000
    delta = before - rank
    if delta > 0:
        return f"▲ {delta}", f"Up {delta} (was #{before})", delta
    if delta < 0:
        return f"▼ {-delta}", f"Down {-delta} (was #{before})", delta
    return "=", f"Unchanged (#{before})", 0


def cause_text(cause: str) -> str:
    return {
        "chapter": "the chapter changed",
        "profile": "the profile changed",
        "settings": "the settings changed",
        "pins": "the pins changed",
        "overlay": "the overlay changed",
    }.get(cause, "")


def reject_reason(
    rej: RejectedChunk,
    ctx: RetrievalContext | None,
    cutoff_position: int | None = None,
    names: Names | None = None,
) -> str:
    """Why a candidate is not shown: "3rd chunk by matthew-henry: scholar cap"; for a forbidden source, which
    rule of which overlay removed it (the scholar by ``names``' display name)."""
    if rej.reason is RejectReason.FORBIDDEN_SOURCE:
        return forbidden_reason(rej, ctx, names)
    if rej.reason is RejectReason.SCHOLAR_CAP:
        nth = ordinal(rej.nth_by_scholar) if rej.nth_by_scholar else "another"
        cap = ctx.weights.per_scholar_cap if ctx else 2
        return f"{nth} chunk by {rej.candidate.metadata.scholar_id}: scholar cap (at most {cap} per scholar)"
    if rej.reason is RejectReason.BELOW_CUTOFF:
        k = ctx.k if ctx else 10
        where = f"{ordinal(cutoff_position)} after the cap" if cutoff_position else "past the cut-off"
        return f"{where}: below the top-{k} cut-off"
    if rej.reason is RejectReason.BELOW_THRESHOLD:
        floor = f"{ctx.min_similarity:.2f}" if ctx and ctx.min_similarity is not None else "the minimum"
        return f"similarity {rej.similarity:.4f} is below {floor}: below threshold"
    return str(rej.reason)


def forbidden_reason(rej: RejectedChunk, ctx: RetrievalContext | None, names: Names | None = None) -> str:
    """"forbidden by the overlay 'pastor': C. I. Scofield is one of its forbidden scholars" — in words; the rule's
    JSON pointer into the overlay file stays in the bundle (``rule``), for whoever fixes the file."""
    role = ctx.governance.role_id if ctx is not None and ctx.governance is not None else "in use"
    if rej.rule is ForbiddenRule.SCHOLAR:
        sid = rej.candidate.metadata.scholar_id or ""
        who = names.scholar(sid).name if names is not None else sid
        what = f"{who} is one of its forbidden scholars"
    else:
        what = f"{source_label(rej.candidate.source_type).lower()} is one of its forbidden kinds of source"
    return f"forbidden by the overlay {role!r}: {what}"


def reject_short(rej: RejectedChunk) -> str:
    return {
        RejectReason.SCHOLAR_CAP: "scholar cap",
        RejectReason.BELOW_CUTOFF: "below cut-off",
        RejectReason.BELOW_THRESHOLD: "below threshold",
        RejectReason.FORBIDDEN_SOURCE: "forbidden by the overlay",
    }.get(rej.reason, str(rej.reason))


def cutoff_positions(rejected: tuple[RejectedChunk, ...] | list[RejectedChunk], k: int) -> dict[str, int]:
    """For ``below_cutoff`` rejections: their position among the survivors of the cap (k+1, k+2, …)."""
    out: dict[str, int] = {}
    n = k
    for rej in rejected:
        if rej.reason is RejectReason.BELOW_CUTOFF:
            n += 1
            out[rej.chunk_id] = n
    return out


def not_shown(reason: str) -> str:
    return f"Not shown: {reason}."


def never_scored(similarity: float) -> str:
    """For a candidate dropped below the similarity floor (it has no breakdown)."""
    return (f"Similarity {similarity:.4f} was below the minimum, so no boost was applied "
            "and it was dropped before ranking.")


# -- a result set as a whole --------------------------------------------------------------------
def asked_time(view: ResultView) -> str:
    return time.strftime("%H:%M:%S", time.localtime(view.asked_at))


def results_title(view: ResultView, names: Names | None = None, workspace: str = "") -> str:
    """The header over the results: the question they answer, their size, the mode that made them
    ("Hybrid search"), the chapter they are ranked for (which stays when the reader only looks elsewhere;
    named by ``names``, left out without them) or "ranked for the whole library" when the reader turned the
    open chapter off for this question, that the overlay's boost words counted though they are set for every
    question (not only where the question relates), the time, and the workspace whose notes were searched
    with the library."""
    r = view.result
    chapter = r.context.chapter if r.context is not None else None
    ranked = f" · ranked for {names.chapter(chapter)}" if chapter is not None and names is not None else ""
    if ranked and chapter_set_aside(view):
        ranked = f" · {names.chapter(chapter)} {SET_ASIDE}"  # type: ignore[union-attr]
    if view.whole_library:
        ranked = f" · {WHOLE_LIBRARY}"
    gov = r.context.governance if r.context is not None else None
    if gov is not None and gov.vocabulary_everywhere and any(x.breakdown.vocabulary_boost > 1.0 for x in r.results):
        ranked += f" · {gov.role_id}'s words weighed in every question"
    return (f"“{shorten(r.query, 90)}” — {len(r.results)} results from {len(r.candidates)} candidates "
            f"· {mode_title(r.mode)}{ranked} · asked {asked_time(view)}" + (f" · in {workspace}" if workspace else ""))


#: The results header's words for an answer the reader asked of the whole library (the open chapter off).
WHOLE_LIBRARY = "ranked for the whole library"
#: … and after the open chapter's name when the ranking set it aside: the question is not about it.
SET_ASIDE = "set aside (not about this question)"
#: The ask bar's context while the question on screen is ranked for the whole library.
WHOLE_LIBRARY_CONTEXT = "whole library"


def chapter_set_aside(view: ResultView) -> bool:
    """Whether the app's ranking set the open chapter aside for this answer (``chapter_off_topic``, or the focus
    chapter boosted in its place), as the breakdowns of the ranked and the dropped results show."""
    breakdowns = [*(r.breakdown for r in view.result.results), *(r.breakdown for r in view.result.rejected)]
    return any(b is not None and (b.chapter_off_topic or b.chapter_focus) for b in breakdowns)


def chapter_toggle_text(chapter: str | None) -> str:
    """The results header's toggle: "Rank for Romans 8" (checked: the open chapter counts)."""
    return f"Rank for {chapter}" if chapter else "Rank for the open chapter"


def chapter_toggle_help(chapter: str | None, whole_library: bool, keys: str = "") -> str:
    """The toggle's tooltip: what it does now, that the choice is for this question only, and its keys."""
    where = chapter or "the open chapter"
    now = (f"This question is ranked for the whole library: {where} counts no more than any other chapter."
           if whole_library else f"This question is ranked for {where}: its passages count more.")
    how = f" {keys} turns it {'on' if whole_library else 'off'}." if keys else ""
    return f"{now}{how} The choice is for this question only: the next question is ranked for {where} again."


def pin_scope_text(scope: PinScope, names: Names | None = None) -> str:
    """Where a pin applies, after "pinned": "for John 3", "for questions like “born again”", "for every
    question"."""
    if scope.scope == "passage" and scope.chapter is not None:
        return f"for {names.chapter(scope.chapter) if names is not None else scope.anchor}"
    if scope.scope == "question":
        return f"for questions like “{shorten(scope.anchor, 40)}”"
    return "for every question"


def pin_scope_short(scope: PinScope, names: Names | None = None) -> str:
    """The results table's Move cell of a pinned row: "Pinned for John 3", "Pinned: like this", "Pinned always"."""
    if scope.scope == "passage":
        return f"Pinned {pin_scope_text(scope, names)}"
    return "Pinned: like this" if scope.scope == "question" else "Pinned always"


def pin_choices(question: str, chapter: str | None) -> list[tuple[str, str]]:
    """A result's pin entries, the narrow one first: (scope, words) for questions like ``question``, for the
    open ``chapter`` (when one is open), for every question."""
    out = [("question", f"Pin for questions like “{shorten(question, 40)}”")] if question.strip() else []
    if chapter:
        out.append(("passage", f"Pin for {chapter} (while it is open)"))
    out.append(("always", "Pin for every question"))
    return out


def tab_titles(view: ResultView | None) -> tuple[str, str]:
    """The Results and Rejected tabs' titles, with counts when there is a result."""
    if view is None:
        return "Results", "Rejected"
    return f"Results ({len(view.result.results)})", f"Rejected ({len(view.result.rejected)})"


def rerank_note(view: ResultView, names: Names, undo_keys: str = "") -> str | None:
    """What a re-rank changed, e.g. "Re-ranked for John 1 from the same 40 candidates …", and the key that
    undoes it (``None`` after a fresh answer)."""
    if view.previous_ranks is None or view.cause == "ask":
        return None
    r = view.result
    moved = sum(1 for x in r.results if view.previous_ranks.get(x.chunk_id) != x.rank)
    if view.cause == "pins":
        return (f"Asked again with your pins ({len(r.trace.pins)} pinned, shown first): {moved} of "
                f"{len(r.results)} ranks changed. The Move column shows how (▲ up, ▼ down).")
    chapter = r.context.chapter if r.context else None
    if view.cause == "overlay" and asked_anew(view):
        return (f"Asked again under {overlay_name(r.context)}: {moved} of {len(r.results)} ranks changed. "
                "The Move column shows how (▲ up, ▼ down).")
    what = {
        "library": "for the whole library (this question only)" if view.whole_library
        else f"for {names.chapter(chapter) if chapter else 'no chapter'} again",
        "chapter": f"for {names.chapter(chapter) if chapter else 'no chapter'}",
        "profile": "for your new profile",
        "settings": "with the new ranking settings",
        "overlay": f"under {overlay_name(r.context)}",
    }[view.cause]
    undo = f" {undo_keys} undoes it." if undo_keys and view.undoable else ""
    return (f"Re-ranked {what} from the same {len(r.candidates)} candidates (no new search): "
            f"{moved} of {len(r.results)} ranks changed. The Move column shows how (▲ up, ▼ down).{undo}")


def asked_anew(view: ResultView) -> bool:
    """Whether the answer on screen was searched for (a question, new pins, an overlay whose words changed)
    rather than re-ranked from kept candidates."""
    return view.cause in ("ask", "pins") or (view.cause == "overlay" and view.result.timings.search > 0)


def timings_text(view: ResultView) -> str:
    t = view.result.timings
    if asked_anew(view):
        embed = VECTOR_REUSED if view.result.trace.embedding_cached else f"embed {t.embed:.0f} ms"
        return f"{embed} · search {t.search:.0f} ms · rerank {t.rerank:.1f} ms · total {t.total:.0f} ms"
    return f"re-rank {t.rerank:.2f} ms (no embed, no search)"


#: The status bar's word for an answer whose question vector came from the session cache.
VECTOR_REUSED = "vector reused, no embed"


# -- how this was searched (the diagnostics panel) ----------------------------------------------
ORIGIN_LABELS = {"dense": "by meaning (dense)", "keyword": "by words (keyword)", "reference": "by reference",
                 "word": "where the word is used (word bridge)", "quote": "on a verse the question quotes"}
REASON_LABELS = {"below_threshold": "below the similarity threshold", "scholar_cap": "over the per-scholar cap",
                 "below_cutoff": "below the top-k cut-off", "forbidden_source": "from a source the overlay forbids"}


def overlay_name(ctx: RetrievalContext | None) -> str:
    """"the overlay 'pastor'", or "no overlay" (``no_overlay``: the library as it is)."""
    return f"the overlay {ctx.governance.role_id!r}" if ctx is not None and ctx.governance is not None \
        else "no overlay"


def _counts(counts: Mapping[str, int], labels: Callable[[str], str]) -> str:
    return ", ".join(f"{n} {labels(key)}" for key, n in counts.items() if n) or "none"


def searched_rows(result: RetrievalResult, names: Names = DEFAULT_NAMES) -> list[tuple[str, str]]:
    """*How this was searched*: (label, value) rows from the bundle's trace, diagnostics and timings."""
    tr, d, t = result.trace, result.diagnostics, result.timings
    refs = and_more([names.passage(r) for r in tr.references])
    f = tr.filters
    filters = "; ".join(f"{name}: {', '.join(values)}" for name, values in (
        ("source types", f.source_types), ("books", f.books), ("scholars", f.scholars), ("traditions", f.traditions),
    ) if values)
    if tr.mode.embeds:
        vector = ("reused from this session's cache (no embed)" if tr.embedding_cached
                  else f"embedded by the proxy ({t.embed:.0f} ms)")
    else:
        vector = "none (keyword search makes no vector)"
    keywords = ", ".join(tr.keywords) or "none"
    timings = (f"embed {t.embed:.0f} ms · search {t.search:.1f} ms (dense {t.dense:.1f}, keyword {t.keyword:.1f}, "
               f"references {t.references:.1f}) · rerank {t.rerank:.2f} ms · total {t.total:.0f} ms")
    return [
        ("Mode", tr.mode.label),
        ("Overlay", tr.overlay or "none (the library as it is)"),
        ("References", refs or "none detected"),
        ("Filters", filters or "none"),
        ("Pins", and_more(tr.pins) or "none"),
        ("Keywords", keywords + (f" (index: {tr.keyword_index})" if tr.keyword_index else "")),
        ("Candidates", f"{d.candidates} pooled of {tr.candidates_requested} asked per search"),
        ("Found", _counts(d.by_origin, lambda k: ORIGIN_LABELS.get(k, k))),
        ("By source type", _counts(d.by_source_type, lambda k: source_label(k).lower())),
        ("Rejected", _counts(d.rejected_by_reason, lambda k: REASON_LABELS.get(k, k))),
        ("Question vector", vector),
        ("Timings", timings),
    ]


# -- what leaves the app --------------------------------------------------------------------------
def context_copied(ctx: Context) -> str:
    """The status after *Copy as Amicus context*: "Copied 7 chunks, 3,912 tokens (3 dropped to fit 8,000)"."""
    n = len(ctx.included)
    text = f"Copied {n} chunk{'s' if n != 1 else ''}, {ctx.used_tokens:,} tokens"
    if ctx.cut is not None:
        text += f" (the only chunk was cut to fit {ctx.budget:,})"
    elif ctx.dropped:
        text += f" ({len(ctx.dropped)} dropped to fit {ctx.budget:,})"
    return text


def ask_status(view: ResultView) -> str:
    """Beside the question box: the answer's size and time (nothing after a re-rank)."""
    asked = asked_anew(view)
    return f"{len(view.result.results)} results · {view.result.timings.total:.0f} ms" if asked else ""


def filters_summary(filters: Filters, names: Names, marked: str | None = None) -> str:
    """``Searching only: Section note · Romans · C. I. Scofield`` (OR within a kind, AND across kinds);
    ``marked`` says which of the reader's marked passages (``my bookmarks (3 passages)``), else they are
    named."""
    if not filters.active:
        return "No filters: the whole library is searched."
    parts = []
    if filters.source_types:
        labels = ["My notes" if t == USER_NOTE else source_label(t) for t in filters.source_types]
        parts.append(_some(labels, "source types"))
    if filters.books:
        parts.append(_some([names.book(b) for b in filters.books], "books"))
    if filters.scholars:
        parts.append(_some([names.scholar(s).name for s in filters.scholars], "scholars"))
    if filters.traditions:
        parts.append(_some(list(filters.traditions), "traditions"))
    if filters.passages:
        parts.append(marked or _some([p.label(names.book(p.book_id)) for p in filters.passages], "marked passages"))
    return "Searching only: " + " · ".join(parts)


def _some(labels: list[str], what: str, most: int = 3) -> str:
    """``a or b``; past ``most``, ``5 books``."""
    return " or ".join(labels) if len(labels) <= most else f"{len(labels)} {what}"
