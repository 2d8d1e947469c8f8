"""The flags of a retrieval, shared by ``query`` and ``context`` (CONTRACT sections 4 and 6), and ``eval``'s.

:func:`add_search_args` declares them, each from its row of :data:`amicus_desktop.knobs.KNOBS`
(:func:`add_knob_args`); :func:`request_from_args` makes the
:class:`~amicus_desktop.retrieval.request.SearchRequest` they describe; :func:`check_search_args` turns
what can be checked before any I/O into usage errors (exit 2); :func:`context_from_args` builds the
:class:`RetrievalContext` once the database's book ids are known (a ``--book`` or ``--chapter`` may name a
book only that database has). :func:`apply_preset` and :func:`apply_overlay` set the flags' values from a
preset and an overlay (sections 15 and 12) — a preset's value < an overlay's < a flag given explicitly.
argparse stays here: nothing outside ``cli/`` sees a ``Namespace``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..core.preset import CONTRACT, PRESETS, Preset
from ..core.query import Filters, RetrievalContext
from ..core.references import PassageRef
from ..knobs import KNOBS, Kind, Knob, KnobValueError, finite, preset_values
from ..notes import NotesError, NotesStore
from ..notes.marks import MarkChoice, chosen_passages
from ..notes.store import store_errors
from ..overlays import Overlay, OverlayError, read_overlay
from ..retrieval.request import TESTAMENTS, RequestError, SearchRequest
from .common import text_arg

__all__ = ["TESTAMENTS", "add_knob_args", "add_search_args", "check_search_args", "context_from_args",
           "request_from_args", "resolve_books"]


def finite_float(text: str) -> float:
    """An argparse type: a finite number ("nan" and "inf" are usage errors)."""
    try:
        return finite(text)
    except KnobValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_preset_arg(p: argparse.ArgumentParser) -> None:
    """``--preset app``: start from the app's configuration (CONTRACT section 15); explicit flags still win."""
    p.add_argument(
        "--preset", choices=sorted(PRESETS), default=CONTRACT.name,
        help="start from a whole configuration: 'app' is exactly what the desktop app does by default "
        "(hybrid search, its ranking policy); 'contract' (the default) is the contract's semantic search",
    )


def preset_defaults(preset: Preset) -> dict[str, object]:
    """The flag defaults a preset sets (the knobs' dests, :func:`~amicus_desktop.knobs.preset_values`)."""
    return {name: value for name, value in preset_values(preset).items() if name in _FLAG_DESTS}


def apply_preset(parser: argparse.ArgumentParser, argv: list[str] | None, args: argparse.Namespace,
                 ) -> argparse.Namespace:
    """``args`` parsed again with ``--preset``'s values as the defaults, so flags given explicitly win."""
    preset = PRESETS[getattr(args, "preset", CONTRACT.name)]
    if preset is CONTRACT:
        return args
    args.parser.set_defaults(**preset_defaults(preset))
    return parser.parse_args(argv)


def add_overlay_arg(p: argparse.ArgumentParser) -> None:
    """``--overlay FILE``: a role's overlay (CONTRACT section 12); explicit flags still win."""
    p.add_argument("--overlay", metavar="FILE", type=text_arg,
                   help="apply this role's overlay: its forbidden sources, vocabulary, preferred sources and "
                   "retrieval policy (flags given explicitly still win; see 'validate overlay')")
    p.set_defaults(overlay_sets_flags=True)


class _Unset(list[object]):
    """A default no parse leaves as it is: what tells a flag given from one left alone (an append action
    copies it and adds to the copy)."""


