"""``GET /passage`` and ``GET /verses`` (CONTRACT section 9, project extensions): reading the Bible text.

``/passage?ref=Romans+9:6-13`` answers a reference's verses as the MCP tool ``read_passage`` does
(:mod:`.passage`); ``/verses?q=...`` is ``amicus-desktop verses --json`` (section 14) over HTTP: the same
engine (:class:`~amicus_desktop.verses.VerseSearch` on one of the service's lanes), the same body, no
ranking rule of the service's own. Their parameters are read here as ``/retrieve``'s are: an unknown or
repeated name is a 400, ``q`` over 2,000 characters a 413, no ``q`` a ``QUERY_INVALID``; ``filter.book`` and
``testament`` are the request model's (:class:`~amicus_desktop.retrieval.request.SearchRequest`), ``mode``
takes ``/retrieve``'s values (``dense`` is ``semantic``). Both take ``workspace`` so a token scoped to
workspaces is refused another one (403) as it is on ``/retrieve``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ..core.errors import AmicusError
from ..core.query import MAX_QUERY_CHARS, SearchMode
from ..knobs import KnobValueError, whole
from ..retrieval import validate_query
from ..retrieval.request import RequestError, SearchRequest
from ..verses import VerseQuery
from ..verses.model import DEFAULT_K, MAX_K
from .errors import ServiceCode, ServiceError, bad_request
from .params import MODES, WORKSPACE_ID, gather, shown

#: ``GET /passage``'s parameters
PASSAGE_NAMES: tuple[str, ...] = ("ref", "translation", "workspace")
#: ``GET /verses``'s parameters, and those that may be repeated
VERSES_NAMES: tuple[str, ...] = ("q", "mode", "k", "filter.book", "testament", "translation", "workspace")
VERSES_REPEATABLE = frozenset({"filter.book", "testament"})
#: characters of a translation id or abbreviation accepted
MAX_TRANSLATION = 40


def _gather(items: Iterable[tuple[str, str]], names: tuple[str, ...],
            repeatable: Collection[str] = ()) -> dict[str, list[str]]:
    given = gather(items, names, repeatable, "filter.book and testament")
    workspace = given.get("workspace")
    if workspace is not None and not WORKSPACE_ID.fullmatch(workspace[0]):
        raise bad_request("workspace must be 1–64 characters of a-z, 0-9 and '-'.")
    return given


@dataclass(frozen=True)
class PassageParams:
    ref: str
    workspace: str | None = None
    translation: str | None = None


def parse_passage_params(items: Iterable[tuple[str, str]]) -> PassageParams:
    given = _gather(items, PASSAGE_NAMES)
    if "ref" not in given:
        raise bad_request("Give the passage as ref, such as ref=Romans 9:6-13 or ref=John 3.")
    translation = given.get("translation", [None])[0]
    if translation is not None and not 0 < len(translation) <= MAX_TRANSLATION:
        raise bad_request(f"translation must be a translation's id or abbreviation (1–{MAX_TRANSLATION} characters).")
    return PassageParams(given["ref"][0], given.get("workspace", [None])[0], translation)


@dataclass(frozen=True)
class VersesParams:
    """A verse search asked over HTTP, its books still to resolve against the library's."""

    q: str
    mode: SearchMode
    k: int
    request: SearchRequest
    translation: str | None = None
    workspace: str | None = None

    def query(self, known_books: Collection[str]) -> VerseQuery:
        """The :class:`VerseQuery`, books resolved against ``known_books`` (400 if one is unknown)."""
        try:
            books = self.request.books(known_books)
        except RequestError as exc:
            raise bad_request(exc.named(lambda knob: knob.param or knob.name)) from None
        return VerseQuery(self.q, self.mode, books, self.k, self.translation)


def parse_verses_params(items: Iterable[tuple[str, str]]) -> VersesParams:
    given = _gather(items, VERSES_NAMES, VERSES_REPEATABLE)
    q = given.get("q", [""])[0]
    if len(q) > MAX_QUERY_CHARS:
        raise ServiceError(ServiceCode.QUERY_TOO_LONG,
                           f"The question is {len(q):,} characters long; the limit is {MAX_QUERY_CHARS:,}.")
    try:
        validate_query(q)
    except AmicusError as err:
        raise ServiceError.of(err) from None
    mode_text = given.get("mode", ["hybrid"])[0]
    if mode_text not in MODES:
        raise bad_request(f"mode must be one of {', '.join(MODES)}, not {shown(mode_text)}.")
    try:
        k = whole(given["k"][0]) if "k" in given else DEFAULT_K
    except KnobValueError as exc:
        raise bad_request(f"k: {exc}") from None
    if not 1 <= k <= MAX_K:
        raise bad_request(f"k must be between 1 and {MAX_K}, not {k}.")
    translation = given.get("translation", [None])[0]
    if translation is not None and not 0 < len(translation) <= MAX_TRANSLATION:
        raise bad_request(f"translation must be a translation's id or abbreviation (1–{MAX_TRANSLATION} characters).")
    request = SearchRequest.of(q, {"book": tuple(given.get("filter.book", ())),
                                   "testament": tuple(given.get("testament", ()))})
    try:
        request.check()
    except RequestError as exc:
        raise bad_request(exc.named(lambda knob: knob.param or knob.name)) from None
    return VersesParams(q, SearchMode(MODES[mode_text]), k, request, translation,
                        given.get("workspace", [None])[0])
