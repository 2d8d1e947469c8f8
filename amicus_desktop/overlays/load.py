"""Reading an overlay file and checking it (CONTRACT section 12): the shipped JSON Schema, then the few
rules a schema cannot state. No Qt.

:func:`check` lists every problem of a value (for ``validate overlay``); :func:`parse_overlay` turns a
value without any into an :class:`~.model.Overlay`, else raises :class:`OverlayError` with them all;
:func:`read_overlay` does both for a file — a file that cannot be read, is not UTF-8 or not JSON is one
problem at ``/``. A command that takes ``--overlay`` names the first problem and exits 2.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..schemas import NotJson, Problem, problems, quote, read_json
from .model import Overlay

#: an overlay is a small file a curator writes; anything larger is not one (and is not read into memory)
MAX_OVERLAY_BYTES = 1 << 20
SCHEMA = "overlay"


class OverlayError(ValueError):
    """An overlay that cannot be used: every problem, each with its JSON pointer."""

    def __init__(self, problems: Sequence[Problem], source: str = "the overlay") -> None:
        self.problems = tuple(problems)
        self.source = source
        first = self.problems[0] if self.problems else Problem("/", "not an overlay")
        more = len(self.problems) - 1
        super().__init__(f"{source} is not a valid overlay: {first}"
                         + (f" (and {more} more problem{'s' * (more > 1)}; amicus-desktop validate overlay "
                            "lists them)" if more else ""))


def check(data: object) -> list[Problem]:
    """Every problem of ``data`` as an overlay: the schema's, then the rules between its fields."""
    found = problems(SCHEMA, data)
    if found or not isinstance(data, dict):
        return found
    return rule_problems(data)


def rule_problems(data: Mapping[str, Any]) -> list[Problem]:
    """What the schema cannot state: candidates at least k, a minimum similarity only with a vector, and
    no scholar or tradition both preferred and forbidden."""
    out: list[Problem] = []
    policy = data.get("retrieval_policy", {})
    k, candidates = policy.get("k"), policy.get("candidates")
    if k is not None and candidates is not None and candidates < k:
        out.append(Problem("/retrieval_policy/candidates", f"must be at least k ({k}), not {candidates}"))
    if policy.get("mode") == "keyword" and policy.get("min_similarity") is not None:
        out.append(Problem("/retrieval_policy/min_similarity", "needs a vector: keyword mode makes none"))
    sources = data.get("source_policy", {})
    forbidden = set(sources.get("forbidden_scholars", ()))
    for i, sid in enumerate(sources.get("preferred_scholars", ())):
        if sid in forbidden:
            out.append(Problem(f"/source_policy/preferred_scholars/{i}", f"{quote(sid)} is also forbidden"))
    return out


def parse_overlay(data: object, source: str = "the overlay") -> Overlay:
    """The overlay ``data`` describes, or :class:`OverlayError` with every problem."""
    found = check(data)
    if found:
        raise OverlayError(found, source)
    assert isinstance(data, dict)
    return Overlay.from_json(data)


def load_json(path: str | Path) -> object:
    """The JSON value of a file, or :class:`OverlayError` (at ``/``) when it cannot be read as JSON."""
    name = Path(path).name or str(path)
    try:
        return read_json(path, MAX_OVERLAY_BYTES)
    except OSError as exc:
        raise OverlayError([Problem("/", f"cannot be read ({exc.strerror or exc})")], name) from None
    except NotJson as exc:
        raise OverlayError(exc.problems, name) from None


def read_overlay(path: str | Path) -> Overlay:
    """The overlay in the file at ``path``, or :class:`OverlayError` naming the file and its problems."""
    return parse_overlay(load_json(path), Path(path).name or str(path))
