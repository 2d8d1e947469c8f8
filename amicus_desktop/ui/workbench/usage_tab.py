"""The workbench's *From use* tab: the reader's consent to record, in this workspace only, which results they
open, copy, pin or add to context — off by default, said plainly — and the candidate grades the cascade model
derives from that record, for the curator to confirm one by one (0–3 confirms at that grade, Enter at the
candidate's), with how far such grades agree with the open set's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtWidgets import QCheckBox, QHeaderView, QLabel, QVBoxLayout, QWidget

from ...evaluate.usage import Candidate
from ...session.workbench import Workbench
from .common import GradingView, on_row, table
from .models import GRADE_WORDS, Table

CONSENT = "Record how I use the results, in this workspace"
PRIVACY = ("Which results you open, copy, pin or add to context, for each question, to suggest judgments. "
           "Off unless you turn it on, for each workspace. What is kept — each question and what you did with its "
           "results — stays in this workspace's own file on this computer: it is never sent anywhere, never written "
           "to a log, and no other workspace sees it. Turning it off deletes it.")


class CandidatesModel(Table):
    """Candidate grades from use: the question, the result (by title), the grade, the evidence, the set's grade."""

    COLUMNS = ("Question", "Result", "Suggested", "In the set", "Evidence")
    QUESTION, CHUNK, GRADE, SET, EVIDENCE = range(5)

    def __init__(self, titles: Callable[[list[str]], dict[str, str]], set_grade: Callable[[Candidate], int | None],
                 parent: Any = None) -> None:
        super().__init__(parent)
        self._titles = titles
        self._set_grade = set_grade
        self._rows: list[Candidate] = []

    def set_candidates(self, rows: list[Candidate]) -> None:
        self._rows = rows
        self._titles([c.chunk_id for c in rows])
        self._reset(len(rows))

    def candidate(self, row: int) -> Candidate | None:
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def key(self, row: int) -> str | None:
        return self._rows[row].chunk_id

    def refresh_cells(self) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(self.COLUMNS) - 1))

    def cell(self, row: int, col: int) -> str:
        c = self._rows[row]
        if col == self.QUESTION:
            return c.question
        if col == self.CHUNK:
            return self._titles([c.chunk_id]).get(c.chunk_id, c.chunk_id)
        if col == self.GRADE:
            return str(c.grade)
        if col == self.SET:
            g = self._set_grade(c)
            return "–" if g is None else str(g)
        return c.evidence()

    def tooltip(self, row: int, col: int) -> str | None:
        c = self._rows[row]
        if col == self.GRADE:
            return f"Suggested: {GRADE_WORDS[c.grade]}. Press Enter to confirm it, or 0–3 to give your own grade."
        if col == self.CHUNK:
            title = self._titles([c.chunk_id]).get(c.chunk_id)
            return f"{title}\n{c.chunk_id}" if title else c.chunk_id
        return c.evidence() if col == self.EVIDENCE else c.question


class UsageTab(QWidget):
    def __init__(self, bench: Workbench, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.bench = bench
        self.consent = QCheckBox(CONSENT)
        self.consent.setAccessibleName("Record how I use the results, in this workspace")
        self.consent.setToolTip("Which results you open, copy, pin or add to context, to suggest judgments")
        self.consent.toggled.connect(self._consent_toggled)
        self.privacy = QLabel(PRIVACY)
        self.privacy.setWordWrap(True)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setAccessibleName("Judgments from use")
        self.model = CandidatesModel(bench.review.titles, self._set_grade, self)
        self.view = GradingView(self._confirm_row)
        table(self.view, "Suggested judgments from use (Enter confirms, 0–3 grades)", self.model,
              stretch=CandidatesModel.CHUNK, titles=CandidatesModel.CHUNK)
        self.view.horizontalHeader().setSectionResizeMode(CandidatesModel.QUESTION, QHeaderView.ResizeMode.Stretch)
        self.view.horizontalHeader().setSectionResizeMode(CandidatesModel.EVIDENCE, QHeaderView.ResizeMode.Interactive)
        self.view.activatedRow.connect(lambda row: self._confirm_row(row, None))
        on_row(self.view, self._row_selected)
        v = QVBoxLayout(self)
        v.addWidget(self.consent)
        v.addWidget(self.privacy)
        v.addWidget(self.status)
        v.addWidget(self.view, 1)
        self._shown: list[Candidate] | None = None

    def _set_grade(self, c: Candidate) -> int | None:
        golden = self.bench.golden_job.golden
        q = golden.query(c.query_id) if golden is not None and c.query_id is not None else None
        return q.judgments.get(c.chunk_id) if q is not None else None

    def _consent_toggled(self, on: bool) -> None:
        if on != self.bench.usage.consent:
            self.bench.usage.set_consent(on)

    def _confirm_row(self, row: int, grade: int | None) -> bool:
        c = self.model.candidate(row)
        return c is not None and self.bench.usage.confirm(c, grade)

    def _row_selected(self, row: int) -> None:
        c = self.model.candidate(row)
        if c is not None:
            self.bench.preview.show(c.chunk_id)

    def refresh(self) -> None:
        usage = self.bench.usage
        self.consent.blockSignals(True)
        self.consent.setChecked(usage.consent)
        self.consent.blockSignals(False)
        found = usage.candidates()
        if found != self._shown:
            self._shown = found
            self.model.set_candidates(found)
        else:
            self.model.refresh_cells()
        askings = len(usage.record.askings)
        if not usage.consent:
            self.status.setText("Nothing is recorded in this workspace.")
            return
        parts = [f"{askings} questions recorded in this workspace; {len(found)} suggested judgments (the cascade "
                 "model: results above the last one you used were read, those you used are attractive, the others "
                 "skipped; two readings at least)."]
        compared = usage.agreement()
        if compared is not None and compared.items:
            kappa = "–" if compared.kappa is None else f"{compared.kappa:.2f}"
            alpha = "–" if compared.alpha is None else f"{compared.alpha:.2f}"
            parts.append(f"Against the set's grades on the {compared.items} results both grade ({compared.questions} "
                         f"questions): Cohen's κ {kappa}, Krippendorff's α {alpha}, {compared.exact:.0%} the same.")
        self.status.setText(" ".join(parts))
