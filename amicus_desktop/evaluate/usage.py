"""Judgments from use: what a reader did with the results of a question, turned into candidate grades by a
click model, for a curator to confirm — and how far such grades agree with a human judge's. No Qt.

**What is recorded, and where.** Only with the reader's consent, given per workspace (off by default): for each
question asked, the results shown (their chunk ids, in rank order) and which of them the reader *opened*,
*copied*, *pinned* or *added to context*, with the time. One JSON file per workspace in the data folder
(``usage/<workspace>.json``, written atomically, like the notes never shared between workspaces); the question's
text is kept there — it is what the candidate grades are matched on — and never written to a log. Turning
consent off deletes the file::

    {"workspace": "default", "consent": true, "askings": [
      {"question": "…", "at": "2026-12-06T05:20:00Z", "shown": ["<chunk_id>", …],
       "actions": [{"chunk_id": "…", "rank": 3, "action": "copied", "at": "…"}]}]}

**The click model: the cascade model** (Craswell, Zoeter, Taylor and Ramsey, *An experimental comparison of
click position-bias models*, WSDM 2008), extended to several clicks per asking as the dependent click model
does (Guo, Liu and Wang, WSDM 2009): the reader reads the list from the top; every result above the last one
acted on was *examined*; an examined result acted on is *attractive* (a click), one not acted on was *skipped*;
results below the last action were perhaps never read and say nothing. An asking with no action at all is read,
as the cascade model reads it, as every shown result examined and skipped. Each (question, result) pair's
attractiveness is the Beta(1, 1)-smoothed share ``(clicks + 1) / (clicks + skips + 2)``.

**Candidate grades.** A pair with at least :data:`MIN_EVIDENCE` examinations gets a grade: attractiveness
≥ 0.75 and a strong action (copied, pinned, added to context: more than a look) → 3; ≥ 0.6 → 2; ≥ 0.4 → 1;
else 0. They are candidates only: nothing reaches a golden set until a curator confirms each (the workbench's
*From use* tab), and a confirmed grade is the curator's, with the evidence in its reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..files import read_small
from . import agreement as agree
from .golden import GoldenSet, write_json
from .judges import now

ACTIONS = ("opened", "copied", "pinned", "context")
STRONG = frozenset({"copied", "pinned", "context"})
ACTION_WORDS = {"opened": "opened", "copied": "copied", "pinned": "pinned", "context": "added to context"}
#: the askings a file keeps (the newest)
MAX_ASKINGS = 5000
MAX_FILE_BYTES = 16 << 20
#: examinations a pair needs before it gets a candidate grade
MIN_EVIDENCE = 2


def key(text: str) -> str:
    """How questions are matched: case and spacing ignored (as the workbench matches the question on screen)."""
    return " ".join(text.split()).casefold()


@dataclass(frozen=True)
class Action:
    chunk_id: str
    rank: int
    action: str
    at: str = ""


@dataclass(frozen=True)
class Asking:
    """One question asked: the results shown, in rank order, and what the reader did with them."""

    question: str
    at: str
    shown: tuple[str, ...]
    actions: tuple[Action, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"question": self.question, "at": self.at, "shown": list(self.shown),
                "actions": [{"chunk_id": a.chunk_id, "rank": a.rank, "action": a.action, "at": a.at}
                            for a in self.actions]}


@dataclass(frozen=True)
class UsageLog:
    """One workspace's consent and askings."""

    workspace: str
    consent: bool = False
    askings: tuple[Asking, ...] = ()

    def asked(self, question: str, shown: Sequence[str], at: str | None = None) -> UsageLog:
        """This log with a new asking (nothing when consent is off)."""
        if not self.consent:
            return self
        if self.askings and key(self.askings[-1].question) == key(question):
            return self  # the same question answered again at once (a pin or a filter re-ranked it): one asking,
            # kept as the reader first read it
        kept = (*self.askings, Asking(question, at or now(), tuple(shown)))[-MAX_ASKINGS:]
        return UsageLog(self.workspace, True, kept)

    def acted(self, question: str, chunk_id: str, action: str, at: str | None = None) -> UsageLog:
        """This log with ``action`` on ``chunk_id`` added to the latest asking of ``question`` (nothing when consent
        is off, the action is not one of :data:`ACTIONS`, or the result was not shown for that question)."""
        if not self.consent or action not in ACTIONS:
            return self
        for i in range(len(self.askings) - 1, -1, -1):
            a = self.askings[i]
            if key(a.question) == key(question):
                if chunk_id not in a.shown:
                    return self
                act = Action(chunk_id, a.shown.index(chunk_id) + 1, action, at or now())
                askings = list(self.askings)
                askings[i] = Asking(a.question, a.at, a.shown, (*a.actions, act))
                return UsageLog(self.workspace, True, tuple(askings))
        return self

    def to_json(self) -> dict[str, Any]:
        return {"workspace": self.workspace, "consent": self.consent, "askings": [a.to_json() for a in self.askings]}


