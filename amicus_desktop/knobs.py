"""Every setting a search request can carry, in one table: what each is called on every face, its type, its
range, its default and its help (README.md, "How to add a knob").

The faces are generated from :data:`KNOBS`: ``query``'s and ``context``'s flags and ``eval``'s
(:mod:`amicus_desktop.cli.search_args`), ``GET /retrieve``'s and the MCP tools' parameters and their checks
(:mod:`amicus_desktop.serve.params`), the MCP tools' signatures (:mod:`amicus_desktop.mcp.knob_args`), the
OpenAPI descriptions (:mod:`amicus_desktop.serve.openapi`), ``eval --compare``'s keys and an evaluation's
configuration (:class:`~amicus_desktop.evaluate.run.EvalConfig`), the weight search's space
(:mod:`amicus_desktop.evaluate.tuning.space`), an
overlay's ``retrieval_policy`` keys (:meth:`amicus_desktop.overlays.Overlay.flag_defaults`) and the
settings dialog's ranges. :class:`~amicus_desktop.retrieval.request.SearchRequest` holds one value per knob.

The table sits beside the settings, below every package that reads it (it imports only ``core``).

A knob with a ``target`` is a field of :class:`~amicus_desktop.core.query.RetrievalContext` (``k``) or of one
of its parts (``weights.chapter``): the same path reads and sets it on an
:class:`~amicus_desktop.evaluate.run.EvalConfig` and a :class:`~amicus_desktop.core.preset.Preset`, which
name their parts alike (an EvalConfig keeps a knob it has no part for in ``other_knobs``). Knobs without one
(the chapter, the filters, the pins) are read by :meth:`~amicus_desktop.retrieval.request.SearchRequest.context`
itself. Ranges are checked where they always were
(:func:`~amicus_desktop.retrieval.validate_request`); here they are described.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from .core.preset import CONTRACT
from .core.query import (
    DEFAULT_CANDIDATES,
    DEFAULT_K,
    MAX_BOOST,
    MAX_CANDIDATES,
    MAX_K,
    SOURCE_TYPES,
    USER_NOTE,
    FusionMethod,
    SearchMode,
)


class Kind(enum.Enum):
    """How a knob's value is written as text (a flag, a query parameter, a ``--compare`` value)."""

    WHOLE = "integer"
    NUMBER = "number"  # finite
    CAP = "cap"  # a whole number, or "none"
    CHOICE = "choice"
    TEXT = "text"


class KnobValueError(ValueError):
    """A value that is not of its knob's kind, said as a command line's parser says it
    (``invalid int value: 'ten'``)."""


#: the field where an object keeps the knobs it has no part for, as ``(name, value)`` pairs (:meth:`Knob.put`)
OTHERS = "other_knobs"

#: the most and the least a boost may be in the settings and the spin boxes that edit them (the contract
#: allows (0, 100]: a reader's dial stays in a range where each step still means something)
SETTINGS_BOOST = (0.1, 10.0)


