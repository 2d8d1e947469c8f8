"""The relevance benchmark: floor calibration and judged coverage by hand, and one real run end to end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from amicus_desktop.core.query import Fusion, SearchMode
from amicus_desktop.evaluate.calibrate import calibrate, calibrate_joint
from amicus_desktop.evaluate.golden import parse
from amicus_desktop.evaluate.relevance import configurations
from amicus_desktop.evaluate.report import judged_share
from amicus_desktop.evaluate.run import EvalConfig, EvalReport, QueryScore
from amicus_desktop.store.sqlite import connect
from tests.support.cli import run


def test_the_floor_is_the_highest_that_warns_few_answerable_questions() -> None:
    # answered questions' best base scores, and unanswerable ones'
    answered, unanswerable = [0.62, 0.55, 0.48, 0.41], [0.30, 0.36, 0.44]
    # warning at most 10 % of 4 answered questions warns none: the highest midpoint below 0.41 is 0.385,
    # which flags 2 of the 3 unanswerable ones
    floor = calibrate("m", SearchMode.SEMANTIC, answered, unanswerable)
    assert floor.floor == pytest.approx(0.385) and floor.kept == 1.0 and floor.flagged == pytest.approx(2 / 3)
    # a budget of one in four: 0.46 (between 0.44 and 0.48) keeps 3/4 and flags all three
    floor = calibrate("m", SearchMode.SEMANTIC, answered, unanswerable, max_warned=0.25)
    assert floor.floor == pytest.approx(0.46) and floor.kept == 0.75 and floor.flagged == 1.0
    # perfectly separated values: the floor sits between them, never on one
    clean = calibrate("m", SearchMode.HYBRID, [0.7, 0.8], [0.2, 0.3])
    assert 0.3 < clean.floor < 0.7 and clean.kept == clean.flagged == 1.0


def test_the_meaning_floor_warns_no_answerable_question_the_base_floor_keeps() -> None:
    # (best base, best similarity): one unanswerable question passes the base floor on a shared word
    answered = [(0.62, 0.60), (0.55, 0.48), (0.48, 0.52), (0.45, 0.47)]
    unanswerable = [(0.30, 0.30), (0.50, 0.35)]
    joint = calibrate_joint("m", answered, unanswerable)
    assert joint.floor < 0.45 and joint.meaning == 0.47  # just under the lowest kept similarity
    assert joint.kept == 1.0 and joint.flagged == 1.0


def test_judged_share_is_the_mean_share_of_judged_results() -> None:
    golden = parse({"name": "g", "queries": [
        {"id": "a", "query": "q a", "judgments": {"x": 3, "y": 0}},
        {"id": "b", "query": "q b", "judgments": {"z": 1}},
    ]})
    report = EvalReport("g", EvalConfig(SearchMode.SEMANTIC), "m", (
        QueryScore("a", "q a", ("x", "y", "u", "v"), {}),  # 2 of 4 judged (a grade 0 is a judgment)
        QueryScore("b", "q b", ("w",), {}),  # 0 of 1
    ))
    assert judged_share(golden, report) == pytest.approx((0.5 + 0.0) / 2)


def test_the_rows_cover_every_mode_with_and_without_boosts_and_the_sweeps() -> None:
    rows = configurations(Fusion())
    labels = [r.describe() for r in rows]
    assert len(set(labels)) == len(labels)
    assert {r.mode for r in rows} == set(SearchMode)
    assert sum(r.fusion == Fusion() and r.mode is SearchMode.HYBRID for r in rows) >= 2  # default ± boosts


@pytest.mark.slow
def test_one_run_prints_every_row_side_by_side_with_floors(tmp_path: Path, study_db: Path) -> None:
    con = connect(study_db, readonly=True)
    try:
        texts = dict(con.execute("SELECT chunk_id, text FROM chunk_text").fetchall())
    finally:
        con.close()
    potter = {cid: 3 for cid, text in texts.items() if "potter" in text.lower()}
    faith = {cid: 2 for cid, text in texts.items() if "justified" in text.lower()}
    assert potter and faith
    golden = tmp_path / "golden.json"
    golden.write_text(json.dumps({"name": "study", "queries": [
        {"id": "potter", "query": "the potter and the clay", "chapter": "romans:9", "judgments": potter},
        {"id": "faith", "query": "justified by faith without works", "judgments": faith},
    ]}))
    unanswerable = tmp_path / "unanswerable.json"
    unanswerable.write_text(json.dumps({"name": "off-topic", "queries": [
        {"id": "car", "query": "how do I change a flat tyre", "judgments": {}},
        {"id": "cook", "query": "a recipe for lasagna", "judgments": {}},
    ]}))
    code, out, err = run("relevance", str(golden), "--db", str(study_db), "--unanswerable", str(unanswerable))
    assert code == 0, err
    lines = out.splitlines()
    rows = [line for line in lines if line.startswith("  ") and "%" in line and "floor" not in line]
    assert len(rows) == len(configurations(Fusion()))
    assert "all" in lines[3] and "chapter" in lines[3] and "question" in lines[3]  # one column per kind
    app = next(line for line in rows if line.strip().startswith("--preset app"))
    ratio = next(line for line in lines if "÷ dense-only" in line).split()
    all_at = -(len(lines[3].split()) - 1)  # the "all" column, counted from the right of the header
    dense_all, app_all = float(rows[0].split()[all_at]), float(app.split()[all_at])
    assert ratio[-3] == f"{app_all / dense_all:.2f}×" if dense_all else True  # the ratio of the two "all" columns
    assert sum("calibrated no-strong-match floor" in line for line in lines) == 2  # semantic and hybrid (joint)
    assert sum("shipped floors" in line for line in lines) == 3  # seed, wave 2, app
    # the same numbers as JSON, from a second run: the benchmark is deterministic
    code, out, _ = run("relevance", str(golden), "--db", str(study_db), "--json")
    data = json.loads(out)
    assert code == 0 and len(data) == 1 and len(data[0]["rows"]) == len(rows)
    ndcg = [f"{r['mean']['ndcg@10']:.3f}" for r in data[0]["rows"]]
    assert ndcg == [row.split()[all_at] for row in rows]
    assert all(0 <= r["judged"] <= 1 for r in data[0]["rows"])
