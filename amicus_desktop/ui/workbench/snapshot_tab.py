"""The workbench's *Snapshots* tab: save the last evaluation's rankings under a name, then compare two
snapshots question by question."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QTableView, QVBoxLayout, QWidget

from ...session.workbench import Workbench
from .common import table
from .models import ChangesModel


class SnapshotTab(QWidget):
    """A name and *Save snapshot*, snapshots A and B and *Compare snapshots*, the changes per question.
    ``notice`` shows a sentence in the panel's notice line."""

    def __init__(self, bench: Workbench, notice: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self.show_notice = notice
        self._shown_changes: object = None
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
        self.snap_compare = QPushButton("Compare snapshots")
        self.snap_compare.clicked.connect(self.compare_snapshots)
        self.snap_status = QLabel("Evaluate the set, save a snapshot, change something, evaluate and save again.")
        self.snap_status.setWordWrap(True)
        self.snap_status.setAccessibleName("Snapshot comparison summary")
        self.changes_model = ChangesModel(self)
        self.changes = table(QTableView(), "Snapshot changes per question", self.changes_model,
                             stretch=ChangesModel.QUERY)
        top = QHBoxLayout()
        top.addWidget(self.snapshot_name, 1)
        top.addWidget(self.snapshot_save)
        pick = QHBoxLayout()
        pick.addWidget(QLabel("A:"))
        pick.addWidget(self.snap_a, 1)
        pick.addWidget(QLabel("B:"))
        pick.addWidget(self.snap_b, 1)
        pick.addWidget(self.snap_compare)
        v = QVBoxLayout(self)
        v.addLayout(top)
        v.addLayout(pick)
        v.addWidget(self.snap_status)
        v.addWidget(self.changes, 1)

    def save_snapshot(self) -> None:
        if self.bench.save_snapshot(self.snapshot_name.text()) is not None:
            self.snapshot_name.clear()

    def compare_snapshots(self) -> None:
        a, b = self.snap_a.currentData(), self.snap_b.currentData()
        if not a or not b:
            self.show_notice("Save two snapshots first, then choose them as A and B.")
            return
        self.bench.compare_snapshots(Path(a), Path(b))

    def refresh(self) -> None:
        files = self.bench.snapshot_files
        names = [str(p) for p in files]
        for combo, pick in ((self.snap_a, 1), (self.snap_b, 0)):
            if [combo.itemData(i) for i in range(combo.count())] == names:
                continue
            combo.clear()
            for p in files:
                combo.addItem(p.stem, str(p))
            if len(files) > pick:
                combo.setCurrentIndex(pick)
        if self.bench.changes is not None and self.bench.changes is not self._shown_changes:
            self._shown_changes = self.bench.changes
            name_a, name_b, changes = self.bench.changes
            self.changes_model.set_changes(changes)
            better = [c for c in changes if (c.delta or 0) > 1e-9]
            worse = [c for c in changes if (c.delta or 0) < -1e-9]
            total = sum(c.delta or 0 for c in changes)
            self.snap_status.setText(
                f"{name_b} against {name_a}: {len(better)} questions better, {len(worse)} worse, "
                f"{len(changes) - len(better) - len(worse)} the same; mean nDCG@10 change "
                f"{total / len(changes) if changes else 0:+.3f}.")