@dataclass(frozen=True)
class Knob:
    """One setting of a search request, and its name on every face (``None``: not on that face)."""

    #: the request's key, and the flag's dest
    name: str
    kind: Kind
    #: the contract's default (what ``query`` uses without ``--preset``); ``()`` for a repeatable one
    default: Any
    #: one sentence for ``--help`` and the OpenAPI document; ``{default}`` and ``{lo}``/``{hi}`` are filled in
    help: str
    flag: str | None = None
    #: the ``GET /retrieve`` parameter, which the MCP tools write their arguments as
    param: str | None = None
    #: the MCP tools that take it as an argument of that name (:mod:`amicus_desktop.mcp.knob_args`)
    tools: tuple[str, ...] = ()
    #: the overlay's ``retrieval_policy`` key (``weights.chapter`` for one of its weights)
    overlay: str | None = None
    #: the :class:`~amicus_desktop.settings.Settings` field
    setting: str | None = None
    #: where the value lives in a RetrievalContext, an EvalConfig and a Preset (``weights.chapter``)
    target: str | None = None
    choices: tuple[str, ...] = ()
    #: other names the service accepts for a choice (``dense`` for ``semantic``)
    aliases: Mapping[str, str] = field(default_factory=dict)
    #: the enum the target holds (the value is its ``.value``)
    enum: type[enum.Enum] | None = None
    repeatable: bool = False
    #: the most values a repeatable knob may hold in one request, and what they are called in the refusal
    #: (the service refuses more while it first reads the pairs, before anything is parsed)
    most: int | None = None
    unit: str = ""
    #: the range of a number, as the contract bounds it (``low_open``: the low end excluded)
    lo: float | None = None
    hi: float | None = None
    low_open: bool = False
    #: the range the service refuses outside of with ``{param} must be between {lo} and {hi}``
    param_range: tuple[float, float] | None = None
    #: the range the settings and the settings dialog accept (``None``: the contract's)
    settings_range: tuple[float, float] | None = None
    #: the values the weight search tries, and the label of its column (empty: not searched)
    grid: tuple[Any, ...] = ()
    label: str = ""
    #: ``eval --compare`` takes it (as its flag without ``--``), and ``eval`` has its flag
    compare: bool = False
    #: the help group of its flag (``filters``, ``weights``), and the flag's metavar
    group: str | None = None
    metavar: str | None = None

    @property
    def key(self) -> str:
        """How ``eval --compare`` and the weight search spell it: the flag without ``--``."""
        return self.flag.removeprefix("--") if self.flag else self.name.replace("_", "-")

    def described(self, default: Any = None) -> str:
        """The help sentence with its numbers filled in (``default``: a face's own default, else the table's)."""
        shown = self.default if default is None else default
        return self.help.format(default=words(shown), lo=words(self.lo), hi=words(self.hi))

    def settings_bounds(self) -> tuple[float, float]:
        """The range the settings and the settings dialog accept: :attr:`settings_range`, else the contract's."""
        if self.settings_range is not None:
            return self.settings_range
        assert self.lo is not None and self.hi is not None, self.name
        return (self.lo, self.hi)

    def parse(self, text: str) -> Any:
        """``text`` as this knob's value (a choice by its name or an alias), or :class:`KnobValueError`."""
        if self.kind is Kind.WHOLE:
            return whole(text)
        if self.kind is Kind.NUMBER:
            return finite(text)
        if self.kind is Kind.CAP:
            return cap(text)
        if self.kind is Kind.CHOICE:
            value = self.aliases.get(text, text)
            if value not in self.choices:
                shown = ", ".join(repr(c) for c in self.choices)
                raise KnobValueError(f"invalid choice: {text!r} (choose from {shown})")
            return value
        return text

    def held(self, obj: Any) -> bool:
        """Whether ``obj`` has a place for this knob: the field its :attr:`target` starts with, or
        ``other_knobs``, where an :class:`~amicus_desktop.evaluate.run.EvalConfig` keeps the knobs it has no
        part for."""
        return self.target is not None and (hasattr(obj, self.target.partition(".")[0]) or hasattr(obj, OTHERS))

    def read(self, obj: Any) -> Any:
        """The value at :attr:`target` in ``obj`` (an enum as its value; in ``other_knobs``: its default unset)."""
        assert self.target is not None
        if not hasattr(obj, self.target.partition(".")[0]) and hasattr(obj, OTHERS):
            return dict(getattr(obj, OTHERS)).get(self.name, self.default)
        for part in self.target.split("."):
            obj = getattr(obj, part)
        return obj.value if isinstance(obj, enum.Enum) else obj

    def put(self, obj: Any, value: Any) -> Any:
        """``obj`` (a frozen dataclass) with ``value`` at :attr:`target` (or in its ``other_knobs``)."""
        assert self.target is not None
        head, _, rest = self.target.partition(".")
        if not hasattr(obj, head) and hasattr(obj, OTHERS):
            others = {**dict(getattr(obj, OTHERS)), self.name: value}
            return replace(obj, **{OTHERS: tuple(sorted(others.items()))})
        if self.enum is not None and value is not None:
            value = self.enum(value)
        if rest:
            value = replace(getattr(obj, head), **{rest: value})
        return replace(obj, **{head: value})


def words(value: Any) -> str:
    """A value as help and messages write it: ``1.5``, ``none``, ``semantic``."""
    if value is None:
        return "none"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise KnobValueError(f"invalid int value: {text!r}") from None


def finite(text: str) -> float:
    """A finite number ("nan" and "inf" are refused)."""
    try:
        value = float(text)
    except ValueError:
        raise KnobValueError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise KnobValueError(f"not a finite number: {text!r}")
    return value


def cap(text: str) -> int | None:
    """A whole number, or ``none`` for no cap."""
    if text.strip().lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise KnobValueError(f"not a whole number or 'none': {text!r}") from None


_W = CONTRACT.weights
_BOOST: dict[str, Any] = {"kind": Kind.NUMBER, "lo": 0.0, "hi": MAX_BOOST, "low_open": True,
                          "settings_range": SETTINGS_BOOST, "compare": True, "group": "weights", "metavar": "X"}
