"""The settings dialog: database, proxy, token and ranking weights.

The fields edit the saved settings. When ``--db``, ``--proxy`` or the environment override one
for this run, a line under it says which value is in use and where it comes from, so the dialog
never shows one database while the window reads another.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from .. import paths
from ..config import DB_ENV, PROXY_URL_ENV, TOKEN_ENV, Resolved
from ..config import Connection as ConnectionInUse
from ..core.text import echo
from ..http.urls import redact_urls
from ..knobs import BY_SETTING
from ..settings import Settings, validate
from .weights import boost_spin

DB_FILTER = "Scripture databases (*.db *.sqlite *.sqlite3);;All files (*)"


def choose_database(parent: QWidget | None, start: str = "") -> str | None:
    path, _ = QFileDialog.getOpenFileName(parent, "Open a scripture database", start or str(paths.data_dir()),
                                          DB_FILTER)
    return path or None


class SettingsDialog(QDialog):
    """Edits a copy of :class:`Settings`; :meth:`result_settings` returns the edited copy."""

    def __init__(self, settings: Settings, *, writable: bool = True, notice: str | None = None,
                 parent: QWidget | None = None, in_use: ConnectionInUse | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Settings")
        self._settings = settings

        self.db_edit = QLineEdit(settings.db_path or "")
        self.db_edit.setPlaceholderText(str(paths.default_db_path()))
        self.db_edit.setAccessibleName("Database file")
        browse = QPushButton("Browse…")
        browse.setAccessibleName("Browse for a database file")
        browse.clicked.connect(self._browse)
        db_row = QHBoxLayout()
        db_row.addWidget(self.db_edit, 1)
        db_row.addWidget(browse)

        self.proxy_edit = QLineEdit(settings.proxy_url)
        self.proxy_edit.setPlaceholderText(paths.DEFAULT_PROXY_URL)
        self.proxy_edit.setAccessibleName("Proxy URL")
        self.token_edit = QLineEdit(settings.token or "")
        self.token_edit.setEchoMode(QLineEdit.EchoMode.Password)
        self.token_edit.setPlaceholderText("none")
        self.token_edit.setAccessibleName("Proxy token")
        self.show_token = QCheckBox("Show")
        self.show_token.toggled.connect(
            lambda on: self.token_edit.setEchoMode(QLineEdit.EchoMode.Normal if on else QLineEdit.EchoMode.Password)
        )
        token_row = QHBoxLayout()
        token_row.addWidget(self.token_edit, 1)
        token_row.addWidget(self.show_token)

        conn = QGroupBox("Connection")
        form = QFormLayout(conn)
        self.source_labels: dict[str, QLabel] = {}
        form.addRow("Database:", db_row)
        self._source_row(form, "db_path", in_use.db_path if in_use else None, "--db", DB_ENV)
        form.addRow("Embed proxy URL:", self.proxy_edit)
        self._source_row(form, "proxy_url", in_use.proxy_url if in_use else None, "--proxy", PROXY_URL_ENV)
        form.addRow("Proxy token:", token_row)
        self._source_row(form, "token", in_use.token if in_use else None, None, TOKEN_ENV)
        token_note = QLabel("The token is stored in your settings file, readable only by you.")
        token_note.setWordWrap(True)
        form.addRow("", token_note)

        self.chapter_spin = boost_spin("Chapter boost", settings.chapter_boost)
        self.scholar_spin = boost_spin("Scholar boost", settings.scholar_boost)
        self.tradition_spin = boost_spin("Tradition boost", settings.tradition_boost)
        self.reference_spin = boost_spin("Reference boost", settings.reference_boost)
        self.cap_spin = _int_spin(settings.per_scholar_cap or 0, 0, _whole("per_scholar_cap")[1],
                                  "Chunks per scholar (0: no cap)")
        self.cap_spin.setSpecialValueText("no cap")
        self.k_spin = _int_spin(settings.k, *_whole("k"), "Results shown")
        self.candidates_spin = _int_spin(settings.candidates, *_whole("candidates"), "Candidates searched")
        ranking = QGroupBox("Ranking")
        rform = QFormLayout(ranking)
        rform.addRow("Chapter boost (×):", self.chapter_spin)
        rform.addRow("Scholar boost (×):", self.scholar_spin)
        rform.addRow("Tradition boost (×):", self.tradition_spin)
        rform.addRow("Reference boost (×):", self.reference_spin)
        rform.addRow("At most per scholar:", self.cap_spin)
        rform.addRow("Results shown (k):", self.k_spin)
        rform.addRow("Candidates searched:", self.candidates_spin)
        # what the workbench's weight search may change beside the boosts (0 reads "off" / "hard cap")
        self.alpha_spin = _fraction_spin(settings.alpha, _whole("alpha")[0], "Hybrid fusion: weight of meaning (alpha)")
        self.spread_spin = _fraction_spin(settings.spread or 0.0, _whole("spread")[0],
                                          "Spread factor past the cap per source")
        self.spread_spin.setSpecialValueText("hard cap")
        self.focus_spin = boost_spin("Focus chapter boost", settings.focus_boost or 0.1)
        self.focus_spin.setMinimum(1.0 - 0.05)
        self.focus_spin.setSpecialValueText("off")
        if settings.focus_boost is None:
            self.focus_spin.setValue(self.focus_spin.minimum())
        self.judge_edit = QLineEdit(settings.judge_name or "")
        self.judge_edit.setPlaceholderText("your login name")
        self.judge_edit.setAccessibleName("Your name as a judge in golden sets")
        rform.addRow("Hybrid fusion α:", self.alpha_spin)
        rform.addRow("Spread past the cap (×):", self.spread_spin)
        rform.addRow("Focus chapter boost (×):", self.focus_spin)
        rform.addRow("Judge name (workbench):", self.judge_edit)

        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.hide()
        self.notice = QLabel(notice or "")
        self.notice.setWordWrap(True)
        self.notice.setVisible(bool(notice) or not writable)
        if not writable and not notice:
            self.notice.setText("Settings cannot be saved on this computer; changes last until the app closes.")

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
                                   | QDialogButtonBox.StandardButton.RestoreDefaults)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(self._defaults)

        layout = QVBoxLayout(self)
        layout.addWidget(self.notice)
        layout.addWidget(conn)
        layout.addWidget(ranking)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.resize(560, self.sizeHint().height())

    def _source_row(self, form: QFormLayout, name: str, value: Resolved[Any] | None, flag: str | None,
                    env: str) -> None:
        """A line under a field: the value in use and where it comes from (the token is never shown)."""
        if value is None:
            return
        label = QLabel(source_note(value, flag, env, secret=name == "token"))
        label.setWordWrap(True)
        label.setAccessibleName(f"In use: {name.replace('_', ' ')}")
        role = QPalette.ColorRole.WindowText if value.overridden else QPalette.ColorRole.PlaceholderText
        label.setForegroundRole(role)
        self.source_labels[name] = label
        form.addRow("", label)

    def result_settings(self) -> Settings:
        return self._settings

    def edited(self) -> Settings:
        return self._settings.replace(
            db_path=self.db_edit.text().strip() or None,
            proxy_url=self.proxy_edit.text().strip() or paths.DEFAULT_PROXY_URL,
            token=self.token_edit.text() or None,
            chapter_boost=self.chapter_spin.value(),
            scholar_boost=self.scholar_spin.value(),
            tradition_boost=self.tradition_spin.value(),
            reference_boost=self.reference_spin.value(),
            per_scholar_cap=self.cap_spin.value() or None,
            alpha=self.alpha_spin.value(),
            spread=self.spread_spin.value() or None,
            focus_boost=None if self.focus_spin.value() == self.focus_spin.minimum() else self.focus_spin.value(),
            judge_name=self.judge_edit.text().strip() or None,
            k=self.k_spin.value(),
            candidates=max(self.candidates_spin.value(), self.k_spin.value()),
        )

    def _accept(self) -> None:
        try:
            self._settings = validate(self.edited())
        except ValueError as exc:
            self.error.setText(f"Please correct: {exc}.")
            self.error.show()
            return
        self.accept()

    def _defaults(self) -> None:
        d = Settings()
        self.proxy_edit.setText(d.proxy_url)
        self.chapter_spin.setValue(d.chapter_boost)
        self.scholar_spin.setValue(d.scholar_boost)
        self.tradition_spin.setValue(d.tradition_boost)
        self.reference_spin.setValue(d.reference_boost)
        self.cap_spin.setValue(d.per_scholar_cap or 0)
        self.alpha_spin.setValue(d.alpha)
        self.spread_spin.setValue(d.spread or 0.0)
        self.focus_spin.setValue(d.focus_boost or self.focus_spin.minimum())
        self.k_spin.setValue(d.k)
        self.candidates_spin.setValue(d.candidates)

    def _browse(self) -> None:
        path = choose_database(self, self.db_edit.text())
        if path:
            self.db_edit.setText(path)


def source_note(value: Resolved[Any], flag: str | None, env: str, *, secret: bool = False) -> str:
    """``In use: /data/other.db — from the --db flag, for this run only; the saved value below
    applies when the app starts without it.`` (and shorter for a saved or default value)."""
    shown = ("a token" if value.value else "no token") if secret else echo(redact_urls(str(value.value)), 200)
    if value.source == "flag":
        return (f"In use: {shown} — from the {flag} option, for this run only; the saved value above "
                "applies when the app starts without it.")
    if value.source == "environment":
        return (f"In use: {shown} — from the {env} environment variable, for this run only; the saved value "
                "above applies when it is not set.")
    if value.source == "settings":
        return f"In use: {shown} — from your settings."
    return f"In use: {shown} — the default."


def _whole(setting: str) -> tuple[int, int]:
    """A setting's range, from its knob's row of the table (:data:`amicus_desktop.knobs.KNOBS`)."""
    lo, hi = BY_SETTING[setting].settings_bounds()
    return int(lo), int(hi)


def _fraction_spin(value: float, lo: float, name: str) -> QDoubleSpinBox:
    spin = QDoubleSpinBox()
    spin.setRange(lo, 1.0)
    spin.setDecimals(2)
    spin.setSingleStep(0.05)
    spin.setValue(value)
    spin.setAccessibleName(name)
    return spin


def _int_spin(value: int, lo: int, hi: int, name: str) -> QSpinBox:
    spin = QSpinBox()
    spin.setRange(lo, hi)
    spin.setValue(value)
    spin.setAccessibleName(name)
    return spin
