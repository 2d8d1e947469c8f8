"""The JSON Schemas the project ships (``resources/schemas/``), and their problems in words. No Qt.

Three schemas (draft 2020-12), each checked by ``jsonschema`` rather than by hand-written code:

=============================  ==============================================================
``corpus-document``            one line of an ``ingest`` corpus (CONTRACT section 13)
``overlay``                    a role's overlay (section 12)
``bundle``                     what ``query --json`` prints (sections 4, 6, 7, 12 and 15)
=============================  ==============================================================

:func:`problems` lists every problem of a value as a :class:`Problem` — the JSON pointer of the place
at fault and a sentence (``/retrieval_policy/k: must be at most 50, not 80``) — each sentence once, in the
order the value holds its fields (a missing field after those present), or with ``by_path`` in the order
of the pointers (the ingest report's order). The sentences quote at most a few dozen characters of the value.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # jsonschema is imported when a document is first checked: the app starts without it
    from jsonschema import Draft202012Validator, ValidationError

from .files import read_small
from .resources import resource_path

#: the shipped schemas, by name (``resources/schemas/<name>.schema.json``)
NAMES = ("corpus-document", "overlay", "bundle")
_TYPE_WORDS = {"integer": "a whole number", "string": "text", "array": "a list", "object": "an object",
               "null": "null", "number": "a number", "boolean": "true or false"}
#: what a failed ``pattern`` means, for the patterns the schemas use (else the pattern is quoted)
_PATTERN_WORDS = {"^\\S+$": "must not contain spaces", "\\S": "must not be blank",
                  "^\\S(.*\\S)?$": "must not begin or end with a space",
                  "^[a-z0-9][a-z0-9._-]{0,63}$": "must be 1–64 characters of a-z, 0-9, '.', '_' and '-', "
                                                  "starting with a letter or digit"}


@dataclass(frozen=True)
class Problem:
    """One problem of a value: where (a JSON pointer; ``/`` for the whole value) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "message": self.message}


