"""``GET /retrieve``'s parameters (CONTRACT section 9), checked by the same rules as ``query``'s flags.

A ranking rule or a limit that exists only here would be a bug, so the parameters are not checked
here at all: each one stands for a ``query`` flag (:data:`FLAGS`), and the flags' own parser
(:mod:`amicus_desktop.cli.search_args`) converts, bounds and cross-checks them, with a parser that
raises instead of exiting. What is the service's own is small: which names exist and which may be
repeated, ``mode=dense``, the default ``k`` of 5, ``threshold`` in 0..1, ``q`` over 2,000 characters
being its own code (``QUERY_TOO_LONG``, 413), and the ``workspace`` and ``overlay`` names.

:func:`parse` turns a list of ``(name, value)`` pairs — a query string, or the MCP tools' arguments
written the same way — into :class:`RetrieveParams`; :meth:`RetrieveParams.context` makes the
:class:`~amicus_desktop.core.query.RetrievalContext` once the library's book ids are known (a book
or chapter may be one only that library names). Errors are :class:`~.errors.ServiceError`.
"""

from __future__ import annotations

import argparse
import copy
import functools
import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from typing import NoReturn

from ..cli.search_args import add_search_args, check_search_args, context_from_args
from ..core.errors import AmicusError
from ..core.query import MAX_FILTER_VALUES, MAX_K, MAX_QUERY_CHARS, RetrievalContext
from ..notes import model as notes_model
from ..overlays import Overlay, apply_to_args
from ..retrieval import validate_query
from .errors import ServiceCode, ServiceError, bad_request

#: Each parameter that stands for a ``query`` flag, and that flag.
FLAGS: dict[str, str] = {
    "k": "--k",
    "threshold": "--min-similarity",
    "mode": "--mode",
    "candidates": "--candidates",
    "chapter": "--chapter",
    "prefer.scholar": "--prefer-scholar",
    "prefer.tradition": "--prefer-tradition",
    "filter.source_type": "--source-type",
    "filter.book": "--book",
    "filter.scholar": "--scholar",
    "filter.tradition": "--tradition",
    "pin": "--pin",
}
#: Parameters that may be given more than once (where the flag may).
REPEATABLE = frozenset({"prefer.scholar", "prefer.tradition", "filter.source_type", "filter.book",
                        "filter.scholar", "filter.tradition", "pin"})
#: Values all repeatable parameters of one request may hold together (a filter kind takes at most as
#: many distinct ones, the library's own bound). The flags' parser takes time in proportion to the
#: square of the number of flags (10,000 ``pin=`` values held the event loop for 2.8 s), so more are
#: refused while the pairs are first read, before anything is parsed.
MAX_REPEATED = MAX_FILTER_VALUES
#: flags handed to the flags' parser at once (see :func:`_parse_in_slices`)
PARSE_SLICE = 50
#: ``pin`` values one request may hold: a pin is a result shown first, so as many as ``k`` may be.
MAX_PINS = MAX_K
#: Every parameter ``GET /retrieve`` takes.
NAMES: tuple[str, ...] = ("q", *FLAGS, "workspace", "overlay")
#: ``mode`` values: the service's ``dense`` is ``query``'s ``semantic`` (which is accepted too).
MODES: dict[str, str] = {"dense": "semantic", "semantic": "semantic", "hybrid": "hybrid", "keyword": "keyword"}
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

    args: argparse.Namespace
    workspace: str | None = None
    overlay: str | None = None
    #: the parameters the request named (an overlay's policy yields to these; CONTRACT section 12)
    given: frozenset[str] = frozenset()

    @property
    def query(self) -> str:
        return str(self.args.text)

    @property
    def k(self) -> int:
        return int(self.args.k)

    @property
    def given_flags(self) -> frozenset[str]:
        """The ``query`` flags (argparse dests) the request gave explicitly: an overlay yields to these."""
        return frozenset(FLAGS[name].removeprefix("--").replace("-", "_") for name in self.given if name in FLAGS)

    def under(self, overlay: Overlay) -> RetrieveParams:
        """These parameters under ``overlay`` (those given explicitly win), checked again as a whole
        (400 when the overlay's policy and the request cannot go together: candidates below k, say)."""
        args = apply_to_args(copy.deepcopy(self.args), overlay, self.given_flags)
        try:
            check_search_args(args, _parser())
        except _Refusal as exc:
            raise bad_request(f"Under the overlay {overlay.role_id!r}: {exc.message}") from None
        return replace(self, args=args)

    def context(self, known_books: Collection[str]) -> RetrievalContext:
        """The retrieval these parameters describe, books resolved against the library's (400 if unknown)."""
        parser = _parser()
        try:
            return context_from_args(self.args, known_books, parser)
        except _Refusal as exc:
            raise bad_request(exc.message) from None


