"""How each saved setting is read from JSON: one coercer per kind of value. No Qt.

A coercer returns the value, raises ``TypeError``/``ValueError`` saying why it cannot be used (the
setting then falls back to its default, with a note for the user), or — for a list — raises
:class:`Kept` with the entries that could be kept: one bad pin or scholar costs only itself. The
options themselves (which setting uses which coercer) are :data:`amicus_desktop.settings.OPTIONS`.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from .core.query import SearchMode
from .http.urls import check_url
from .knobs import SETTINGS_BOOST, Kind, Knob
from .pin_scopes import PinScope


def text_or_none(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise TypeError("not a string")
    return value or None


def file_path(value: Any) -> str | None:
    path = text_or_none(value)
    if path is not None and ("\x00" in path or not is_text(path)):
        raise ValueError("not a file path: it holds a NUL byte or characters that are not text")
    return path


def base_url(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise TypeError("not a URL")
    return check_url(value)


class Kept(ValueError):
    """A list with some entries dropped: ``value`` is what was kept, the message says what went."""

    def __init__(self, value: tuple[Any, ...], message: str) -> None:
        super().__init__(message)
        self.value = value


def is_text(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate ("\ud800" in the JSON)
        return False
    return True


def entries(value: Any) -> tuple[str, ...]:
    """The good entries of a list of strings; :class:`Kept` when some were not (one bad entry
    never costs the others)."""
    if not isinstance(value, (list, tuple)):
        raise TypeError("not a list of strings")
    good = tuple(dict.fromkeys(v for v in value if isinstance(v, str) and v.strip() and is_text(v)))
    bad = sum(1 for v in value if not (isinstance(v, str) and v.strip() and is_text(v)))
    if bad:
        raise Kept(good, f"{bad} entr{'y was' if bad == 1 else 'ies were'} not text and "
                         f"{'was' if bad == 1 else 'were'} dropped; {len(good)} kept")
    return good


def name_set(value: Any) -> tuple[str, ...]:
    """A set of names, sorted (the profile's scholars and traditions)."""
    try:
        return tuple(sorted(entries(value)))
    except Kept as kept:
        raise Kept(tuple(sorted(kept.value)), str(kept)) from None


#: the least and the most a boost weight may be (the settings, the spin boxes that edit them; the table's)
BOOST_RANGE = SETTINGS_BOOST


def boost(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError("not a number")
    number = float(value)
    lo, hi = BOOST_RANGE
    if not math.isfinite(number) or not lo <= number <= hi:
        raise ValueError(f"must be between {lo:g} and {hi:g}")
    return number


def number_in(lo: float, hi: float, *, low_open: bool = False) -> Callable[[Any], float]:
    """A finite number in ``lo..hi`` (``(lo, hi]`` with ``low_open``)."""
    def coerce(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise TypeError("not a number")
        number = float(value)
        if not math.isfinite(number) or number > hi or number < lo or (low_open and number == lo):
            raise ValueError(f"must be {'more than' if low_open else 'at least'} {lo:g} and at most {hi:g}")
        return number

    return coerce


def or_none(coerce: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """``coerce``, or ``None`` for ``null`` (a rule switched off)."""
    def maybe(value: Any) -> Any:
        return None if value is None else coerce(value)

    return maybe


def int_in(lo: int, hi: int) -> Callable[[Any], int]:
    def coerce(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("not an integer")
        if not lo <= value <= hi:
            raise ValueError(f"must be between {lo} and {hi}")
        return value

    return coerce


def ordered_names(value: Any) -> tuple[str, ...]:
    """A list of strings in the user's order, duplicates dropped (pins: the first pinned stays first)."""
    return entries(value)


def pin_scopes(value: Any) -> tuple[PinScope, ...]:
    """The scopes of the pins that are not ``always`` (a pin with none is ``always``: older files have none);
    one bad entry is dropped (its pin becomes ``always``), not the list."""
    if not isinstance(value, (list, tuple)):
        raise TypeError("not a list of pin scopes")
    good: dict[str, PinScope] = {}
    bad = 0
    for entry in value:
        try:
            scope = PinScope.from_json(entry)
        except (TypeError, ValueError):
            bad += 1
            continue
        good.setdefault(scope.chunk_id, scope)
    if bad:
        raise Kept(tuple(good.values()), f"{bad} pin scope{' was' if bad == 1 else 's were'} not understood and "
                                         f"{'its pin applies' if bad == 1 else 'their pins apply'} to every question")
    return tuple(good.values())


def int_in_or_none(lo: int, hi: int) -> Callable[[Any], int | None]:
    def coerce(value: Any) -> int | None:
        return None if value is None else int_in(lo, hi)(value)

    return coerce


def choice(*allowed: str) -> Callable[[Any], str]:
    def coerce(value: Any) -> str:
        if value not in allowed:
            raise ValueError(f"must be one of {', '.join(allowed)}")
        return str(value)

    return coerce


def search_mode(value: Any) -> SearchMode:
    try:
        return SearchMode(value)
    except ValueError:
        raise ValueError(f"must be one of {', '.join(m.value for m in SearchMode)}") from None


def chapter(value: Any) -> str | None:
    if value is None:
        return None
    if not isinstance(value, str) or ":" not in value:
        raise TypeError("not BOOK:CHAPTER")
    book, _, chapter = value.rpartition(":")
    if not book or not chapter.isdigit() or int(chapter) < 1:
        raise ValueError("not BOOK:CHAPTER")
    return value


def of_knob(knob: Knob) -> Callable[[Any], Any]:
    """The coercer of a knob's setting, from its row of :data:`~amicus_desktop.knobs.KNOBS`: its
    kind and its settings range (a number whose contract default is ``None`` may be ``null``: off)."""
    if knob.kind is Kind.CHOICE:
        return choice(*knob.choices)
    lo, hi = knob.settings_bounds()
    if knob.kind is Kind.WHOLE:
        return int_in(int(lo), int(hi))
    if knob.kind is Kind.CAP:
        return int_in_or_none(int(lo), int(hi))
    coerce = boost if (lo, hi) == BOOST_RANGE else number_in(lo, hi, low_open=knob.low_open)
    return or_none(coerce) if knob.default is None else coerce