class NotJson(ValueError):
    """A file that is not JSON text: its problem (at ``/``, or where it holds a number JSON does not
    have), and with ``problems`` every such place."""

    def __init__(self, problem: Problem, *more: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
        self.problems = (problem, *more)


class _NonFinite(str):
    """Where a file held ``NaN``, ``Infinity`` or a number too large for a float (``1e999``)."""


def _finite_float(text: str) -> float | _NonFinite:
    value = float(text)
    return value if math.isfinite(value) else _NonFinite(text)


def _non_finite(value: object, at: list[object]) -> Iterator[Problem]:
    if isinstance(value, _NonFinite):
        yield Problem(pointer(at), f"{quote(str(value), 24)[1:-1]} is not a finite number; JSON numbers must be finite")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _non_finite(item, [*at, key])
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _non_finite(item, [*at, i])


def loads(text: str) -> object:
    """JSON text a person wrote (an overlay, a golden set, an ingest line, a notes export), strictly.

    The one JSON reader for such files: Python's reader also takes ``NaN``, ``Infinity`` and
    ``-Infinity``, which JSON does not have, and reads ``1e999`` as infinity — a ``"vocabulary": NaN``
    then passed every range check of the schema (NaN compares false with everything) and failed only when
    used. Each such number is :class:`NotJson` with its JSON pointer (the first one; all in
    ``NotJson.problems``). ``json.JSONDecodeError``, ``RecursionError`` and ``ValueError`` (a number of
    more than 4,300 digits) are raised as by :func:`json.loads`, for the caller to word.
    """
    seen: list[bool] = []

    def constant(name: str) -> _NonFinite:
        seen.append(True)
        return _NonFinite(name)

    def number(name: str) -> float | _NonFinite:
        value = _finite_float(name)
        if isinstance(value, _NonFinite):
            seen.append(True)
        return value

    data = json.loads(text, parse_constant=constant, parse_float=number)
    if seen:
        raise NotJson(*_non_finite(data, []))
    return data


def read_json(path: str | os.PathLike[str], limit: int) -> object:
    """The JSON value in the regular file at ``path`` (at most ``limit`` bytes; a byte-order mark is
    skipped): :class:`NotJson` when it is not UTF-8 JSON (``NaN`` and ``Infinity`` are not: see
    :func:`loads`), ``OSError`` when it cannot be read."""
    raw = read_small(path, limit)
    try:
        return loads(raw.decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError as exc:
        raise NotJson(Problem("/", f"not UTF-8 text (byte {exc.start + 1})")) from None
    except json.JSONDecodeError as exc:
        raise NotJson(Problem("/", f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")) from None
    except RecursionError:
        raise NotJson(Problem("/", "not JSON (nested too deeply)")) from None
    except NotJson:
        raise
    except ValueError as exc:  # an integer of more than 4,300 digits
        raise NotJson(Problem("/", f"not JSON ({quote(str(exc), 80)[1:-1]})")) from None


@lru_cache(maxsize=len(NAMES))
def schema(name: str) -> dict[str, Any]:
    """The shipped schema ``name`` as JSON."""
    if name not in NAMES:
        raise ValueError(f"no shipped schema called {name!r}")
    data: dict[str, Any] = json.loads(resource_path("schemas", f"{name}.schema.json").read_text(encoding="utf-8"))
    return data


def _whole_number(_checker: object, instance: object) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


@lru_cache(maxsize=len(NAMES))
def validator(name: str) -> Draft202012Validator:
    """A validator of the shipped schema ``name``, the schema itself checked once (``integer``: written
    without a fraction, so ``9.0`` is not one)."""
    from jsonschema import Draft202012Validator, validators

    # JSON Schema calls 9.0 an integer; SQLite's strict columns and ``range()`` do not (``"chapter_num": 9.0``
    # passed the line check and crashed the insert). A whole number here is written without a fraction.
    whole = validators.extend(  # type: ignore[no-untyped-call]
        Draft202012Validator, type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _whole_number))
    data = schema(name)
    Draft202012Validator.check_schema(data)
    validator: Draft202012Validator = whole(data)
    return validator


def text_problems(value: object, at: tuple[object, ...] = ()) -> Iterator[Problem]:
    """Strings in ``value`` (keys included) that are not text that can be stored: a lone surrogate
    (``"\\ud800"`` in JSON; UTF-8 cannot encode it, so SQLite and the tokenizer failed on it) or a NUL
    character (which ends a string in C)."""
    if isinstance(value, str):
        if "\x00" in value:
            yield Problem(pointer(at), "holds a NUL character (\\u0000)")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            yield Problem(pointer(at), f"holds a lone surrogate (\\u{ord(value[exc.start]):04x}), which is not text")
    elif isinstance(value, dict):
        for key, item in value.items():
            if isinstance(key, str):
                yield from (Problem(p.path, f"the name {p.message}") for p in text_problems(key, at))
            yield from text_problems(item, (*at, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from text_problems(item, (*at, i))


def problems(name: str, value: object, *, by_path: bool = False) -> list[Problem]:
    """Every problem of ``value`` against schema ``name`` (none: valid), in the order the value holds its
    fields — or, ``by_path``, in the order of the pointers."""
    found: list[Problem] = []
    for err in validator(name).iter_errors(value):
        found.extend(explain(err))
    seen: set[tuple[str, str]] = set()
    out = []
    key = (lambda p: _order(p.path)) if by_path else (lambda p: _place(value, p.path))
    for p in sorted(found, key=key):
        if (p.path, p.message) not in seen:
            seen.add((p.path, p.message))
            out.append(p)
    return out


def pointer(path: Iterable[object]) -> str:
    """The JSON pointer (RFC 6901) of a path of keys and indexes; ``/`` for the whole value."""
    return "/" + "/".join(str(p).replace("~", "~0").replace("/", "~1") for p in path)


def _order(path: str) -> tuple[tuple[int, object], ...]:
    return tuple((0, int(p)) if p.isdigit() else (1, p) for p in path.split("/") if p)


def _place(value: object, path: str) -> tuple[int, ...]:
    """Where ``path`` is in ``value``: the position of each key or index on the way (a key the value
    lacks comes after those it has)."""
    out: list[int] = []
    for raw in (p for p in path.split("/") if p):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict):
            keys = list(value)
            out.append(keys.index(part) if part in value else len(keys))
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            out.append(int(part))
            value = value[int(part)]
        else:
            out.append(1 << 30)
            value = None
    return tuple(out)


def explain(err: ValidationError) -> Iterator[Problem]:
    """``err`` in words: one :class:`Problem` per missing or unknown field, else one for its place."""
    at = list(err.absolute_path)
    here = pointer(at)
    kind = err.validator
    value: Any = err.validator_value
    instance: Any = err.instance
    sub: Any = err.schema
    if kind == "required" and isinstance(instance, dict):
        for name in value:
            if name not in instance:
                yield Problem(pointer([*at, name]), "missing (required)")
    elif kind == "additionalProperties" and isinstance(instance, dict) and isinstance(sub, dict):
        known = sub.get("properties", {})
        for name in instance:
            if name not in known:
                yield Problem(pointer([*at, name]), f"unknown field (the fields are {', '.join(known)})")
    elif kind == "type":
        wanted = " or ".join(_TYPE_WORDS.get(t, t) for t in ([value] if isinstance(value, str) else value))
        yield Problem(here, f"must be {wanted}, not {quote(instance)}")
    elif kind == "enum":
        yield Problem(here, f"{quote(instance)} is not one of {', '.join(map(str, value))}")
    elif kind == "const":
        yield Problem(here, f"must be {quote(value)}, not {quote(instance)}")
    elif kind == "minLength":
        yield Problem(here, "must not be empty")
    elif kind == "maxLength":
        yield Problem(here, f"{len(instance):,} characters; at most {value:,}")
    elif kind == "pattern":
        yield Problem(here, _PATTERN_WORDS.get(value, f"{quote(instance)} does not match {value}"))
    elif kind == "minItems":
        what = "chunk" if here == "/chunks" else "item"
        yield Problem(here, f"must hold at least {value} {what}")
    elif kind == "maxItems":
        yield Problem(here, f"must hold at most {value} items, not {len(instance):,}")
    elif kind == "uniqueItems":
        yield Problem(here, "holds the same item twice")
    elif kind == "minimum":
        yield Problem(here, f"must be at least {value}, not {quote(instance)}")
    elif kind == "maximum":
        yield Problem(here, f"must be at most {value}, not {quote(instance)}")
    elif kind == "exclusiveMinimum":
        yield Problem(here, f"must be greater than {value}, not {quote(instance)}")
    else:
        yield Problem(here, err.message[:120])


def quote(value: object, limit: int = 40) -> str:
    """``value`` as JSON, at most ``limit`` characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"
