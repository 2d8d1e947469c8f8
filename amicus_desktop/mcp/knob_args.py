"""The MCP tools' arguments that are knobs of a search (CONTRACT section 10), made from their rows of
:data:`~amicus_desktop.knobs.KNOBS` (a row's ``tools``): a new knob an MCP tool should take is its row.

:func:`takes_knobs` gives a tool written with ``**knobs`` the signature the SDK makes its input schema from:
the tool's own parameters with, after ``after``, one optional parameter per knob the tool takes, named as the
service names it (its ``param``) and typed by its kind (a choice spelled as the service spells it: ``dense``
for ``semantic``), in the table's order; a knob the tool's description does not mention yet gets a line of its
help there. :func:`knob_items` writes the values back as the service's ``(name, value)`` pairs, which
:func:`~amicus_desktop.serve.params.parse` checks as it checks ``GET /retrieve``'s.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any, Literal, TypeVar, cast

from ..knobs import KNOBS, Kind, Knob

F = TypeVar("F", bound=Callable[..., Any])

_TYPES: dict[Kind, type] = {Kind.WHOLE: int, Kind.CAP: int, Kind.NUMBER: float, Kind.TEXT: str}


def tool_knobs(tool: str) -> tuple[Knob, ...]:
    """The knobs ``tool`` takes as arguments, in the table's order."""
    return tuple(k for k in KNOBS if tool in k.tools)


def spelled(knob: Knob) -> tuple[str, ...]:
    """A choice's values as the service and the tools spell them: an alias in place of the value it names."""
    alias = {value: name for name, value in knob.aliases.items()}
    return tuple(alias.get(c, c) for c in knob.choices)


def argument_type(knob: Knob) -> Any:
    """The argument's type: its kind's (a choice's values as a ``Literal``), a list if it repeats, or ``None``."""
    base: Any = cast(Any, Literal)[spelled(knob)] if knob.kind is Kind.CHOICE else _TYPES[knob.kind]
    if knob.repeatable:
        base = list[base]
    return base | None


def takes_knobs(tool: str, after: str, first: tuple[str, ...] = ()) -> Callable[[F], F]:
    """Decorate ``tool``'s function (its knobs in ``**knobs``) with the signature and description that publish
    them: inserted after its parameter ``after``, the knobs named in ``first`` (by ``param``) in that order before
    the rest (the order a tool published them in before they were generated), the rest in the table's."""
    knobs = sorted(tool_knobs(tool), key=lambda k: first.index(str(k.param)) if k.param in first else len(first))
    for knob in knobs:
        assert knob.param is not None and knob.param.isidentifier(), (tool, knob.name)

    def decorate(fn: F) -> F:
        sig = inspect.signature(fn, eval_str=True)
        own = [p for p in sig.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        at = [p.name for p in own].index(after) + 1
        added = [inspect.Parameter(str(k.param), inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None,
                                   annotation=argument_type(k)) for k in knobs]
        params = [*own[:at], *added, *own[at:]]
        fn.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
        fn.__annotations__ = {**{p.name: p.annotation for p in params}, "return": sig.return_annotation}
        doc = inspect.cleandoc(fn.__doc__ or "")
        more = [f"{k.param}: {k.described()}." for k in knobs if f"{k.param}:" not in doc]
        fn.__doc__ = "\n".join([doc, *more]) if more else fn.__doc__
        return fn

    return decorate


def knob_items(knobs: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The knob arguments given (``None``: not given) as the service's ``(name, value)`` pairs."""
    items: list[tuple[str, str]] = []
    for name, value in knobs.items():
        if value is None:
            continue
        items += [(name, str(v)) for v in (value if isinstance(value, list) else [value])]
    return items
