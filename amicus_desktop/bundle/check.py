"""Whether a JSON value is a retrieval bundle — what ``query --json`` prints on success (CONTRACT sections 4,
7 and 12): the shipped schema ``resources/schemas/bundle.schema.json``, then what a schema cannot state.

The schema fixes every key and its type (closed objects: a key the program adds without adding it there
is a problem, which is how the test suite keeps the schema true). The rules beside it: ranks run 1..n over
the results, each result's ``score`` is its ``breakdown.final``, and the breakdown's own sum holds (``final``
is the product of the base and every factor it lists — the keys the schema marks ``x-factor``). Pure: no I/O.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from functools import cache
from typing import Any

from ..schemas import Problem, problems, schema


@cache
def factor_keys() -> tuple[str, ...]:
    """The breakdown's factors: the keys the bundle schema marks ``x-factor`` (those present multiply ``final``)."""
    properties = schema("bundle")["$defs"]["breakdown"]["properties"]
    return tuple(key for key, spec in properties.items() if spec.get("x-factor"))


def check_bundle(data: object) -> list[Problem]:
    """Every problem of ``data`` as a bundle (none: it is one)."""
    found = problems("bundle", data)
    if found or not isinstance(data, dict):
        return found
    return rule_problems(data)


def rule_problems(data: Mapping[str, Any]) -> list[Problem]:
    out: list[Problem] = []
    for i, r in enumerate(data["results"]):
        at = f"/results/{i}"
        if r["rank"] != i + 1:
            out.append(Problem(f"{at}/rank", f"must be {i + 1} (ranks run 1..n over the results), not {r['rank']}"))
        b = r["breakdown"]
        if r["score"] != b["final"]:
            out.append(Problem(f"{at}/score", f"must equal breakdown.final ({b['final']!r}), not {r['score']!r}"))
        base = b["base"]
        if base is not None:
            product = base * math.prod(b[f] for f in factor_keys() if f in b)
            if not math.isclose(product, b["final"], rel_tol=1e-9, abs_tol=1e-12):
                out.append(Problem(f"{at}/breakdown/final",
                                   f"must be base × its factors ({product!r}), not {b['final']!r}"))
    return out
