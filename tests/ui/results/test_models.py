"""The item models (qtmodeltester), the score-bar delegate, and the words for boosts and rejections."""

from __future__ import annotations

import time

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QStyleOptionViewItem, QTableView

from amicus_desktop.core.query import BoostWeights, Profile, RetrievalContext
from amicus_desktop.core.references import ChapterRef
from amicus_desktop.core.results import Candidate, ChunkMetadata, ModelInfo, RetrievalResult, Timings
from amicus_desktop.present import breakdown, describe
from amicus_desktop.rerank import rerank
from amicus_desktop.retrieval import rerank_result
from amicus_desktop.session import ResultView
from amicus_desktop.ui.results.models import (
    ChunkRole,
    RejectedModel,
    ResultsModel,
    SortProxy,
    SortRole,
)
from amicus_desktop.ui.results.paint import ScoreBarDelegate


def candidates(n: int = 30) -> list[Candidate]:
    out = []
    scholars = ["matthew-henry", "scofield", None]
    for i in range(n):
        s = scholars[i % 3]
        traditions = {"matthew-henry": "reformed", "scofield": "dispensational"}
        meta = ChunkMetadata(scholar_id=s, tradition=traditions.get(s or ""),
                             book_id="romans" if i % 2 == 0 else "john", chapter_num=9 if i % 4 == 0 else 3,
                             verse_start=1, verse_end=5)
        out.append(Candidate(i + 1, f"c{i:03d}", "section_panel", f"s{i}", f"text {i}", meta, distance=0.2 + i * 0.01))
    return out


def make_result(ctx: RetrievalContext) -> RetrievalResult:
    cands = candidates()
    results, rejected = rerank(cands, ctx)
    return RetrievalResult(ctx.query, ModelInfo("m", 8), tuple(results), tuple(rejected), Timings(1, 2, 0.1, 3.1),
                           tuple(cands), ctx)


def view(ctx: RetrievalContext | None = None, previous: dict[str, int] | None = None) -> ResultView:
    ctx = ctx or RetrievalContext("q", chapter=ChapterRef("romans", 9))
    return ResultView(make_result(ctx), previous, "ask" if previous is None else "chapter", time.time())


def test_results_model_passes_modeltester(qtmodeltester, qapp) -> None:
    model = ResultsModel()
    model.set_view(view())
    qtmodeltester.check(model, force_py=True)
    model.set_view(None)
    qtmodeltester.check(model, force_py=True)


def test_rejected_model_passes_modeltester(qtmodeltester, qapp) -> None:
    model = RejectedModel()
    model.set_view(view())
    assert model.rowCount() == 20
    qtmodeltester.check(model, force_py=True)


def test_sort_proxy_passes_modeltester_and_sorts_numbers_as_numbers(qtmodeltester, qapp) -> None:
    model = ResultsModel()
    model.set_view(view())
    proxy = SortProxy()
    proxy.setSourceModel(model)
    qtmodeltester.check(proxy, force_py=True)
    proxy.sort(ResultsModel.FINAL, Qt.SortOrder.AscendingOrder)
    scores = [proxy.index(r, ResultsModel.FINAL).data(SortRole) for r in range(proxy.rowCount())]
    assert scores == sorted(scores)
    proxy.sort(ResultsModel.RANK, Qt.SortOrder.AscendingOrder)
    assert [proxy.index(r, 0).data(ChunkRole).rank for r in range(proxy.rowCount())] == list(range(1, 11))


def test_boosts_are_written_out_never_colour_alone(qapp) -> None:
    ctx = RetrievalContext("q", profile=Profile.of(["matthew-henry"], ["reformed"]), chapter=ChapterRef("romans", 9))
    model = ResultsModel()
    model.set_view(view(ctx))
    texts = [model.index(r, ResultsModel.BOOSTS).data() for r in range(model.rowCount())]
    assert "×1.5 chapter, ×1.1 scholar, ×1.05 tradition" in texts
    assert any(t == "none" for t in texts) or any("×" in t for t in texts)
    # the final score text is the engine's, unrounded value formatted
    first = model.chunk(0)
    assert model.index(0, ResultsModel.FINAL).data() == f"{first.score:.4f}"


def test_rank_moves_after_chapter_change(qapp) -> None:
    before = view(RetrievalContext("q", chapter=ChapterRef("romans", 9)))
    after_result = rerank_result(before.result, RetrievalContext("q", chapter=ChapterRef("john", 3)))
    prev = {r.chunk_id: r.rank for r in before.result.results}
    after = ResultView(after_result, prev, "chapter", before.asked_at)
    model = ResultsModel()
    model.set_view(after)
    moves = [model.index(r, ResultsModel.MOVE).data() for r in range(model.rowCount())]
    assert any(m.startswith("▲") for m in moves) and any(m.startswith("▼") or m == "new" for m in moves)
    tip = model.index(0, ResultsModel.MOVE).data(Qt.ItemDataRole.ToolTipRole)
    assert "after the chapter changed" in tip
    assert model.index(0, ResultsModel.MOVE).data(Qt.ItemDataRole.AccessibleTextRole)


