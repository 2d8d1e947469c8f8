"""The relevance benchmark's report: every row per kind of question, ratios, floors and warning rates.

A golden set mixes kinds of question (``GoldenQuery.kind``: asked with a chapter open, a topic name, a
full question, a named passage, a word). A ranking can win on one kind and lose on another — a set asked
mostly with the chapter open hides what a topical question gets — so every row is printed per kind,
and the app preset's ratios to dense-only and BM25-only are printed for each kind. Beside relevance, each row
says how diverse its lists are: the mean number of authors in a top 10 and the mean of the most chunks one
author holds there.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from .chapters import VARIANTS
from .gaps import coverage
from .golden import GoldenSet
from .relevance import APP_ROW, BM25, DENSE, ModelReport, chapter_rows
from .run import EvalReport

#: the order kinds are printed in (others follow alphabetically)
KIND_ORDER = ("chapter", "passage", "topic", "question", "word")


def judged_share(golden: GoldenSet, report: EvalReport) -> float:
    """Mean share of each question's top 10 that carries a judgment (any grade).

    Unjudged chunks count as not relevant, so a ranking that finds chunks no pooled system found scores
    low for that alone: a low share says its numbers are a lower bound (docs/RELEVANCE.md, "Pooling").
    """
    return coverage(golden, report).judged_share


def kinds(golden: GoldenSet) -> list[str]:
    present = {q.kind for q in golden.queries}
    return [k for k in KIND_ORDER if k in present] + sorted(present - set(KIND_ORDER))


def ndcg_by_kind(golden: GoldenSet, report: EvalReport) -> dict[str, float]:
    """Mean nDCG@10 per kind of question, and ``all``."""
    kind_of = {q.id: q.kind for q in golden.queries}
    out = {"all": report.mean["ndcg@10"]}
    for kind in kinds(golden):
        values = [q.scores["ndcg@10"] for q in report.queries if kind_of.get(q.id) == kind]
        out[kind] = statistics.fmean(values) if values else 0.0
    return out


def format_benchmark(golden: GoldenSet, reports: Sequence[ModelReport]) -> str:
    columns = ["all", *kinds(golden)]
    counts = {k: sum(q.kind == k for q in golden.queries) for k in columns[1:]} | {"all": len(golden.queries)}
    lines = [f"Relevance on {golden.name!r}: {len(golden.queries)} judged questions, nDCG@10 per kind of question "
             f"({', '.join(f'{k} {counts[k]}' for k in columns)}); judged = share of the top 10 with a judgment", ""]
    for model in reports:
        rows = model.reports
        by_config = {r.config: r for r in rows}
        lines.append(f"model {model.model}  ({model.db.name}, {model.seconds:.0f} s)")
        header = (f"  {'configuration':<40} " + " ".join(f"{c[:8]:>8}" for c in columns)
                  + f" {'MRR@10':>7} {'R@10':>6} {'<10':>5} {'judged':>7} {'authors':>7} {'most':>5}")
        lines += [header, "  " + "-" * (len(header) - 2)]
        for r in rows:
            by_kind = ndcg_by_kind(golden, r)
            short = sum(q.n_ranked < 10 for q in r.queries) / max(1, len(r.queries))
            authors = statistics.fmean(q.authors for q in r.queries) if r.queries else 0.0
            most = statistics.fmean(q.most_by_one for q in r.queries) if r.queries else 0.0
            lines.append(
                f"  {r.config.describe():<40.40} " + " ".join(f"{by_kind[c]:8.3f}" for c in columns)
                + f" {r.mean['mrr@10']:7.3f} {r.mean['recall@10']:6.3f} {short:5.0%} {judged_share(golden, r):7.0%}"
                + f" {authors:7.1f} {most:5.1f}"
            )
        app = by_config.get(APP_ROW)
        if app is not None:
            for base, name in ((by_config.get(DENSE), "dense-only"), (by_config.get(BM25), "BM25-only")):
                if base is None:
                    continue
                ours, theirs = ndcg_by_kind(golden, app), ndcg_by_kind(golden, base)
                ratios = " ".join(f"{ours[c] / theirs[c] if theirs[c] else 0:7.2f}×" for c in columns)
                lines.append(f"  {'--preset app ÷ ' + name:<40} {ratios}")
        lines += format_chapters(golden, model, columns)
        for f in model.floors:
            meaning = f", meaning {f.meaning:.3f}" if f.meaning is not None else ""
            lines.append(f"  calibrated no-strong-match floor, {f.mode.value}: base {f.floor:.3f}{meaning} "
                         f"(keeps {f.kept:.0%} of answerable questions, flags {f.flagged:.0%} of unanswerable ones)")
        for w in model.rates:
            lines.append(f"  shipped floors, {w.label}: no_strong_match on {w.unanswerable_warned:.0%} of "
                         f"{w.unanswerable} unanswerable and {w.answerable_warned:.0%} of {w.answerable} answerable "
                         f"questions; fewer than 10 results on {w.short_lists:.0%} of answerable questions")
        lines.append("")
    return "\n".join(lines)


def format_chapters(golden: GoldenSet, model: ModelReport, columns: Sequence[str]) -> list[str]:
    """The chapter rows: each configuration with no chapter, the chapter the question is about and an
    unrelated one, and the app's unrelated and about rows against its no-chapter row, per kind."""
    if not model.chapters:
        return []
    lines = ["", f"  {'the same questions, the chapter open:':<40} " + " ".join(f"{c[:8]:>8}" for c in columns)]
    for config in chapter_rows():
        for variant in VARIANTS:
            report = model.chapters.get((variant, config))
            if report is not None:
                by_kind = ndcg_by_kind(golden, report)
                cells = " ".join(f"{by_kind[c]:8.3f}" for c in columns)
                lines.append(f"  {config.describe():<30} {variant:>9} {cells}")
    app = chapter_rows()[2]
    none = model.chapters.get(("none", app))
    if none is not None:
        base = ndcg_by_kind(golden, none)
        for variant in ("about", "unrelated"):
            report = model.chapters.get((variant, app))
            if report is not None:
                ours = ndcg_by_kind(golden, report)
                ratios = " ".join(f"{ours[c] / base[c] if base[c] else 0:7.3f}×" for c in columns)
                lines.append(f"  {'--preset app, ' + variant + ' ÷ none':<40} {ratios}")
    return lines