def file_for(folder: Path, workspace: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", workspace).strip("-") or "workspace"
    return folder / f"{slug}.json"


def load(folder: Path, workspace: str) -> UsageLog:
    """The workspace's log; no file (or one that cannot be read, or another workspace's): consent off, nothing."""
    path = file_for(folder, workspace)
    try:
        data = json.loads(read_small(path, MAX_FILE_BYTES).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        return UsageLog(workspace)
    if not isinstance(data, dict) or data.get("workspace") != workspace:
        return UsageLog(workspace)
    askings = []
    for item in data.get("askings", []) if isinstance(data.get("askings"), list) else []:
        try:
            actions = tuple(Action(str(a["chunk_id"]), int(a["rank"]), str(a["action"]), str(a.get("at", "")))
                            for a in item.get("actions", []) if a.get("action") in ACTIONS)
            askings.append(Asking(str(item["question"]), str(item.get("at", "")),
                                  tuple(str(c) for c in item["shown"]), actions))
        except (KeyError, TypeError, ValueError, AttributeError):
            continue
    return UsageLog(workspace, data.get("consent") is True, tuple(askings))


def save(log: UsageLog, folder: Path) -> None:
    """Write the log atomically; with consent off the file is removed (nothing is kept)."""
    path = file_for(folder, log.workspace)
    if not log.consent:
        path.unlink(missing_ok=True)
        return
    write_json(log.to_json(), path)


# -- the cascade model ----------------------------------------------------------------------------
@dataclass
class Evidence:
    """One (question, result) pair: how often it was examined and acted on, and which actions."""

    question: str
    chunk_id: str
    clicks: int = 0
    skips: int = 0
    actions: dict[str, int] = field(default_factory=dict)
    best_rank: int = 0

    @property
    def examined(self) -> int:
        return self.clicks + self.skips

    @property
    def attractiveness(self) -> float:
        return (self.clicks + 1) / (self.examined + 2)

    @property
    def strong(self) -> bool:
        return any(a in STRONG for a in self.actions)


def cascade(askings: Iterable[Asking]) -> dict[tuple[str, str], Evidence]:
    """Each (question key, chunk id) pair's evidence under the cascade model (see the module's docstring)."""
    out: dict[tuple[str, str], Evidence] = {}
    for a in askings:
        acted = {x.chunk_id for x in a.actions}
        last = max((x.rank for x in a.actions), default=len(a.shown))
        for rank, chunk_id in enumerate(a.shown[:last], start=1):
            e = out.setdefault((key(a.question), chunk_id), Evidence(a.question, chunk_id))
            e.best_rank = min(e.best_rank or rank, rank)
            if chunk_id in acted:
                e.clicks += 1
                for x in a.actions:
                    if x.chunk_id == chunk_id:
                        e.actions[x.action] = e.actions.get(x.action, 0) + 1
            else:
                e.skips += 1
    return out


def grade_of(e: Evidence) -> int | None:
    """The candidate grade of a pair (``None``: too little evidence)."""
    if e.examined < MIN_EVIDENCE:
        return None
    p = e.attractiveness
    if p >= 0.75 and e.strong:
        return 3
    return 2 if p >= 0.6 else 1 if p >= 0.4 else 0


@dataclass(frozen=True)
class Candidate:
    """A grade derived from use, for a curator to confirm: the golden question it matches (``None``: none yet)."""

    query_id: str | None
    question: str
    chunk_id: str
    grade: int
    attractiveness: float
    clicks: int
    skips: int
    actions: tuple[tuple[str, int], ...]

    def evidence(self) -> str:
        """``copied 2, opened 1; examined 4 times, acted on 3 (cascade model, attractiveness 0.67)``."""
        did = ", ".join(f"{ACTION_WORDS[a]} {n}" for a, n in self.actions) or "never acted on"
        return (f"{did}; examined {self.clicks + self.skips} times, acted on {self.clicks} "
                f"(cascade model, attractiveness {self.attractiveness:.2f})")


def candidates(log: UsageLog, golden: GoldenSet | None = None) -> list[Candidate]:
    """The candidate grades of ``log``'s askings, matched to ``golden``'s questions by text, the strongest
    evidence first."""
    by_text = {key(q.query): q.id for q in golden.queries} if golden is not None else {}
    out = []
    for (qkey, chunk_id), e in cascade(log.askings).items():
        grade = grade_of(e)
        if grade is None:
            continue
        out.append(Candidate(by_text.get(qkey), e.question, chunk_id, grade, e.attractiveness, e.clicks, e.skips,
                             tuple(sorted(e.actions.items()))))
    out.sort(key=lambda c: (-(c.clicks + c.skips), -c.grade, c.question, c.chunk_id))
    return out


@dataclass(frozen=True)
class Comparison:
    """Derived grades beside a human judge's on the pairs both grade."""

    items: int
    kappa: float | None
    alpha: float | None
    exact: float
    within_one: float
    questions: int


def against(found: Sequence[Candidate], golden: GoldenSet) -> Comparison:
    """How far the candidate grades agree with ``golden``'s grades (Cohen's κ, linear weights; Krippendorff's α,
    ordinal) on the (question, result) pairs both cover."""
    a: list[int] = []
    b: list[int] = []
    questions = set()
    for c in found:
        q = golden.query(c.query_id) if c.query_id is not None else None
        if q is not None and c.chunk_id in q.judgments:
            a.append(c.grade)
            b.append(q.judgments[c.chunk_id])
            questions.add(q.id)
    if not a:
        return Comparison(0, None, None, 0.0, 0.0, 0)
    units = [[x, y] for x, y in zip(a, b, strict=True)]
    return Comparison(len(a), agree.cohen_kappa(a, b), agree.krippendorff_alpha(units), agree.exact(a, b),
                      agree.within_one(a, b), len(questions))
