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
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

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
    """A file that is not JSON text: its one problem, at ``/``."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem


def read_json(path: str | os.PathLike[str], limit: int) -> object:
    """The JSON value in the regular file at ``path`` (at most ``limit`` bytes; a byte-order mark is
    skipped): :class:`NotJson` when it is not UTF-8 JSON, ``OSError`` when it cannot be read."""
    raw = read_small(path, limit)
    try:
        return json.loads(raw.decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError as exc:
        raise NotJson(Problem("/", f"not UTF-8 text (byte {exc.start + 1})")) from None
    except json.JSONDecodeError as exc:
        raise NotJson(Problem("/", f"not JSON ({exc.msg} at line {exc.lineno}, column {exc.colno})")) from None
    except RecursionError:
        raise NotJson(Problem("/", "not JSON (nested too deeply)")) from None


@lru_cache(maxsize=len(NAMES))
def schema(name: str) -> dict[str, Any]:
    """The shipped schema ``name`` as JSON."""
    if name not in NAMES:
        raise ValueError(f"no shipped schema called {name!r}")
    data: dict[str, Any] = json.loads(resource_path("schemas", f"{name}.schema.json").read_text(encoding="utf-8"))
    return data


@lru_cache(maxsize=len(NAMES))
def validator(name: str) -> Draft202012Validator:
    """A validator of the shipped schema ``name``, the schema itself checked once."""
    data = schema(name)
    Draft202012Validator.check_schema(data)
    return Draft202012Validator(data)


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
