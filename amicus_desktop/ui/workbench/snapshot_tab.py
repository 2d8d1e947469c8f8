"""The workbench's *Snapshots* tab: save the last evaluation's rankings under a name (with the configuration,
library and metrics that made them); compare two snapshots question by question; line up any number of them —
and the last evaluation — against a baseline, per kind of question with intervals and with the rank of each
judged chunk in each; replay a snapshot on today's library and read per question what moved."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ...session.workbench import Progress, Workbench
from ...session.workbench.snapshots import LAST_RUN
from .common import table
from .lineup_models import METRIC_WORDS, KindsModel, RanksModel, ReplayModel
from .models import ChangesModel

PathRole = Qt.ItemDataRole.UserRole + 21


class SnapshotTab(QWidget):
    """A name and *Save snapshot*; snapshots A and B, *Compare* and *Replay A*; a checkable list of snapshots
    (and the last evaluation), the baseline and *Line up*; the results in four pages. ``notice`` shows a
    sentence in the panel's notice line."""

    CHANGES_PAGE, REPLAY_PAGE, KINDS_PAGE, RANKS_PAGE = range(4)

    def __init__(self, bench: Workbench, notice: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self.show_notice = notice
        self._shown_changes: object = None
        self._shown_lineup: object = None
        self._shown_replay: object = None
        self.snapshot_name = QLineEdit()
        self.snapshot_name.setPlaceholderText("a name, e.g. before-tuning")
        self.snapshot_name.setAccessibleName("Snapshot name")
        self.snapshot_save = QPushButton("Save snapshot")
        self.snapshot_save.clicked.connect(self.save_snapshot)
        self.snapshot_name.returnPressed.connect(self.save_snapshot)
        self.snap_a = QComboBox()
        self.snap_a.setAccessibleName("Snapshot A")
        self.snap_b = QComboBox()
        self.snap_b.setAccessibleName("Snapshot B")
        self.snap_compare = QPushButton("Compare")
        self.snap_compare.setToolTip("Snapshot B against A, question by question")
        self.snap_compare.clicked.connect(self.compare_snapshots)
        self.replay_button = QPushButton("Replay A")
        self.replay_button.setToolTip("Ask every question again under the configuration snapshot A kept, on the "
                                      "library open now, and say per question which judged results moved")
        self.replay_button.clicked.connect(self.replay)
        self.pick_list = QListWidget()
        self.pick_list.setAccessibleName("Rankings to line up (check two or more)")
        self.pick_list.setMaximumHeight(self.fontMetrics().height() * 5 + 8)
        self.pick_list.itemChanged.connect(lambda _item: self._fill_baseline())
        self.baseline_box = QComboBox()
        self.baseline_box.setAccessibleName("Baseline")
        self.lineup_button = QPushButton("Line up")
        self.lineup_button.setToolTip("The checked rankings side by side: each metric per kind of question "
                                      "against the baseline, and the rank of every judged result in each")
        self.lineup_button.clicked.connect(self.line_up)
        self.metric_box = QComboBox()
        self.metric_box.setAccessibleName("Metric per kind")
        for metric, words in METRIC_WORDS.items():
            self.metric_box.addItem(words, metric)
        self.metric_box.currentIndexChanged.connect(self._metric_chosen)
        self.snap_status = QLabel("Evaluate the set, save a snapshot, change something, evaluate and save again.")
        self.snap_status.setWordWrap(True)
        self.snap_status.setAccessibleName("Snapshot comparison summary")
        self.changes_model = ChangesModel(self)
        self.changes = table(QTableView(), "Snapshot changes per question", self.changes_model,
                             stretch=ChangesModel.QUERY)
        titles = self.bench.review.titles
        self.replay_model = ReplayModel(titles, self)
        self.replay_view = table(QTableView(), "Replayed snapshot per question", self.replay_model,
                                 stretch=ReplayModel.MOVED)
        self.replay_view.horizontalHeader().setSectionResizeMode(ReplayModel.QUESTION, QHeaderView.ResizeMode.Stretch)
        self.kinds_model = KindsModel(self)
        self.kinds_view = table(QTableView(), "Metrics per kind of question against the baseline", self.kinds_model)
        self.kinds_view.setTextElideMode(Qt.TextElideMode.ElideRight)  # a name keeps its beginning
        self._size_kinds()
        self.ranks_model = RanksModel(titles, self)
        self.ranks_view = table(QTableView(), "Rank of each judged result in each ranking", self.ranks_model,
                                stretch=RanksModel.CHUNK, titles=RanksModel.CHUNK)
        self.ranks_view.setTextElideMode(Qt.TextElideMode.ElideRight)  # a question keeps its beginning
        self.ranks_view.horizontalHeader().setTextElideMode(Qt.TextElideMode.ElideRight)
        self._size_ranks()
        self.results = QTabWidget()
        self.results.setAccessibleName("Snapshot results")
        self.results.setDocumentMode(True)
        for view, label in ((self.changes, "B against A"), (self.replay_view, "Replay"),
                            (self.kinds_view, "Per kind"), (self.ranks_view, "Ranks")):
            self.results.addTab(view, label)
        top = QHBoxLayout()
        top.addWidget(self.snapshot_name, 1)
        top.addWidget(self.snapshot_save)
        pick = QHBoxLayout()
        pick.addWidget(QLabel("A:"))
        pick.addWidget(self.snap_a, 1)
        pick.addWidget(QLabel("B:"))
        pick.addWidget(self.snap_b, 1)
        pick.addWidget(self.snap_compare)
        pick.addWidget(self.replay_button)
        several = QHBoxLayout()
        several.addWidget(self.pick_list, 1)
        side = QVBoxLayout()
        base_label = QLabel("Baseline:")
        base_label.setBuddy(self.baseline_box)
        side.addWidget(base_label)
        side.addWidget(self.baseline_box)
        side.addWidget(self.lineup_button)
        side.addWidget(self.metric_box)
        side.addStretch(1)
        several.addLayout(side)
        v = QVBoxLayout(self)
        v.addLayout(top)
        v.addLayout(pick)
        v.addLayout(several)
        v.addWidget(self.snap_status)
        v.addWidget(self.results, 1)

    # -- actions ---------------------------------------------------------------------------------
    def save_snapshot(self) -> None:
        if self.bench.snapshot_job.save_snapshot(self.snapshot_name.text()) is not None:
            self.snapshot_name.clear()

    def compare_snapshots(self) -> None:
        a, b = self.snap_a.currentData(), self.snap_b.currentData()
        if not a or not b:
            self.show_notice("Save two snapshots first, then choose them as A and B.")
            return
        self.bench.snapshot_job.compare_snapshots(Path(a), Path(b))

    def replay(self) -> None:
        a = self.snap_a.currentData()
        if not a:
            self.show_notice("Save a snapshot first, then choose it as A to replay it.")
            return
        self.bench.snapshot_job.replay(Path(a))

    def checked(self) -> tuple[bool, list[Path]]:
        """Whether the last evaluation is checked, and the checked snapshots, in the list's order."""
        last, files = False, []
        for i in range(self.pick_list.count()):
            item = self.pick_list.item(i)
            if item.checkState() is Qt.CheckState.Checked:
                path = item.data(PathRole)
                if path:
                    files.append(Path(path))
                else:
                    last = True
        return last, files

    def line_up(self) -> None:
        last, files = self.checked()
        self.bench.snapshot_job.line_up(files, with_last_run=last, baseline=max(0, self.baseline_box.currentIndex()))

    def _metric_chosen(self, _index: int) -> None:
        self.kinds_model.set_metric(self.metric_box.currentData())

    def render_progress(self, p: Progress) -> None:
        if self.bench.snapshot_job.replaying:
            self.snap_status.setText(f"Replaying: {p.done} of {p.total} questions asked again…")

    # -- rendering -------------------------------------------------------------------------------
    def _name_width(self) -> int:
        """A ranking's name or a question as the line-up pages show them: its first dozen characters."""
        return self.fontMetrics().averageCharWidth() * 12

    def _size_kinds(self) -> None:
        """Per kind: the ranking's name a set width (the interval beside it shows at 1000 px); the rest as
        :func:`.common.table` sized them."""
        header = self.kinds_view.horizontalHeader()
        header.setSectionResizeMode(KindsModel.RANKING, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(KindsModel.RANKING, self._name_width())

    def _size_ranks(self) -> None:
        """Ranks: the question (shown once per group) a set width, the result's title the rest (its passage
        kept whole), each ranking's column just wide enough for a rank (its name in the tooltip)."""
        header = self.ranks_view.horizontalHeader()
        header.setSectionResizeMode(RanksModel.QUESTION, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(RanksModel.QUESTION, self._name_width())
        header.setSectionResizeMode(RanksModel.CHUNK, QHeaderView.ResizeMode.Stretch)
        narrow = self.fontMetrics().horizontalAdvance("#10") + 16
        for col in range(RanksModel.CHUNK + 1, self.ranks_model.columnCount()):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(col, narrow)

    def _fill_baseline(self) -> None:
        last, files = self.checked()
        names = ([LAST_RUN] if last else []) + [f.stem for f in files]
        current = self.baseline_box.currentText()
        if [self.baseline_box.itemText(i) for i in range(self.baseline_box.count())] != names:
            self.baseline_box.clear()
            self.baseline_box.addItems(names)
            if current in names:
                self.baseline_box.setCurrentIndex(names.index(current))
        self.lineup_button.setEnabled(len(names) >= 2)

    def _fill_pick_list(self) -> None:
        files = self.bench.snapshot_job.snapshot_files
        wanted = [""] + [str(p) for p in files]
        if [self.pick_list.item(i).data(PathRole) for i in range(self.pick_list.count())] == wanted:
            return
        was = {self.pick_list.item(i).data(PathRole) for i in range(self.pick_list.count())
               if self.pick_list.item(i).checkState() is Qt.CheckState.Checked}
        self.pick_list.blockSignals(True)
        self.pick_list.clear()
        for path, label in zip(wanted, [f"{LAST_RUN} (Evaluate set)", *(p.stem for p in files)], strict=True):
            item = QListWidgetItem(label)
            item.setData(PathRole, path)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if path in was else Qt.CheckState.Unchecked)
            self.pick_list.addItem(item)
        self.pick_list.blockSignals(False)
        self._fill_baseline()

    def refresh(self) -> None:
        files = self.bench.snapshot_job.snapshot_files
        names = [str(p) for p in files]
        for combo, pick in ((self.snap_a, 1), (self.snap_b, 0)):
            if [combo.itemData(i) for i in range(combo.count())] == names:
                continue
            combo.clear()
            for p in files:
                combo.addItem(p.stem, str(p))
            if len(files) > pick:
                combo.setCurrentIndex(pick)
        self._fill_pick_list()
        job = self.bench.snapshot_job
        self.replay_button.setEnabled(not job.replaying)
        if self.bench.snapshot_job.changes is not None and self.bench.snapshot_job.changes is not self._shown_changes:
            self._shown_changes = self.bench.snapshot_job.changes
            name_a, name_b, changes = self.bench.snapshot_job.changes
            self.changes_model.set_changes(changes)
            better = [c for c in changes if (c.delta or 0) > 1e-9]
            worse = [c for c in changes if (c.delta or 0) < -1e-9]
            total = sum(c.delta or 0 for c in changes)
            self.results.setCurrentIndex(self.CHANGES_PAGE)
            self.snap_status.setText(
                f"{name_b} against {name_a}: {len(better)} questions better, {len(worse)} worse, "
                f"{len(changes) - len(better) - len(worse)} the same; mean nDCG@10 change "
                f"{total / len(changes) if changes else 0:+.3f}.")
        if job.lineup is not None and job.lineup is not self._shown_lineup:
            self._shown_lineup = found = job.lineup
            self.kinds_model.set_lineup(found)
            self._size_kinds()
            self.ranks_model.set_lineup(found)
            self._size_ranks()
            self.results.setCurrentIndex(self.KINDS_PAGE)
            moved = sum(1 for q in found.questions if q.spread > 1e-9)
            self.snap_status.setText(
                f"{len(found.rankings)} rankings against {found.rankings[found.baseline].name}: each metric's mean, "
                f"and for the others the difference with its 95% interval, per kind. {moved} of "
                f"{len(found.questions)} questions differ in nDCG@10; Ranks shows where each judged result is.")
        if job.replayed is not None and job.replayed is not self._shown_replay:
            self._shown_replay = found_replay = job.replayed
            self.replay_model.set_replay(found_replay)
            self.results.setCurrentIndex(self.REPLAY_PAGE)
            since = found_replay.changes()
            self.snap_status.setText(
                f"{found_replay.then.name} asked again today: {found_replay.diff.headline()} by nDCG@10. "
                + ("Since it was made: " + "; ".join(since) + "." if since else
                   "The library, the model and the judgments are as they were."))
        self.replay_model.titles_changed()
        self.ranks_model.titles_changed()
