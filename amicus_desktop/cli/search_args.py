"""The flags of a retrieval, shared by ``query`` and ``context`` (CONTRACT sections 4 and 6).

:func:`add_search_args` declares them; :func:`check_search_args` turns what can be checked before any
I/O into usage errors (exit 2); :func:`context_from_args` builds the :class:`RetrievalContext` once
the database's book ids are known (a ``--book`` or ``--chapter`` may name a book only that database has).
:func:`apply_preset` and :func:`apply_overlay` set the flags' values from a preset and an overlay
(sections 15 and 12) — a preset's value < an overlay's < a flag given explicitly.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Collection, Sequence
from pathlib import Path

from ..core.books import BOOKS
from ..core.preset import CONTRACT, PRESETS, Preset
from ..core.query import (
    DEFAULT_CANDIDATES,
    DEFAULT_K,
    MAX_BOOST,
    MAX_CANDIDATES,
    MAX_K,
    SOURCE_TYPES,
    USER_NOTE,
    BoostWeights,
    Filters,
    Fusion,
    FusionMethod,
    Profile,
    RetrievalContext,
    SearchMode,
)
from ..core.references import ChapterRef
from ..overlays import Overlay, OverlayError, apply_to_args, read_overlay
from ..retrieval import validate_request
from ..understand import PassageError, parse_passage, resolve_book_name
from .common import text_arg

#: ``--source-type`` values: the library's types and the reader's notes ("My notes").
FILTER_SOURCE_TYPES = (*SOURCE_TYPES, USER_NOTE)
TESTAMENTS = {"ot": "OT", "old": "OT", "nt": "NT", "new": "NT"}


def finite_float(text: str) -> float:
    """An argparse type: a finite number ("nan" and "inf" are usage errors)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite number: {text!r}")
    return value


def cap_value(text: str) -> int | None:
    """An argparse type: a whole number, or ``none`` for no cap."""
    if text.strip().lower() == "none":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number or 'none': {text!r}") from None


def add_preset_arg(p: argparse.ArgumentParser) -> None:
    """``--preset app``: start from the app's configuration (CONTRACT section 15); explicit flags still win."""
    p.add_argument(
        "--preset", choices=sorted(PRESETS), default=CONTRACT.name,
        help="start from a whole configuration: 'app' is exactly what the desktop app does by default "
        "(hybrid search, its ranking policy); 'contract' (the default) is the contract's semantic search",
    )


def preset_defaults(preset: Preset) -> dict[str, object]:
    """The flag defaults a preset sets (the dests of :func:`add_search_args` and of ``eval``'s flags)."""
    w = preset.weights
    return {
        "mode": preset.mode.value, "k": preset.k, "candidates": preset.candidates,
        "chapter_boost": w.chapter, "scholar_boost": w.scholar, "tradition_boost": w.tradition,
        "reference_boost": w.reference, "scholar_cap": w.per_scholar_cap,
        "fusion": preset.fusion.method.value, "alpha": preset.fusion.alpha,
    }


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
    return apply_to_args(args, overlay, given_flags(parser, argv, args.parser))


def loaded_overlay(args: argparse.Namespace) -> Overlay | None:
    """The overlay :func:`apply_overlay` read for these flags (``None``: none)."""
    overlay = getattr(args, "overlay_loaded", None)
    return overlay if isinstance(overlay, Overlay) else None