def test_rejection_reasons_say_why(qapp) -> None:
    v = view()
    model = RejectedModel()
    model.set_view(v)
    reasons = [model.index(r, RejectedModel.REASON).data() for r in range(model.rowCount())]
    assert any(r.startswith("3rd chunk by matthew-henry: scholar cap") for r in reasons), reasons
    assert any("below the top-10 cut-off" in r for r in reasons)
    assert describe.ordinal(11) == "11th" and describe.ordinal(22) == "22nd" and describe.ordinal(3) == "3rd"


def test_breakdown_words_cover_every_step() -> None:
    ctx = RetrievalContext("q", profile=Profile.of(["scofield"]), chapter=ChapterRef("romans", 9),
                           weights=BoostWeights())
    r = make_result(ctx).results[0]
    steps = breakdown.breakdown_steps(r.breakdown, r.candidate, ctx)
    labels = [s.label for s in steps]
    assert labels[0] == "distance" and labels[1] == "similarity" and labels[-1] == "final"
    assert [s.label.split()[-1] for s in steps[2:5]] == ["chapter", "scholar", "tradition"]
    assert steps[-1].value == r.breakdown.final
    assert "Romans 9" in steps[2].words


def test_score_bar_delegate_paints_number(qapp) -> None:
    model = ResultsModel()
    model.set_view(view())
    table = QTableView()
    table.setModel(model)
    delegate = ScoreBarDelegate(table)
    image = QImage(200, 30, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    option = QStyleOptionViewItem()
    option.rect = image.rect()
    option.palette = table.palette()
    option.font = table.font()
    delegate.paint(painter, option, model.index(0, ResultsModel.FINAL))
    painter.end()
    assert delegate.sizeHint(option, model.index(0, ResultsModel.FINAL)).width() >= 110


def test_invalid_indexes_are_harmless(qapp) -> None:
    model = ResultsModel()
    model.set_view(view())
    assert model.data(QModelIndex()) is None
    assert model.data(model.index(99, 0)) is None
    assert model.chunk(-1) is None and model.row_of("nope") == -1


def test_every_row_says_what_it_is_with_display_names(qtmodeltester, qapp) -> None:
    """Title column from ``present.titles``, the snippet as its tooltip, scholars by display name."""
    from amicus_desktop.core.names import Names
    from amicus_desktop.core.scholars import Scholar

    ctx = RetrievalContext("q", chapter=ChapterRef("romans", 9))
    cands = [
        Candidate(1, "ws1", "word_study", "ws1",
                  "Word study: δικαιόω (dikaióō), Strong's Greek G1344, in Romans.\nTo render righteous.",
                  ChunkMetadata(book_id="romans"), distance=0.2),
        Candidate(2, "lex1", "lexicon_entry", "G2182",
                  "ἐφευρετής — Strong's Greek G2182. An inventor, contriver.", ChunkMetadata(), distance=0.25),
        Candidate(3, "mh1", "section_panel", "mh1", "Here the apostle speaks of election. It is of grace.",
                  ChunkMetadata(scholar_id="mh", tradition="reformed", book_id="romans", chapter_num=9,
                                verse_start=6, verse_end=13), distance=0.3),
    ]
    results, rejected = rerank(cands, ctx)
    result = RetrievalResult("q", ModelInfo("m", 8), tuple(results), tuple(rejected), Timings(1, 2, 0.1, 3.1),
                             tuple(cands), ctx)
    names = Names({"romans": "Romans"}, {"mh": Scholar("mh", "Matthew Henry", "reformed", "Concise Commentary")})
    model = ResultsModel(lambda: names)
    model.set_view(ResultView(result, None, "ask", time.time()))
    qtmodeltester.check(model, force_py=True)
    titles = {model.chunk(r).chunk_id: model.index(r, ResultsModel.TITLE).data() for r in range(model.rowCount())}
    assert titles["ws1"].startswith("δικαιόω") and "word study in Romans" in titles["ws1"]
    assert "G2182" in titles["lex1"] and "ἐφευρετής" in titles["lex1"]
    assert titles["mh1"].startswith("Matthew Henry") and "Romans 9:6-13" in titles["mh1"]
    assert len(set(titles.values())) == 3  # rows can be told apart
    row = model.row_of("mh1")
    assert model.index(row, ResultsModel.SCHOLAR).data() == "Matthew Henry"
    tip = model.index(row, ResultsModel.TITLE).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Here the apostle speaks of election.") and "mh1" in tip
    rejected_model = RejectedModel(lambda: names)
    rejected_model.set_view(ResultView(result, None, "ask", time.time()))
    qtmodeltester.check(rejected_model, force_py=True)
