"""One search request, whatever asked it: a frozen value per knob of :data:`~amicus_desktop.knobs.KNOBS`.

Built from ``query``'s flags (:func:`amicus_desktop.cli.search_args.request_from_args`), from the
service's and the MCP tools' ``(name, value)`` pairs (:meth:`SearchRequest.from_pairs`, through
:func:`amicus_desktop.serve.params.parse`), under an overlay (:meth:`SearchRequest.under`: what the
request did not give explicitly), from the app's settings (:meth:`SearchRequest.from_settings`) and from a
preset (:func:`~amicus_desktop.knobs.defaults`).
:meth:`SearchRequest.check` says what is wrong before any I/O (:func:`~.pipeline.validate_request`'s
rules, the ``chapter``'s form, testaments); :meth:`SearchRequest.context` makes the
:class:`~amicus_desktop.core.query.RetrievalContext` once the library's book ids are known (a book or
chapter may be one only that library names).

A refusal is a :class:`RequestError` that knows which knob it is about, so each face names it its own way
(``--book: …`` on the command line, ``filter.book: …`` from the service).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..core.books import BOOKS
from ..core.governance import Governance
from ..core.preset import CONTRACT, PRESETS
from ..core.query import Filters, Profile, RetrievalContext
from ..core.references import ChapterRef
from ..knobs import BY_NAME, BY_SETTING, KNOBS, Knob, KnobValueError, defaults
from ..understand import PassageError, parse_passage, resolve_book_name
from .pipeline import validate_request

if TYPE_CHECKING:
    from ..overlays import Overlay

#: ``testament`` values and the testament each names
TESTAMENTS = {"ot": "OT", "old": "OT", "nt": "NT", "new": "NT"}


class RequestError(ValueError):
    """A request that cannot be run: ``detail``, about ``knob`` when it is one knob's (``None``: the whole)."""

    def __init__(self, detail: str, knob: Knob | None = None, sep: str = ": ") -> None:
        super().__init__(detail)
        self.detail, self.knob, self.sep = detail, knob, sep

    def named(self, name_of: Callable[[Knob], str | None]) -> str:
        """The sentence with the knob called as a face calls it (``--book``, ``filter.book``)."""
        if self.knob is None:
            return self.detail
        return f"{name_of(self.knob) or self.knob.name}{self.sep}{self.detail}"

    def __str__(self) -> str:
        return self.named(lambda k: k.flag)


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, (list, tuple)) else value


@dataclass(frozen=True)
class SearchRequest:
    """The question and one value per knob (:data:`~amicus_desktop.knobs.KNOBS`; repeatable ones as tuples)."""

    query: str = ""
    values: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType(defaults()))
    #: the knobs the request gave explicitly: an overlay yields to these (CONTRACT section 12)
    given: frozenset[str] = frozenset()
    #: the preset whose ranking policy applies (``contract``: none)
    preset: str = CONTRACT.name
    #: an overlay's forbidden sources and vocabulary
    governance: Governance | None = None

    @classmethod
    def of(cls, query: str, values: Mapping[str, Any], *, given: Iterable[str] | None = None,
           preset: str = CONTRACT.name, base: Mapping[str, Any] | None = None,
           governance: Governance | None = None) -> SearchRequest:
        """``values`` (by knob name) over ``base`` (default: every knob's default under ``preset``)."""
        unknown = set(values) - set(BY_NAME)
        if unknown:
            raise KeyError(f"not knobs: {', '.join(sorted(unknown))}")
        merged = {**(base if base is not None else defaults(PRESETS[preset])),
                  **{name: _frozen(v) for name, v in values.items()}}
        return cls(query, MappingProxyType(merged), frozenset(values if given is None else given), preset,
                   governance)

    @classmethod
    def from_settings(cls, query: str, settings: Any, *, preset: str = "app") -> SearchRequest:
        """The request a reader's settings make: each knob's ``setting`` field of ``settings``, on ``preset``."""
        values = {knob.name: getattr(settings, name) for name, knob in BY_SETTING.items()}
        return cls.of(query, {n: v.value if isinstance(v, enum.Enum) else v for n, v in values.items()},
                      preset=preset)

    @classmethod
    def from_pairs(cls, query: str, items: Iterable[tuple[Knob, str]], *,
                   base: Mapping[str, Any] | None = None) -> SearchRequest:
        """Each knob's text read by its kind (a repeatable one's values gathered in order);
        :class:`RequestError` at the first that cannot be read (``k: invalid int value: 'ten'``)."""
        values: dict[str, Any] = {}
        for knob, text in items:
            try:
                value = knob.parse(text)
            except KnobValueError as exc:
                raise RequestError(str(exc), knob) from None
            values[knob.name] = (*values.get(knob.name, ()), value) if knob.repeatable else value
        return cls.of(query, values, base=base)

    def __getitem__(self, name: str) -> Any:
        return self.values[name]

    def under(self, overlay: Overlay) -> SearchRequest:
        """This request under ``overlay``: its policy and preferred sources for every knob not given
        explicitly, and its forbidden sources and vocabulary."""
        changes = {name: _frozen(v) for name, v in overlay.flag_defaults().items() if name not in self.given}
        return replace(self, values=MappingProxyType({**self.values, **changes}), governance=overlay.governance)

    def check(self) -> None:
        """:class:`RequestError` for what can be checked without the library: testaments, limits, weights,
        the fusion (:func:`~.pipeline.validate_request`) and the chapter's form."""
        for t in self["testament"]:
            if t.lower() not in TESTAMENTS:
                raise RequestError(f"takes OT or NT, not {t!r}", BY_NAME["testament"], sep=" ")
        try:
            validate_request(self._context(chapter=None, books=()))
            if self["chapter"] is not None:
                parse_passage(self["chapter"], check_bounds=False)
        except (ValueError, PassageError) as exc:
            raise RequestError(str(exc)) from None

    def books(self, known: Collection[str]) -> tuple[str, ...]:
        """The books and testaments as book ids of ``known`` or the canon (:class:`RequestError` if unknown)."""
        books: list[str] = []
        for name in self["book"]:
            book_id = resolve_book_name(name, known)
            if book_id is None:
                raise RequestError(f"no book of the Bible is called {name!r}", BY_NAME["book"])
            books.append(book_id)
        for t in self["testament"]:
            books += [b.book_id for b in BOOKS if b.testament == TESTAMENTS[t.lower()]]
        return tuple(dict.fromkeys(books))

    def context(self, known_books: Collection[str]) -> RetrievalContext:
        """The retrieval this request describes, books and chapter resolved against ``known_books``."""
        chapter = None
        if self["chapter"] is not None:
            try:
                chapter = parse_passage(self["chapter"], known_books, check_bounds=False).chapter_ref
            except PassageError as exc:
                raise RequestError(str(exc)) from None
        return self._context(chapter=chapter, books=self.books(known_books))

    def _context(self, *, chapter: ChapterRef | None, books: tuple[str, ...]) -> RetrievalContext:
        v = self.values
        ctx = RetrievalContext(
            query=self.query,
            profile=Profile.of(v["prefer_scholar"], v["prefer_tradition"]),
            chapter=chapter,
            filters=Filters.of(v["source_type"], books, v["scholar"], v["tradition"]),
            pins=tuple(dict.fromkeys(v["pin"])),
            policy=PRESETS[self.preset].policy,
            governance=self.governance,
        )
        for knob in KNOBS:
            if knob.target is not None:
                ctx = knob.put(ctx, v[knob.name])
        return ctx
