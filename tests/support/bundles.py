"""Every retrieval bundle the test suite produces is checked against the shipped bundle schema.

``resources/schemas/bundle.schema.json`` says what ``query --json`` prints; it stays true because every
bundle a test makes is checked against it (with :func:`amicus_desktop.bundle.check.check_bundle`, the
same check as ``amicus-desktop validate bundle``):

* what ``query ... --json`` prints through the CLI helpers (:mod:`tests.support.cli`), in this process or
  as a subprocess;
* every ``RetrievalResult.to_json()`` made in this process (exports, the app's session, the service's
  helpers), wrapped for the whole session by ``tests/conftest.py``;
* every ``GET /retrieve`` answer of a real service (:mod:`tests.support.serve`), against the service's
  OpenAPI schema, whose bundle parts are the bundle schema's own definitions.

A bad one is recorded here with the test that made it; ``tests/conftest.py`` fails that test (and the
run), naming the JSON pointer of each problem.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

import jsonschema

from amicus_desktop.bundle.check import check_bundle


@dataclass
class Ledger:
    """How many bundles were checked, and the bad ones: (the test, its problems)."""

    checked: int = 0
    answers: int = 0
    invalid: list[tuple[str, list[str]]] = field(default_factory=list)


LEDGER = Ledger()


def _test() -> str:
    return os.environ.get("PYTEST_CURRENT_TEST", "(outside a test)").split(" (")[0]


def check_bundle_json(data: Any, where: str = "") -> None:
    """Check one bundle (a decoded ``query --json``); an error object is not a bundle and is skipped."""
    if isinstance(data, dict) and set(data) == {"error"}:
        return
    LEDGER.checked += 1
    problems = check_bundle(data)
    if problems:
        LEDGER.invalid.append((f"{_test()}{where}", [str(p) for p in problems[:5]]))


def check_printed(args: tuple[str, ...], code: int, stdout: str) -> None:
    """What ``query ARGS --json`` printed, when it succeeded."""
    if code != 0 or not args or args[0] != "query" or "--json" not in args:
        return
    try:
        data = json.loads(stdout)
    except ValueError:
        LEDGER.invalid.append((_test(), ["/: query --json printed something that is not JSON"]))
        return
    check_bundle_json(data, " (query --json)")


def check_service_answer(body: Any) -> None:
    """A ``GET /retrieve`` 200 body, against the service's OpenAPI ``RetrieveResponse``."""
    from amicus_desktop.serve.openapi import document

    doc = document()
    validator = jsonschema.Draft202012Validator({**doc, "$ref": "#/components/schemas/RetrieveResponse"})
    LEDGER.answers += 1
    errors = sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path))
    if errors:
        problems = ["/" + "/".join(map(str, e.absolute_path)) + f": {e.message[:200]}" for e in errors[:5]]
        LEDGER.invalid.append((f"{_test()} (GET /retrieve)", problems))