def add_search_args(p: argparse.ArgumentParser) -> None:
    """Mode, context, filters, pins, limits and weights of one retrieval."""
    w = BoostWeights()
    add_preset_arg(p)
    add_overlay_arg(p)
    p.add_argument(
        "--mode", choices=[m.value for m in SearchMode], default=SearchMode.SEMANTIC.value,
        help="semantic (embed and search by meaning, the default), hybrid (meaning and words), "
        "keyword (words only; needs no embed proxy)",
    )
    p.add_argument(
        "--chapter", metavar="BOOK:CHAPTER", type=text_arg,
        help=f"current chapter for the ×{w.chapter:g} boost, e.g. romans:9",
    )
    p.add_argument("--prefer-scholar", metavar="ID", type=text_arg, action="append", default=[],
                   help=f"boost this scholar ×{w.scholar:g} (repeatable)")
    p.add_argument("--prefer-tradition", metavar="NAME", type=text_arg, action="append", default=[],
                   help=f"boost this tradition ×{w.tradition:g} (repeatable)")
    filters = p.add_argument_group("filters (repeatable; OR within one kind, AND across kinds)")
    filters.add_argument("--source-type", metavar="T", action="append", default=[], choices=FILTER_SOURCE_TYPES,
                         help="only chunks of this type: " + ", ".join(FILTER_SOURCE_TYPES)
                         + f" ({USER_NOTE}: the --workspace's notes)")
    filters.add_argument("--book", metavar="B", type=text_arg, action="append", default=[],
                         help="only chunks on this book (e.g. rom)")
    filters.add_argument("--testament", metavar="OT|NT", type=text_arg, action="append", default=[],
                         help="only chunks on a book of the Old or New Testament (adds its books to --book)")
    filters.add_argument("--scholar", metavar="ID", type=text_arg, action="append", default=[],
                         help="only chunks by this scholar")
    filters.add_argument(
        "--tradition", metavar="NAME", type=text_arg, action="append", default=[], help="only chunks of this tradition"
    )
    p.add_argument("--workspace", metavar="W", type=text_arg,
                   help="search this workspace's notes with the library (see 'amicus-desktop notes')")
    p.add_argument("--pin", metavar="CHUNK_ID", type=text_arg, action="append", default=[],
                   help="show this chunk first, whatever its rank (repeatable, in order)")
    p.add_argument("--k", type=int, default=DEFAULT_K, help=f"results to return, 1..{MAX_K} (default {DEFAULT_K})")
    p.add_argument(
        "--candidates", type=int, default=DEFAULT_CANDIDATES,
        help=f"rows each search returns for re-ranking, k..{MAX_CANDIDATES} (default {DEFAULT_CANDIDATES})",
    )
    p.add_argument("--min-similarity", type=finite_float, metavar="X",
                   help="reject candidates whose similarity is below X (semantic and hybrid)")
    weights = p.add_argument_group("ranking weights")
    weights.add_argument("--chapter-boost", type=finite_float, default=w.chapter, metavar="X",
                         help=f"multiplier for chunks on the current chapter, in (0, {MAX_BOOST:g}] "
                         f"(default {w.chapter:g})")
    weights.add_argument("--scholar-boost", type=finite_float, default=w.scholar, metavar="X",
                         help=f"multiplier for preferred scholars (default {w.scholar:g})")
    weights.add_argument("--tradition-boost", type=finite_float, default=w.tradition, metavar="X",
                         help=f"multiplier for preferred traditions (default {w.tradition:g})")
    weights.add_argument("--reference-boost", type=finite_float, default=w.reference, metavar="X",
                         help=f"multiplier for chunks on a passage the question names (default {w.reference:g})")
    weights.add_argument("--scholar-cap", type=cap_value, default=w.per_scholar_cap, metavar="N",
                         help=f"at most N results per scholar, or 'none' (default {w.per_scholar_cap})")
    add_vocabulary_arg(weights)
    weights.add_argument("--fusion", choices=[f.value for f in FusionMethod], default=Fusion().method.value,
                         help="how hybrid fuses meaning and words (default %(default)s)")
    weights.add_argument("--alpha", type=finite_float, default=Fusion().alpha, metavar="A",
                         help="hybrid convex fusion: weight of the similarity, 0..1 (default %(default)s)")


def add_vocabulary_arg(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    w = BoostWeights()
    p.add_argument("--vocabulary-boost", type=finite_float, default=w.vocabulary, metavar="X",
                   help="under an overlay: multiplier for chunks holding one of its boost terms (the reciprocal "
                   f"for a suppress term; default {w.vocabulary:g})")


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
    too_many = Filters.of(**values).too_many()
    if too_many is not None:
        parser.error(too_many)


def weights_from_args(args: argparse.Namespace) -> BoostWeights:
    return BoostWeights(
        chapter=args.chapter_boost, scholar=args.scholar_boost, tradition=args.tradition_boost,
        per_scholar_cap=args.scholar_cap, reference=args.reference_boost, vocabulary=args.vocabulary_boost,
    )


def check_search_args(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Usage errors that need no database: limits, weights, the --chapter form, testaments (exit 2).

    Limits, weights and the fusion are :func:`~amicus_desktop.retrieval.validate_request`'s rules."""
    for t in args.testament:
        if t.lower() not in TESTAMENTS:
            parser.error(f"--testament takes OT or NT, not {t!r}")
    try:
        validate_request(_context(args, chapter=None, books=()))
        if args.chapter is not None:
            parse_passage(args.chapter, check_bounds=False)
    except (ValueError, PassageError) as exc:
        parser.error(str(exc))


def resolve_books(args: argparse.Namespace, known: Collection[str], parser: argparse.ArgumentParser) -> tuple[str, ...]:
    """``--book`` and ``--testament`` as book ids of ``known`` or the canon (an unknown book: exit 2)."""
    books: list[str] = []
    for name in args.book:
        book_id = resolve_book_name(name, known)
        if book_id is None:
            parser.error(f"--book: no book of the Bible is called {name!r}")
        books.append(book_id)
    for t in args.testament:
        books += [b.book_id for b in BOOKS if b.testament == TESTAMENTS[t.lower()]]
    return tuple(dict.fromkeys(books))


def context_from_args(
    args: argparse.Namespace, known_books: Collection[str], parser: argparse.ArgumentParser
) -> RetrievalContext:
    """The retrieval the flags describe, with books resolved against the database's ``known_books``."""
    chapter = None
    if args.chapter is not None:
        chapter = parse_passage(args.chapter, known_books, check_bounds=False).chapter_ref
    return _context(args, chapter=chapter, books=resolve_books(args, known_books, parser))


def _context(args: argparse.Namespace, *, chapter: ChapterRef | None, books: tuple[str, ...]) -> RetrievalContext:
    return RetrievalContext(
        query=args.text,
        profile=Profile.of(args.prefer_scholar, args.prefer_tradition),
        chapter=chapter,
        k=args.k,
        candidates=args.candidates,
        min_similarity=args.min_similarity,
        weights=weights_from_args(args),
        mode=SearchMode(args.mode),
        filters=Filters.of(args.source_type, books, args.scholar, args.tradition),
        pins=tuple(dict.fromkeys(args.pin)),
        fusion=Fusion(FusionMethod(args.fusion), args.alpha),
        policy=PRESETS[args.preset].policy,
        workspace=args.workspace,
        governance=getattr(args, "governance", None),
    )
