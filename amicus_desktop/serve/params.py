"""``GET /retrieve``'s parameters (CONTRACT section 9), checked by the same rules as ``query``'s flags.

A ranking rule or a limit that exists only here would be a bug, so the parameters are not checked
here at all: each one is a knob of the table (:data:`~amicus_desktop.knobs.KNOBS`, its
``param``), read by its kind and checked as a whole by
:meth:`~amicus_desktop.retrieval.request.SearchRequest.check`, as ``query``'s flags are. What is the
service's own is small: which names exist and which may be repeated, the ``mode=dense`` alias's
sentence, the default ``k`` of 5, a knob's ``param_range`` (``threshold`` in 0..1), ``q`` over 2,000
characters being its own code (``QUERY_TOO_LONG``, 413), and the ``workspace`` and ``overlay`` names.

:func:`parse` turns a list of ``(name, value)`` pairs — a query string, or the MCP tools' arguments
written the same way — into :class:`RetrieveParams`; :meth:`RetrieveParams.context` makes the
:class:`~amicus_desktop.core.query.RetrievalContext` once the library's book ids are known (a book
or chapter may be one only that library names). Errors are :class:`~.errors.ServiceError`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field, replace

from ..core.errors import AmicusError
from ..core.query import MAX_FILTER_VALUES, MAX_K, MAX_QUERY_CHARS, RetrievalContext
from ..knobs import BY_PARAM, Knob, defaults, words
from ..notes import model as notes_model
from ..overlays import Overlay
from ..retrieval import validate_query
from ..retrieval.request import RequestError, SearchRequest
from .errors import ServiceCode, ServiceError, bad_request

#: Parameters that may be given more than once.
REPEATABLE = frozenset(name for name, knob in BY_PARAM.items() if knob.repeatable)
#: Values all repeatable parameters of one request may hold together (a filter kind takes at most as
#: many distinct ones, the library's own bound): more are refused while the pairs are first read, so a
#: request of 10,000 pins costs no more than reading it. A knob's own cap is its ``most`` (``pin``: k's).
MAX_REPEATED = MAX_FILTER_VALUES
#: ``pin`` values one request may hold: a pin is a result shown first, so as many as ``k`` may be (the pin
#: knob's ``most``).
MAX_PINS: int = BY_PARAM["pin"].most or MAX_K
#: Every parameter ``GET /retrieve`` takes: the question, the knobs', the service's own.
NAMES: tuple[str, ...] = ("q", *BY_PARAM, "workspace", "overlay")
#: ``mode`` values: the service's ``dense`` is ``query``'s ``semantic`` (which is accepted too).
MODES: dict[str, str] = {**BY_PARAM["mode"].aliases, **{m: m for m in BY_PARAM["mode"].choices}}
DEFAULT_K = 5
#: CONTRACT section 11: a workspace id is 1–64 characters of ``[a-z0-9-]``.
WORKSPACE_ID = notes_model.WORKSPACE_ID  # one rule, the notes store's
#: An overlay is a file name in ``--overlays DIR`` without ``.json``: no folders, no leading dot.
OVERLAY_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}")
#: How much of a refusal's sentence is kept (a value is echoed; it may be long).
MAX_MESSAGE = 300


@dataclass(frozen=True)
class RetrieveParams:
    """One request's parameters, checked as far as they can be without the library."""

    request: SearchRequest = field(default_factory=SearchRequest)
    workspace: str | None = None
    overlay: str | None = None
    #: the parameters the request named
    given: frozenset[str] = frozenset()

    @property
    def query(self) -> str:
        return self.request.query

    @property
    def k(self) -> int:
        return int(self.request["k"])

    def under(self, overlay: Overlay) -> RetrieveParams:
        """These parameters under ``overlay`` (those given explicitly win), checked again as a whole
        (400 when the overlay's policy and the request cannot go together: candidates below k, say)."""
        request = self.request.under(overlay)
        try:
            request.check()
        except RequestError as exc:
            raise bad_request(f"Under the overlay {overlay.role_id!r}: {_in_service_terms(exc)}") from None
        return replace(self, request=request)

    def context(self, known_books: Collection[str]) -> RetrievalContext:
        """The retrieval these parameters describe, books resolved against the library's (400 if unknown)."""
        try:
            return self.request.context(known_books)
        except RequestError as exc:
            raise bad_request(_in_service_terms(exc)) from None


#: a request of at most this many parameters and characters is checked on the event loop (:func:`is_small`)
SMALL_ITEMS = 16
SMALL_CHARS = 2048


def is_small(items: Sequence[tuple[str, str]]) -> bool:
    """Whether a request is small enough to check at once on the event loop — a question and a few parameters,
    well under a millisecond — rather than on a worker thread, whose hop costs more of the interpreter lock than
    such a check; 1,000 filter values still go to a thread (issue 30, item 1)."""
    return len(items) <= SMALL_ITEMS and sum(len(k) + len(v) for k, v in items) <= SMALL_CHARS