#: ``--source-type`` values: the library's types and the reader's notes ("My notes").
FILTER_SOURCE_TYPES = (*SOURCE_TYPES, USER_NOTE)

#: The table. Its order is the service's parameter order and the weight search's.
KNOBS: tuple[Knob, ...] = (
    Knob("k", Kind.WHOLE, DEFAULT_K, "results to return, {lo}..{hi} (default {default})", flag="--k",
         param="k", tools=("search_library",), overlay="k", setting="k", target="k", lo=1, hi=MAX_K),
    Knob("min_similarity", Kind.NUMBER, None, "reject candidates whose similarity is below X (semantic and "
         "hybrid)", flag="--min-similarity", param="threshold", overlay="min_similarity", target="min_similarity",
         lo=0.0, hi=1.0, param_range=(0.0, 1.0), metavar="X"),
    Knob("mode", Kind.CHOICE, SearchMode.SEMANTIC.value, "semantic (embed and search by meaning, the default), "
         "hybrid (meaning and words), keyword (words only; needs no embed proxy)", flag="--mode", param="mode",
         tools=("search_library", "get_context"), overlay="mode", setting="search_mode", target="mode",
         choices=tuple(m.value for m in SearchMode), aliases={"dense": SearchMode.SEMANTIC.value}, enum=SearchMode,
         compare=True),
    Knob("candidates", Kind.WHOLE, DEFAULT_CANDIDATES, "rows each search returns for re-ranking, k..{hi} "
         "(default {default})", flag="--candidates", param="candidates", overlay="candidates",
         setting="candidates", target="candidates", lo=1, hi=MAX_CANDIDATES, compare=True),
    Knob("chapter", Kind.TEXT, None, f"current chapter for the ×{_W.chapter:g} boost, e.g. romans:9",
         flag="--chapter", param="chapter", tools=("search_library", "get_context"), metavar="BOOK:CHAPTER"),
    Knob("prefer_scholar", Kind.TEXT, (), f"boost this scholar ×{_W.scholar:g}",
         flag="--prefer-scholar", param="prefer.scholar", repeatable=True, metavar="ID"),
    Knob("prefer_tradition", Kind.TEXT, (), f"boost this tradition ×{_W.tradition:g}",
         flag="--prefer-tradition", param="prefer.tradition", repeatable=True, metavar="NAME"),
    Knob("source_type", Kind.CHOICE, (), "only chunks of this type: " + ", ".join(FILTER_SOURCE_TYPES)
         + f" ({USER_NOTE}: the workspace's notes)", flag="--source-type", param="filter.source_type",
         choices=FILTER_SOURCE_TYPES, repeatable=True, group="filters", metavar="T"),
    Knob("book", Kind.TEXT, (), "only chunks on this book (a name or abbreviation, e.g. rom)", flag="--book",
         param="filter.book", repeatable=True, group="filters", metavar="B"),
    Knob("testament", Kind.TEXT, (), "only chunks on a book of the Old or New Testament (adds its books to "
         "--book)", flag="--testament", repeatable=True, group="filters", metavar="OT|NT"),
    Knob("scholar", Kind.TEXT, (), "only chunks by this scholar", flag="--scholar", param="filter.scholar",
         repeatable=True, group="filters", metavar="ID"),
    Knob("tradition", Kind.TEXT, (), "only chunks of this tradition", flag="--tradition",
         param="filter.tradition", repeatable=True, group="filters", metavar="NAME"),
    Knob("marks", Kind.TEXT, (), "only chunks on passages you marked in --workspace: bookmarks, highlights, or "
         "a label's (label:NAME, or the name)", flag="--marks", repeatable=True, group="filters", metavar="WHAT"),
    Knob("pin", Kind.TEXT, (), "show this chunk first, whatever its rank (in the order given)", flag="--pin",
         param="pin", repeatable=True, most=MAX_K, unit="chunks to pin", metavar="CHUNK_ID"),
    Knob("workspace", Kind.TEXT, None, "search this workspace's notes with the library (see "
         "'amicus-desktop notes')", flag="--workspace", target="workspace", metavar="W"),
    # the weights, in the order the weight search tries them
    Knob("chapter_boost", default=_W.chapter, help="multiplier for chunks on the current chapter, in "
         "(0, {hi}] (default {default})", flag="--chapter-boost", overlay="weights.chapter",
         setting="chapter_boost", target="weights.chapter", grid=(1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0),
         label="Chapter ×", **_BOOST),
    Knob("reference_boost", default=_W.reference, help="multiplier for chunks on a passage the question names "
         "(default {default})", flag="--reference-boost", overlay="weights.reference", setting="reference_boost",
         target="weights.reference", grid=(1.0, 1.1, 1.25, 1.5, 2.0), label="Reference ×", **_BOOST),
    Knob("scholar_boost", default=_W.scholar, help="multiplier for preferred scholars (default {default})",
         flag="--scholar-boost", overlay="weights.scholar", setting="scholar_boost", target="weights.scholar",
         grid=(1.0, 1.1, 1.25, 1.5), label="Scholar ×", **_BOOST),
    Knob("tradition_boost", default=_W.tradition, help="multiplier for preferred traditions (default {default})",
         flag="--tradition-boost", overlay="weights.tradition", setting="tradition_boost",
         target="weights.tradition", grid=(1.0, 1.05, 1.1, 1.25), label="Tradition ×", **_BOOST),
    Knob("scholar_cap", Kind.CAP, _W.per_scholar_cap, "at most N results per scholar, or 'none' (default "
         "{default})", flag="--scholar-cap", overlay="scholar_cap", setting="per_scholar_cap",
         target="weights.per_scholar_cap", lo=1, settings_range=(1, 50), grid=(1, 2, 3, 4, 5, None),
         label="Cap", compare=True, group="weights", metavar="N"),
    Knob("vocabulary_boost", default=_W.vocabulary, help="under an overlay: multiplier for chunks holding one of "
         "its boost terms (the reciprocal for a suppress term; default {default})", flag="--vocabulary-boost",
         overlay="weights.vocabulary", target="weights.vocabulary", **_BOOST),
    Knob("fusion", Kind.CHOICE, CONTRACT.fusion.method.value, "how hybrid fuses meaning and words (default "
         "{default})", flag="--fusion", setting="fusion", target="fusion.method",
         choices=tuple(f.value for f in FusionMethod), enum=FusionMethod, grid=tuple(f.value for f in FusionMethod),
         label="Fusion", compare=True, group="weights"),
    Knob("alpha", Kind.NUMBER, CONTRACT.fusion.alpha, "hybrid convex fusion: weight of the similarity, {lo}..{hi} "
         "(default {default})", flag="--alpha", setting="alpha", target="fusion.alpha", lo=0.0, hi=1.0,
         grid=(0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9), label="Fusion α", compare=True, group="weights", metavar="A"),
    Knob("spread", Kind.NUMBER, CONTRACT.policy.spread, "past the cap per source, each further chunk of the "
         "source × this factor once more, in (0, 1] (none: the contract's hard cap)", setting="spread",
         target="policy.spread", lo=0.0, hi=1.0, low_open=True, grid=(0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 1.0),
         label="Spread ×"),
    Knob("focus", Kind.NUMBER, CONTRACT.policy.focus, "with no chapter open and no passage named, the boost of "
         "the chapter the library's commentary centres on (none: off)", setting="focus_boost",
         target="policy.focus", lo=0.0, hi=MAX_BOOST, low_open=True, settings_range=SETTINGS_BOOST,
         grid=(None, 1.1, 1.2, 1.3, 1.5), label="Focus ×"),
)