def given_flags(parser: argparse.ArgumentParser, argv: list[str] | None, sub: argparse.ArgumentParser,
                ) -> frozenset[str]:
    """The dests of ``sub``'s flags that ``argv`` gives explicitly (abbreviated and ``--flag=value`` forms
    included): ``argv`` parsed once more with a marker as every default, which only a given flag replaces."""
    saved = {a.dest: a.default for a in sub._actions}
    saved_defaults = dict(sub._defaults)
    marker = {a.dest: _Unset() for a in sub._actions if a.option_strings and a.dest != "help"}
    sub.set_defaults(**marker)
    try:
        parsed = parser.parse_args(argv)
    finally:
        for action in sub._actions:
            action.default = saved[action.dest]
        sub._defaults.clear()
        sub._defaults.update(saved_defaults)
    return frozenset(d for d in marker if not (isinstance(getattr(parsed, d, None), _Unset)
                                               and not getattr(parsed, d)))


def apply_overlay(parser: argparse.ArgumentParser, argv: list[str] | None, args: argparse.Namespace,
                  ) -> argparse.Namespace:
    """``args`` under ``--overlay``'s policy (flags given explicitly win); an overlay that cannot be read
    or is not valid is a usage error naming the JSON pointer of its first problem (exit 2)."""
    path = getattr(args, "overlay", None)
    if not path:
        return args
    try:
        overlay = read_overlay(path)
    except OverlayError as err:
        args.parser.error(f"--overlay: {err}")
    args.overlay_loaded = overlay
    args.overlay_folder = Path(path).parent
    return overlay_onto(args, overlay, given_flags(parser, argv, args.parser))


def overlay_onto(args: argparse.Namespace, overlay: Overlay, given: Collection[str] = ()) -> argparse.Namespace:
    """``args`` with the overlay's value for every knob whose flag the command has and ``given`` does not
    name (CONTRACT section 12; ``eval`` has no ``--k``), and its forbidden sources and vocabulary beside."""
    for name, value in overlay.flag_defaults().items():
        if name not in given and hasattr(args, name):
            setattr(args, name, list(value) if isinstance(value, (list, tuple)) else value)
    args.governance = overlay.governance
    return args


def loaded_overlay(args: argparse.Namespace) -> Overlay | None:
    """The overlay :func:`apply_overlay` read for these flags (``None``: none)."""
    overlay = getattr(args, "overlay_loaded", None)
    return overlay if isinstance(overlay, Overlay) else None


def knob_type(knob: Knob) -> Callable[[str], object] | None:
    """The argparse type of a knob's flag: its kind's reading, refusals as usage errors in its words."""
    if knob.kind is Kind.CHOICE:
        return None  # argparse's choices
    if knob.kind is Kind.TEXT:
        return text_arg

    def convert(text: str) -> object:
        try:
            return knob.parse(text)
        except KnobValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    convert.__name__ = knob.kind.value
    return convert


def add_knob_args(p: argparse.ArgumentParser, knobs: Iterable[Knob]) -> None:
    """A flag for each of ``knobs`` that has one, made from its row of
    :data:`~amicus_desktop.knobs.KNOBS` (type, choices, default, help, group)."""
    groups: dict[str | None, argparse.ArgumentParser | argparse._ArgumentGroup] = {None: p}
    for knob in knobs:
        if knob.flag is None:
            continue
        if knob.group not in groups:
            groups[knob.group] = p.add_argument_group(GROUPS[knob.group or ""])
        described = knob.described() + (" (repeatable)" if knob.repeatable and knob.group is None else "")
        options: dict[str, Any] = {"default": [] if knob.repeatable else knob.default, "help": described}
        if knob.repeatable:
            options["action"] = "append"
        if knob.choices:
            options["choices"] = knob.choices
        else:
            options["type"] = knob_type(knob)
        if knob.metavar:
            options["metavar"] = knob.metavar
        groups[knob.group].add_argument(knob.flag, **options)


#: the help groups of the flags
GROUPS = {"filters": "filters (repeatable; OR within one kind, AND across kinds)", "weights": "ranking weights"}
#: the knobs ``query`` and ``context`` take (every one with a flag)
SEARCH_KNOBS = tuple(k for k in KNOBS if k.flag)
_FLAG_DESTS = frozenset(k.name for k in SEARCH_KNOBS)


