"""Judgments from use, without a window: nothing kept without consent, one workspace's file never read as
another's, the cascade model worked by hand, and a **simulated-use run** on the shipped golden set.

The simulated run (``test_simulated_use_agrees_with_the_shipped_judges``) is not readers' data: a scripted
reader reads each shipped question's judged results in a shuffled order from the top (the cascade model's own
assumption), acts on each with a probability set by its shipped grade (0: 5 %, 1: 30 %, 2: 60 %, 3: 90 %;
copies a grade-2-or-3 result half the time, else opens it) and reads on after acting 70 % of the time; five
askings per question, seeded. It measures how much of the grades the model recovers when the reader behaves
as it assumes — an upper bound, not a measure of real readers (docs/CURATORS.md).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate import usage
from amicus_desktop.evaluate.usage import Asking, UsageLog, against, candidates, cascade, grade_of
from amicus_desktop.resources import resource_path


def test_nothing_is_kept_without_consent_and_turning_it_off_deletes_the_file(tmp_path: Path) -> None:
    off = UsageLog("default")
    assert off.asked("grace", ["a", "b"]) is off and off.acted("grace", "a", "copied") is off
    usage.save(off, tmp_path)
    assert not list(tmp_path.iterdir())
    on = UsageLog("default", True).asked("grace", ["a", "b"], at="t0").acted("grace", "b", "copied", at="t1")
    assert on.askings[0].actions[0].rank == 2
    assert on.acted("grace", "zzz", "copied") is on  # a result not shown for that question is not recorded
    assert on.acted("grace", "a", "liked") is on  # nor an action the model does not name
    assert on.asked("Grace ", ["b", "a"]) is on  # answered again at once (re-ranked by a pin): one asking
    usage.save(on, tmp_path)
    assert usage.load(tmp_path, "default") == on
    usage.save(UsageLog("default", False), tmp_path)
    assert not list(tmp_path.iterdir()) and usage.load(tmp_path, "default") == UsageLog("default")


def test_one_workspaces_record_is_never_read_as_anothers(tmp_path: Path) -> None:
    usage.save(UsageLog("sermons", True).asked("grace", ["a"]), tmp_path)
    assert usage.load(tmp_path, "default") == UsageLog("default")
    # even a file copied under another workspace's name keeps its owner: it is not read
    (tmp_path / "default.json").write_text((tmp_path / "sermons.json").read_text())
    assert usage.load(tmp_path, "default").askings == ()
    (tmp_path / "default.json").write_text("{not json")
    assert usage.load(tmp_path, "default") == UsageLog("default")


def test_the_cascade_model_by_hand() -> None:
    shown = ("a", "b", "c", "d")
    askings = [Asking("grace", "t", shown, (usage.Action("c", 3, "copied"),)),
               Asking("grace", "t", shown, (usage.Action("c", 3, "opened"), usage.Action("a", 1, "pinned"))),
               Asking("Grace", "t", shown)]  # no action: every result read and skipped
    found = cascade(askings)
    a, b, c, d = (found[("grace", x)] for x in shown)
    assert (c.clicks, c.skips, c.actions) == (2, 1, {"copied": 1, "opened": 1})
    assert (a.clicks, a.skips) == (1, 2) and (b.clicks, b.skips) == (0, 3)
    assert (d.clicks, d.skips) == (0, 1)  # below the last action it was read only when nothing was used
    assert c.attractiveness == 3 / 5 and grade_of(c) == 2 and grade_of(b) == 0 and grade_of(d) is None
    golden = golden_io.GoldenSet("t", (golden_io.GoldenQuery("q1", "grace", {"c": 2, "b": 1, "a": 1}),))
    found_candidates = candidates(UsageLog("w", True, tuple(askings)), golden)
    assert {(x.query_id, x.chunk_id, x.grade) for x in found_candidates} == {("q1", "a", 1), ("q1", "b", 0),
                                                                            ("q1", "c", 2)}
    compared = against(found_candidates, golden)
    assert compared.items == 3 and compared.questions == 1 and compared.exact == 2 / 3


def test_simulated_use_agrees_with_the_shipped_judges(capsys) -> None:
    """SIMULATED USE (see the module docstring): not a measure of real readers."""
    golden = golden_io.load(resource_path("golden", "demo.json"))
    rng = random.Random(20261206)
    act = {0: 0.05, 1: 0.3, 2: 0.6, 3: 0.9}
    log = UsageLog("simulated", True)
    for q in golden.queries:
        judged = sorted(q.judgments)
        for _ in range(5):
            shown = judged[:]
            rng.shuffle(shown)
            shown = shown[:10]
            log = log.asked(q.query, shown, at="t")
            log = log.asked("(another question)", [], at="t")  # between two askings of the same question
            for chunk_id in shown:
                grade = q.judgments[chunk_id]
                if rng.random() < act[grade]:
                    kind = "copied" if grade >= 2 and rng.random() < 0.5 else "opened"
                    log = log.acted(q.query, chunk_id, kind, at="t")
                    if rng.random() >= 0.7:
                        break
    found = candidates(log, golden)
    compared = against(found, golden)
    print(json.dumps({"simulated": True, "questions": compared.questions, "items": compared.items,
                      "kappa": compared.kappa, "alpha": compared.alpha, "exact": compared.exact,
                      "within_one": compared.within_one}))
    assert compared.items > 500 and compared.kappa is not None and compared.alpha is not None
    assert compared.kappa > 0.2 and compared.alpha > 0.2  # clearly better than chance when readers behave so
    assert compared.within_one > 0.6
