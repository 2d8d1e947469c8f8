"""Regenerate docs/screenshots/workbench-*.png: the curator workbench, driven in-process (offscreen).

    QT_QPA_PLATFORM=offscreen .venv/bin/python tools/screenshots/workbench.py --db PATH

Needs the demo scripture.db (Romans + John); starts the real local embed proxy. Each state is shot
at the default window size and at 1000×650 (``-small``). Everything the workbench writes (a copy of
the shipped golden set, snapshots, the history) goes to a temporary ``AMICUS_HOME``.

The *From use* picture is of use scripted by this script (consent given in its temporary data folder, a
question asked twice with its first result opened and its third copied), not of a reader's.

The *Judges* picture needs a set with two judges, and the shipped set records one: the script adds a second
judge, "illustration", whose grades are the shipped ones moved by one grade on every seventh judged chunk of
the first twelve questions — made up for the picture, and said so in docs/CURATORS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from shotkit import resize_to  # noqa: E402  (beside this script)

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
OUT = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SMALL = (1000, 650)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, required=True, help="the demo scripture.db")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    os.environ["AMICUS_HOME"] = tempfile.mkdtemp(prefix="amicus-shot-")

    from PySide6.QtCore import Qt

    from amicus_desktop.core.query import BoostWeights
    from amicus_desktop.evaluate import golden as golden_io
    from amicus_desktop.evaluate.judges import Rating
    from amicus_desktop.paths import golden_dir
    from amicus_desktop.resources import resource_path
    from amicus_desktop.session import Overrides, Session
    from amicus_desktop.settings import SettingsStore
    from amicus_desktop.ui.app import make_application, qt_event_loop
    from amicus_desktop.ui.main_window import DEFAULT_SIZE, MainWindow
    from tests.support.proxy import ProxyProcess

    app = make_application()
    app.setQuitOnLastWindowClosed(False)
    own = golden_dir() / "demo.json"
    own.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(resource_path("golden", "demo.json"), own)
    golden = golden_io.load(own)
    question = next((q for q in golden.queries if q.chapter == "romans:9"), golden.queries[0])

    async def until(cond: Callable[[], bool], timeout: float = 300.0) -> None:
        for _ in range(int(timeout * 20)):
            if cond():
                return
            await asyncio.sleep(0.05)
        raise TimeoutError("state not reached")

    async def shoot(window: MainWindow, name: str, then: Callable[[], None] | None = None) -> None:
        """Both sizes of the window as it is now: the workbench's tab and the selected row kept (opening the
        dock puts the focus on the what-if ranking; ``then`` selects the row to read again)."""
        tabs = window.workbench_dock.panel.tabs
        tab = tabs.currentIndex()
        for size, suffix in ((DEFAULT_SIZE, ""), (SMALL, "-small")):
            # As a user would see it: the workbench opened in a window of this size (in a narrow
            # window the reader steps aside while it is open).
            window.workbench_dock.hide()
            await asyncio.sleep(0.1)
            window.resize(*size)
            await asyncio.sleep(0.1)
            window.workbench_dock.toggle()
            await asyncio.sleep(0.2)
            await resize_to(window, size)
            window.resizeDocks([window.workbench_dock], [int(size[0] * 0.45)], Qt.Orientation.Horizontal)
            await asyncio.sleep(0.2)
            tabs.setCurrentIndex(tab)
            if then is not None:
                then()
            await asyncio.sleep(0.4)
            path = args.out / f"workbench-{name}{suffix}.png"
            window.grab().save(str(path))
            print(f"{path.name}: ok")
        window.resize(*DEFAULT_SIZE)

    async def run(proxy_url: str) -> None:
        chapter = question.chapter or "romans:9"
        session = Session(SettingsStore(), Overrides(db_path=str(args.db), proxy_url=proxy_url, chapter=chapter))
        window = MainWindow(session)
        window.show()
        session.start()
        await until(lambda: session.can_ask and session.reader.loaded_chapter is not None)
        window.workbench_dock.open_golden_set(str(own))
        bench, panel = window.workbench, window.workbench_dock.panel
        await until(lambda: bench.golden_job.golden is not None)
        window.ask.edit.setText(question.query)
        task = session.ask(question.query)
        assert task is not None
        await task
        await until(lambda: bench.whatif_job.whatif is not None)
        # judging: the shipped judgments in the Grade column, this question's nDCG / MRR, the preview
        def third_row() -> None:
            panel.whatif_tab.ranking.setFocus()
            panel.whatif_tab.ranking.setCurrentIndex(panel.whatif_tab.ranking_model.index(1, 2))
            panel.whatif_tab.ranking.setCurrentIndex(panel.whatif_tab.ranking_model.index(2, 2))

        panel.focus_ranking()
        third_row()
        await shoot(window, "judging", third_row)
        # the New golden set dialog, whole (it used to cut its own title short)
        window.workbench_dock.new_golden_set()
        await asyncio.sleep(0.3)
        dialog = window.workbench_dock.dialog
        assert dialog is not None
        dialog.grab().save(str(args.out / "workbench-new-golden-set.png"))
        dialog.reject()
        # what-if: no chapter boost, no cap: the Move column against the saved weights
        panel.whatif_tab.chapter_spin.setValue(1.0)
        panel.whatif_tab.cap_spin.setValue(0)
        await shoot(window, "what-if", third_row)
        panel.whatif_tab.reset_weights.click()
        # A/B: hybrid against semantic, a shared result selected on the A side
        panel.tabs.setCurrentIndex(1)
        panel.ab_tab.compare()
        await until(lambda: bench.ab_job.ab is not None and not bench.ab_job.ab_running)
        ab = bench.ab_job.ab
        assert ab is not None
        shared = next((c for c in ab.ranks_a if c in ab.ranks_b and ab.ranks_a[c] != ab.ranks_b[c]), None)
        def shared_row() -> None:
            if shared is not None:
                panel.ab_tab.a_view.setFocus()
                panel.ab_tab.a_view.clearSelection()
                panel.ab_tab.a_view.setCurrentIndex(panel.ab_tab.a_model.index(0, 0))
                panel.ab_tab.a_view.setCurrentIndex(
                    panel.ab_tab.a_model.index(panel.ab_tab.a_model.row_of(shared), 0))

        await shoot(window, "ab", shared_row)
        # evaluate the set: the per-question chart; then two snapshots and their comparison
        panel.tabs.setCurrentIndex(2)
        bench.eval_job.evaluate_set()
        await until(lambda: bench.eval_job.report is not None and not bench.eval_job.evaluating)
        chart = panel.eval_tab.chart
        low = next((i for i, (_q, v) in enumerate(chart.bars) if v < 0.4), 0)

        def low_bar() -> None:
            chart.setFocus()
            chart.select(low)

        await shoot(window, "evaluate", low_bar)
        # the gaps of that evaluation, one of them read in the preview
        def second_gap() -> None:
            panel.focus_gaps()
            panel.gaps_tab.view.setCurrentIndex(panel.gaps_tab.model.index(1, 0))

        panel.focus_gaps()
        await shoot(window, "gaps", second_gap)
        # the weight search (a short budget), then its report
        panel.tabs.setCurrentIndex(panel.TUNE_TAB)
        bench.tune.start(budget=40)
        await until(lambda: bench.tune.outcome is not None and not bench.tune.running, 600)
        await shoot(window, "weight-search")
        await bench.snapshot_job.save_snapshot("saved-weights")
        bench.whatif_job.set_weights(BoostWeights(chapter=1.0, scholar=1.0, tradition=1.0, per_scholar_cap=None,
                                                  reference=1.0))
        bench.eval_job.evaluate_set()
        await until(lambda: not bench.eval_job.evaluating)
        await bench.snapshot_job.save_snapshot("no-boosts")
        panel.tabs.setCurrentIndex(panel.SNAPSHOT_TAB)
        snaps = panel.snapshot_tab
        snaps.snap_a.setCurrentIndex(snaps.snap_a.findText("saved-weights"))
        snaps.snap_b.setCurrentIndex(snaps.snap_b.findText("no-boosts"))
        snaps.compare_snapshots()
        await until(lambda: bench.snapshot_job.changes is not None)
        def first_change() -> None:
            snaps.results.setCurrentIndex(snaps.CHANGES_PAGE)
            snaps.changes.setFocus()
            snaps.changes.setCurrentIndex(snaps.changes_model.index(1, 0))
            snaps.changes.setCurrentIndex(snaps.changes_model.index(0, 0))

        await shoot(window, "snapshots", first_change)
        # N side by side: the last evaluation (chapter ×2) and both snapshots, against the saved weights
        bench.whatif_job.set_weights(BoostWeights(chapter=2.0))
        bench.eval_job.evaluate_set()
        await until(lambda: not bench.eval_job.evaluating)
        await until(lambda: snaps.pick_list.count() == 3)
        for i in range(snaps.pick_list.count()):
            snaps.pick_list.item(i).setCheckState(Qt.CheckState.Checked)
        snaps.baseline_box.setCurrentIndex(snaps.baseline_box.findText("saved-weights"))
        snaps.line_up()
        await until(lambda: bench.snapshot_job.lineup is not None)
        await asyncio.sleep(1.0)  # the ranks' titles read from the library

        def kinds_page() -> None:
            snaps.results.setCurrentIndex(snaps.KINDS_PAGE)

        def ranks_page() -> None:
            snaps.results.setCurrentIndex(snaps.RANKS_PAGE)
            snaps.ranks_view.setFocus()
            snaps.ranks_view.setCurrentIndex(snaps.ranks_model.index(0, 0))

        await shoot(window, "snapshots-lineup", kinds_page)
        await shoot(window, "snapshots-ranks", ranks_page)
        # the first snapshot replayed on today's library after a grade changed: what moved, per question
        snaps.snap_a.setCurrentIndex(snaps.snap_a.findText("no-boosts"))
        report = bench.eval_job.report
        assert report is not None
        for q in report.queries[:3]:  # a grade given since: the replay says what that did
            if q.unjudged:
                bench.golden_job.judge_item(q.id, q.unjudged[0], 3)
        snaps.replay()
        await until(lambda: bench.snapshot_job.replayed is not None and not bench.snapshot_job.replaying, 600)
        await asyncio.sleep(1.0)

        def replay_page() -> None:
            snaps.results.setCurrentIndex(snaps.REPLAY_PAGE)
            snaps.replay_view.setFocus()
            snaps.replay_view.setCurrentIndex(snaps.replay_model.index(0, 0))

        await shoot(window, "snapshots-replay", replay_page)
        # the history: both runs, drawn as a trend
        panel.tabs.setCurrentIndex(panel.HISTORY_TAB)
        await until(lambda: len(bench.history_job.runs) >= 2)
        def last_run() -> None:
            panel.history_tab.view.setFocus()
            panel.history_tab.view.setCurrentIndex(panel.history_tab.model.index(1, 0))
            panel.history_tab.view.setCurrentIndex(panel.history_tab.model.index(0, 0))

        await shoot(window, "history", last_run)
        # two judges: the agreement and the most disagreed items
        illustrated = golden  # the shipped grades (the replay's grade given above is left out of this picture)
        for q in illustrated.queries[:12]:
            for n, (cid, grade) in enumerate(q.judgments.items()):
                moved = grade if n % 7 else (grade - 1 if grade else 1)
                q = q.judge(cid, grade, by="assistant", at="2026-11-26T00:00:00Z").rate(
                    cid, Rating("illustration", moved, "2026-11-27T00:00:00Z"))
            illustrated = illustrated.with_query(q)
        golden_io.save(illustrated, own)
        window.workbench_dock.open_golden_set(str(own))
        await until(lambda: bench.golden_job.golden is not None and "illustration" in bench.golden_job.golden.judges())
        panel.tabs.setCurrentIndex(panel.JUDGES_TAB)
        await asyncio.sleep(0.2)
        def first_item() -> None:
            panel.judges_tab.view.setFocus()
            panel.judges_tab.view.setCurrentIndex(panel.judges_tab.model.index(1, 0))
            panel.judges_tab.view.setCurrentIndex(panel.judges_tab.model.index(0, 0))

        await shoot(window, "judges", first_item)
        # From use: consent given in this (temporary) workspace; a question asked twice, its third result
        # copied and its first opened each time — scripted for the picture, and said so in docs/CURATORS.md
        await bench.usage.set_consent(True)
        for text in (question.query, "grace", question.query + " "):
            window.ask.edit.setText(text)
            asked = session.ask(text)
            assert asked is not None
            await asked
            view = session.question.view
            assert view is not None
            if text.strip() == question.query:
                bench.usage.acted(view.result.results[0].chunk_id, "opened")
                bench.usage.acted(view.result.results[2].chunk_id, "copied")
        panel.tabs.setCurrentIndex(panel.USAGE_TAB)
        await asyncio.sleep(0.5)

        def first_suggestion() -> None:
            panel.usage_tab.view.setFocus()
            panel.usage_tab.view.setCurrentIndex(panel.usage_tab.model.index(0, 0))

        await shoot(window, "from-use", first_suggestion)
        # Import judgments…: a Quepid CSV with a judge column; the dialog fills the judge in from it
        ratings = Path(os.environ["AMICUS_HOME"]) / "team-ratings.csv"
        ratings.write_text(f"query,docid,rating,judge\n{question.query},{next(iter(question.judgments))},2,Ana Ruiz\n",
                           encoding="utf-8")
        window.workbench_dock.import_judgments(str(ratings))
        await until(lambda: window.workbench_dock.dialog is not None
                    and window.workbench_dock.dialog.objectName() == "importJudgments")
        await asyncio.sleep(0.3)
        dialog = window.workbench_dock.dialog
        dialog.grab().save(str(args.out / "workbench-import-judgments.png"))
        print("workbench-import-judgments.png: ok")
        dialog.reject()
        window.close()
        await session.aclose()

    with ProxyProcess("--rate-limit", "0") as proxy, qt_event_loop(app) as loop:
        loop.run_until_complete(run(proxy.url))
    return 0


if __name__ == "__main__":
    sys.exit(main())