BY_NAME: dict[str, Knob] = {k.name: k for k in KNOBS}
#: the knobs ``GET /retrieve`` and the MCP tools take, by parameter name
BY_PARAM: dict[str, Knob] = {k.param: k for k in KNOBS if k.param}
#: ``eval --compare``'s keys
BY_KEY: dict[str, Knob] = {k.key: k for k in KNOBS if k.compare}
#: ``retrieval_policy`` keys (``weights.chapter`` for a weight)
BY_OVERLAY: dict[str, Knob] = {k.overlay: k for k in KNOBS if k.overlay}
#: :class:`~amicus_desktop.settings.Settings` fields
BY_SETTING: dict[str, Knob] = {k.setting: k for k in KNOBS if k.setting}


def knob(name: str) -> Knob:
    return BY_NAME[name]


def preset_values(preset: Any) -> dict[str, Any]:
    """The knob values a :class:`~amicus_desktop.core.preset.Preset` (or an EvalConfig) holds."""
    out = {}
    others = dict(getattr(preset, OTHERS, ()))
    for k in KNOBS:
        if k.target is not None and (hasattr(preset, k.target.partition(".")[0]) or k.name in others):
            out[k.name] = k.read(preset)
    return out


def defaults(preset: Any = CONTRACT) -> dict[str, Any]:
    """Every knob's value in a request that gives none: the contract's, under ``preset``'s."""
    return {**{k.name: k.default for k in KNOBS}, **preset_values(preset)}