def _in_service_terms(exc: RequestError) -> str:
    """A refusal with its knob named as a parameter (``filter.book: …``), kept short."""
    message = exc.named(lambda knob: knob.param)
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def shown(name: str) -> str:
    """A parameter name as a message may repeat it (it is the caller's text: bounded, quoted)."""
    return repr(name if len(name) <= 40 else name[:39] + "…")


def parse(items: Iterable[tuple[str, str]]) -> RetrieveParams:
    """Check ``(name, value)`` pairs (a query string in order) and return what they ask.

    Refusals, in this order: an unknown or repeated name, more than :data:`MAX_REPEATED` values of the
    repeatable parameters or more than a knob's ``most`` (:data:`MAX_PINS` pins) (400 ``BAD_REQUEST``, found
    in one linear pass over the pairs); no or an empty ``q``
    (400 ``QUERY_INVALID``); ``q`` longer than 2,000 characters (413 ``QUERY_TOO_LONG``); a value its
    knob refuses, ``threshold`` outside 0..1, a bad workspace id or overlay name (400).
    """
    given = gather(items, NAMES, REPEATABLE, "the repeatable parameters (filters, preferences and pins) in all",
                   _most)
    q = given.get("q", [""])[0]
    if len(q) > MAX_QUERY_CHARS:
        raise ServiceError(ServiceCode.QUERY_TOO_LONG,
                           f"The question is {len(q):,} characters long; the limit is {MAX_QUERY_CHARS:,}.")
    try:
        validate_query(q)  # no or empty q: QUERY_INVALID, before anything else is looked at
    except AmicusError as err:
        raise ServiceError.of(err) from None

    pairs: list[tuple[Knob, str]] = []
    for name, values in given.items():
        knob = BY_PARAM.get(name)
        if knob is None:
            continue
        for value in values:
            if knob.aliases and value not in knob.aliases and value not in knob.choices:
                raise bad_request(f"{name} must be one of "
                                  f"{', '.join((*knob.aliases, *knob.choices))}, not {shown(value)}.")
            pairs.append((knob, value))
    try:
        request = SearchRequest.from_pairs(q, pairs, base={**defaults(), "k": DEFAULT_K})
        request.check()
    except RequestError as exc:
        raise bad_request(_in_service_terms(exc)) from None
    for name in given:
        knob = BY_PARAM.get(name)
        if knob is not None and knob.param_range is not None:
            lo, hi = knob.param_range
            if not lo <= request[knob.name] <= hi:
                raise bad_request(f"{name} must be between {words(lo)} and {words(hi)}, "
                                  f"not {words(request[knob.name])}.")
    return RetrieveParams(request, _workspace(given.get("workspace")), _overlay(given.get("overlay")),
                          frozenset(given))


def _workspace(values: list[str] | None) -> str | None:
    if values is None:
        return None
    if not WORKSPACE_ID.fullmatch(values[0]):
        raise bad_request("workspace must be 1–64 characters of a-z, 0-9 and '-'.")
    return values[0]


def _overlay(values: list[str] | None) -> str | None:
    if values is None:
        return None
    if not OVERLAY_NAME.fullmatch(values[0]):
        raise bad_request("overlay must be the name of a file in the service's overlays folder, without "
                          "'.json' (letters, digits, '.', '_' and '-'; no folders).")
    return values[0]


def _most(name: str) -> tuple[int, str] | None:
    most = BY_PARAM[name].most if name in BY_PARAM else None
    return (most, BY_PARAM[name].unit or name) if most is not None else None


def gather(items: Iterable[tuple[str, str]], names: Collection[str], repeatable: Collection[str], what: str,
           most: Callable[[str], tuple[int, str] | None] = lambda _name: None) -> dict[str, list[str]]:
    """The values of each parameter, in one linear pass over the pairs (every endpoint's first check): an unknown
    name, a single-value parameter given twice, more than :data:`MAX_REPEATED` repeated values in all (``what``
    names them) or more than a parameter's ``most`` are a 400 ``BAD_REQUEST``."""
    given: dict[str, list[str]] = {}
    repeated = 0
    for name, value in items:
        if name not in names:
            raise bad_request(f"Unknown parameter {shown(name)}. The parameters are: {', '.join(names)}.")
        values = given.setdefault(name, [])
        if values and name not in repeatable:
            raise bad_request(f"The parameter {name} is given more than once.")
        values.append(value)
        if name in repeatable:
            repeated += 1
            if repeated > MAX_REPEATED:
                raise bad_request(f"A request may hold at most {MAX_REPEATED:,} values of {what}.")
            cap = most(name)
            if cap is not None and len(values) > cap[0]:
                raise bad_request(f"A request may give at most {cap[0]} {cap[1]}.")
    return given
