"""How often a "questions like this one" pin follows a question (amicus_desktop/session/pins.py), on the demo
golden set: to its rephrasings (questions with the same grade-3 passages, and three "born again" pairs) and to
questions that share no passage graded 2 or more. Prints one line per rule tried; the app uses share ≥ 0.5 and
at least two shared words.

    .venv/bin/python research/measure/pin_scopes.py
"""

from __future__ import annotations

import collections
import itertools
import json

from amicus_desktop.resources import resource_path
from amicus_desktop.session import pins as ps

EXTRA = [("born again", "What does it mean to be born again?"),
         ("What does it mean to be born again?", "the new birth"),
         ("born again", "Must a person be born again to see the kingdom?")]


def best(q: dict[str, object], grade: int) -> frozenset[str]:
    judgments = q["judgments"]
    assert isinstance(judgments, dict)
    return frozenset(c for c, g in judgments.items() if g >= grade)


def rule(a: str, b: str, share: float, words: int) -> bool:
    ours, theirs = ps.content_words(a), ps.content_words(b)
    if not ours:
        return " ".join(a.lower().split()) == " ".join(b.lower().split())
    n = len(ours & theirs)
    return n / len(ours) >= share and n >= min(words, len(ours))


def main() -> None:
    qs = json.loads(resource_path("golden", "demo.json").read_text())["queries"]
    groups: dict[frozenset[str], list[str]] = collections.defaultdict(list)
    for q in qs:
        if best(q, 3):
            groups[best(q, 3)].append(q["query"])
    same = [(a, b) for v in groups.values() if len(v) > 1 for a, b in itertools.permutations(v, 2)] + EXTRA
    unrelated = [(a["query"], b["query"]) for a, b in itertools.permutations(qs, 2) if not best(a, 2) & best(b, 2)]
    for share, words in ((0.5, 1), (0.5, 2), (0.6, 2), (0.67, 1), (1.0, 1)):
        s = sum(rule(a, b, share, words) for a, b in same)
        u = sum(rule(a, b, share, words) for a, b in unrelated)
        print(f"share >= {share}, shared >= {words}: rephrasings {s}/{len(same)} ({s / len(same):.0%}); "
              f"unrelated {u}/{len(unrelated)} ({u / len(unrelated):.2%})")


if __name__ == "__main__":
    main()
