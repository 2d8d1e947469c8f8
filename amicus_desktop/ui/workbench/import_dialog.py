"""Judges ▸ Import judgments…, once the file is chosen: whose ratings these are and how they read as grades.

A judge is a person: the name is asked for, filled in from the file's own ``judge`` column when it has one
(a Quepid CSV may; Quepid's own export, TREC qrels and ``_rank_eval`` never name one) and never taken from
the file's name. The scale is asked too: a rating is never guessed into a grade. Opened with ``open()``
(never ``exec()``): the window keeps running while it waits.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ...evaluate.interchange import FORMATS, NAMED


class ImportDialog(QDialog):
    """The judge's name and the rating scale for one ratings file; :meth:`judge` and :meth:`scale` once accepted."""

    def __init__(self, file_name: str, fmt: str, named: Sequence[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("importJudgments")
        self.setWindowTitle("Import judgments")
        if not named:
            said = "The file does not say who judged: name the person whose ratings these are."
        elif len(named) == 1:
            said = f"The file names its judge, {named[0]}. Change the name if it should read otherwise."
        else:
            said = (f"The file names {len(named)} judges ({', '.join(named[:4])}{'…' if len(named) > 4 else ''}): "
                    "each line is recorded as its judge's; a line that names nobody is recorded as the judge here.")
        self.intro = QLabel(f"{file_name} ({FORMATS[fmt].label}). {said}")
        self.intro.setWordWrap(True)
        self.judge_edit = QLineEdit(named[0] if len(named) == 1 else "")
        self.judge_edit.setAccessibleName("Judge")
        self.judge_edit.setPlaceholderText("the judge's name, e.g. Ana Ruiz")
        self.scale_box = QComboBox()
        self.scale_box.setEditable(True)
        self.scale_box.addItems(list(NAMED))
        self.scale_box.setAccessibleName("Rating scale")
        self.scale_box.setToolTip("How the file's ratings read as grades 0–3: a named scale, or pairs THEIRS=OURS")
        form = QFormLayout()
        form.addRow("&Judge:", self.judge_edit)
        form.addRow("Rating &scale:", self.scale_box)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Import")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self._needs_name = not named
        self.judge_edit.textChanged.connect(self._enable)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self.setMinimumWidth(max(440, self.fontMetrics().horizontalAdvance(FORMATS[fmt].label) + 160))
        self._enable()

    def _enable(self) -> None:
        """Import needs a name unless the file names its judges itself."""
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(bool(self.judge()) or not self._needs_name)

    def judge(self) -> str:
        return " ".join(self.judge_edit.text().split())

    def scale(self) -> str:
        return self.scale_box.currentText().strip() or "0-3"