def add_search_args(p: argparse.ArgumentParser) -> None:
    """Mode, context, filters, pins, limits and weights of one retrieval."""
    add_preset_arg(p)
    add_overlay_arg(p)
    add_knob_args(p, SEARCH_KNOBS)


#: The filter flags and the :class:`Filters` kind each fills.
FILTER_FLAGS = {
    "--source-type": "source_types", "--book": "books", "--scholar": "scholars", "--tradition": "traditions",
}


def refuse_too_many_values(argv: Sequence[str], parser: argparse.ArgumentParser) -> None:
    """A usage error (exit 2) when a filter flag holds more distinct values than a search takes.

    Checked on the raw arguments, before argparse reads them: argparse takes time in proportion to
    the square of the number of options (40,000 ``--scholar`` flags took 35 s). ``validate_request``
    checks the same bound on the parsed filters.
    """
    values: dict[str, list[str]] = {kind: [] for kind in FILTER_FLAGS.values()}
    for i, arg in enumerate(argv):
        flag, eq, value = arg.partition("=")
        if flag in FILTER_FLAGS:
            if eq:
                values[FILTER_FLAGS[flag]].append(value)
            elif i + 1 < len(argv):
                values[FILTER_FLAGS[flag]].append(argv[i + 1])
    too_many = Filters.of(values["source_types"], values["books"], values["scholars"], values["traditions"]).too_many()
    if too_many is not None:
        parser.error(too_many)


def request_from_args(args: argparse.Namespace) -> SearchRequest:
    """The request the flags describe (a preset and an overlay already applied to them)."""
    values = {k.name: getattr(args, k.name) for k in KNOBS if k.flag and hasattr(args, k.name)}
    return SearchRequest.of(getattr(args, "text", ""), values, preset=getattr(args, "preset", CONTRACT.name),
                            governance=getattr(args, "governance", None))


def check_search_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Usage errors that need no database: limits, weights, the --chapter form, testaments (exit 2).

    They are :meth:`~amicus_desktop.retrieval.request.SearchRequest.check`'s rules."""
    try:
        request_from_args(args).check()
    except RequestError as exc:
        parser.error(str(exc))


def resolve_books(args: argparse.Namespace, known: Collection[str], parser: argparse.ArgumentParser) -> tuple[str, ...]:
    """``--book`` and ``--testament`` as book ids of ``known`` or the canon (an unknown book: exit 2)."""
    try:
        return request_from_args(args).books(known)
    except RequestError as exc:
        parser.error(str(exc))


def context_from_args(
    args: argparse.Namespace, known_books: Collection[str], parser: argparse.ArgumentParser
) -> RetrievalContext:
    """The retrieval the flags describe, with books resolved against the database's ``known_books``."""
    try:
        ctx = request_from_args(args).context(known_books)
    except RequestError as exc:
        parser.error(str(exc))
    if not getattr(args, "marks", None):
        return ctx
    return ctx.replace(filters=replace(ctx.filters, passages=marked_passages(args, parser)))


def marked_passages(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[PassageRef, ...]:
    """``--marks`` read in ``--workspace``'s store: the passages marked so (a usage error without a
    workspace, with a choice that is not one, or when the workspace marked none of them — a filter of no
    passages would search everything). The choices are never logged; the store's errors are NotesError."""
    if not args.workspace:
        parser.error("--marks: the marks are a workspace's; add --workspace W")
    try:
        choices = [MarkChoice.parse(text) for text in args.marks]
    except NotesError as exc:
        parser.error(f"--marks: {exc.message}")
    with store_errors(), NotesStore() as store:
        found = chosen_passages(store.workspace(args.workspace).marks(), choices)
    if not found:
        said = " or ".join(c.words() for c in choices)
        parser.error(f"--marks: workspace {args.workspace} has no passages marked as {said}")
    return tuple(found)