class _Refusal(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = _in_service_terms(message)


class _Parser(argparse.ArgumentParser):
    """``query``'s flag parser, raising :class:`_Refusal` where the command line would exit 2."""

    def error(self, message: str) -> NoReturn:
        raise _Refusal(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise _Refusal(message or "the parameters could not be read")


@functools.cache
def _parser() -> _Parser:
    p = _Parser(prog="retrieve", add_help=False, allow_abbrev=False)
    add_search_args(p)
    return p


_PARAM_OF_FLAG = {flag: name for name, flag in FLAGS.items()}
_FLAG = re.compile(r"--[a-z][a-z-]*")


def _in_service_terms(message: str) -> str:
    """A refusal of the flag parser named in parameters (``argument --k: …`` → ``k: …``), kept short."""
    message = message.replace("argument --", "--")
    message = _FLAG.sub(lambda m: _PARAM_OF_FLAG.get(m.group(0), m.group(0)), message)
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 1] + "…"


def _shown(name: str) -> str:
    """A parameter name as a message may repeat it (it is the caller's text: bounded, quoted)."""
    return repr(name if len(name) <= 40 else name[:39] + "…")


def parse(items: Iterable[tuple[str, str]]) -> RetrieveParams:
    """Check ``(name, value)`` pairs (a query string in order) and return what they ask.

    Refusals, in this order: an unknown or repeated name, more than :data:`MAX_REPEATED` values of the
    repeatable parameters or :data:`MAX_PINS` pins (400 ``BAD_REQUEST``, found in one linear pass over the
    pairs, so a request of 10,000 pins costs no more than reading it); no or an empty ``q``
    (400 ``QUERY_INVALID``); ``q`` longer than 2,000 characters (413 ``QUERY_TOO_LONG``); a value the
    flag would refuse, ``threshold`` outside 0..1, a bad workspace id or overlay name (400).
    """
    given: dict[str, list[str]] = {}
    repeated = 0
    for name, value in items:
        if name not in NAMES:
            raise bad_request(f"Unknown parameter {_shown(name)}. The parameters are: {', '.join(NAMES)}.")
        values = given.setdefault(name, [])
        if values and name not in REPEATABLE:
            raise bad_request(f"The parameter {name} is given more than once.")
        values.append(value)
        if name in REPEATABLE:
            repeated += 1
            if repeated > MAX_REPEATED:
                raise bad_request(f"A request may hold at most {MAX_REPEATED:,} values of the repeatable "
                                  "parameters (filters, preferences and pins) in all.")
            if name == "pin" and len(values) > MAX_PINS:
                raise bad_request(f"A request may pin at most {MAX_PINS} chunks.")
    q = given.get("q", [""])[0]
    if len(q) > MAX_QUERY_CHARS:
        raise ServiceError(ServiceCode.QUERY_TOO_LONG,
                           f"The question is {len(q):,} characters long; the limit is {MAX_QUERY_CHARS:,}.")
    try:
        validate_query(q)  # no or empty q: QUERY_INVALID, before anything else is looked at
    except AmicusError as err:
        raise ServiceError.of(err) from None

    argv: list[str] = []
    for name, values in given.items():
        if name not in FLAGS:
            continue
        for value in values:
            if name == "mode":
                if value not in MODES:
                    raise bad_request(f"mode must be one of {', '.join(MODES)}, not {_shown(value)}.")
                value = MODES[value]
            argv.append(f"{FLAGS[name]}={value}")  # "--flag=value": a value starting with "-" stays a value
    parser = _parser()
    try:
        args = _parse_in_slices(parser, argv)
        args.text = q
        if "k" not in given:
            args.k = DEFAULT_K
        check_search_args(args, parser)
    except _Refusal as exc:
        raise bad_request(exc.message) from None
    if args.min_similarity is not None and not 0.0 <= args.min_similarity <= 1.0:
        raise bad_request(f"threshold must be between 0 and 1, not {args.min_similarity:g}.")
    return RetrieveParams(args, _workspace(given.get("workspace")), _overlay(given.get("overlay")), frozenset(given))


def _parse_in_slices(parser: _Parser, argv: list[str]) -> argparse.Namespace:
    """``parser.parse_args(argv)``, :data:`PARSE_SLICE` flags at a time into one namespace (a repeatable
    flag's values append to those of the slices before): argparse takes time in proportion to the square
    of the number of flags it is given at once, so 1,000 values took 0.13 s; in slices it is linear.
    Every item is one ``--flag=value`` and a flag that is not repeatable comes once, so the result is
    the same."""
    args = parser.parse_args(argv[:PARSE_SLICE])
    for start in range(PARSE_SLICE, len(argv), PARSE_SLICE):
        parser.parse_args(argv[start:start + PARSE_SLICE], namespace=args)
    return args


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
