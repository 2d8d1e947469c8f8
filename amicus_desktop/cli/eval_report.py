"""What ``amicus-desktop eval`` prints: one evaluation, a comparison, agreement, the gaps, a weight search.

Every table says beside the ranking's scores how much of it is judged and where its misses came from
(the candidate pool's recall), so a number is never read without what it rests on.
"""

from __future__ import annotations

import textwrap

from ..evaluate import compare
from ..evaluate.agreement import Agreement
from ..evaluate.gaps import Gap
from ..evaluate.golden import GRADES
from ..evaluate.run import EvalReport


def _judged(report: EvalReport) -> str:
    if not report.unjudged:
        return "every result in the top 10s is judged"
    questions = sum(1 for q in report.queries if q.unjudged)
    return (f"{report.judged_share:.0%} of the top 10s judged: {report.unjudged} unjudged results over {questions} "
            "questions count as not relevant (eval --gaps lists them)")


def _misses(report: EvalReport) -> str:
    search, rerank = report.misses
    total = search + rerank
    if not total:
        return "no relevant judged chunk is missing from a top 10"
    return (f"of the {total} relevant judged chunks not in a top 10, {search} were not among the candidates "
            f"(the search's misses) and {rerank} were (the ranking's)")


def format_report(report: EvalReport) -> str:
    pool = f"R@{report.config.candidates}"
    lines = [f"{report.name} · {len(report.queries)} questions · {report.config.describe()} · model {report.model}", ""]
    header = f"{'id':<14} {'nDCG@10':>8} {'MRR@10':>8} {'R@10':>8} {'pool ' + pool:>9} {'judged':>6}  question"
    lines += [header, "-" * len(header)]
    for q in report.queries:
        s = q.scores
        judged = "" if q.judged_share is None else f"{q.judged_share:.0%}"
        lines.append(f"{q.id:<14.14} {s['ndcg@10']:8.3f} {s['mrr@10']:8.3f} {s['recall@10']:8.3f} "
                     f"{q.pool_recall:9.3f} {judged:>6}  "
                     + (f"FAILED: {q.error}" if q.error else textwrap.shorten(q.query, 60, placeholder='…')))
    m = report.mean
    lines += ["-" * len(header), f"{'mean':<14} {m['ndcg@10']:8.3f} {m['mrr@10']:8.3f} {m['recall@10']:8.3f} "
              f"{report.pool_recall:9.3f} {report.judged_share:6.0%}", "",
              f"pool {pool}: the share of a question's relevant chunks among its candidates "
              f"({report.config.candidates} per search): {_misses(report)}.", f"Judged: {_judged(report)}."]
    if report.failed:
        lines += ["", f"{len(report.failed)} question(s) could not be asked and score 0: "
                  + ", ".join(q.id for q in report.failed[:10]) + (" …" if len(report.failed) > 10 else "")]
    if report.missing:
        lines += ["", f"{len(report.missing)} judged chunk ids are not in this database: "
                  + ", ".join(report.missing[:10]) + (" …" if len(report.missing) > 10 else "")]
    return "\n".join(lines)


def comparison_json(a: EvalReport, b: EvalReport) -> dict[str, object]:
    diffs, per_query = compare(a, b)
    return {"a": a.to_json(), "b": b.to_json(), "difference": [d.to_json() for d in diffs],
            "per_query": [{"id": qid, **delta} for qid, delta in per_query],
            "judged_share": {"a": a.judged_share, "b": b.judged_share}}


def format_comparison(a: EvalReport, b: EvalReport) -> str:
    diffs, per_query = compare(a, b)
    lines = [f"A: {a.config.describe()} · model {a.model}", f"B: {b.config.describe()} · model {b.model}", ""]
    header = f"{'id':<14} {'A nDCG':>7} {'B nDCG':>7} {'Δ':>7}  question"
    lines += [header, "-" * len(header)]
    for qa, qb, (_qid, delta) in zip(a.queries, b.queries, per_query, strict=True):
        mark = "▲" if delta["ndcg@10"] > 0 else "▼" if delta["ndcg@10"] < 0 else " "
        lines.append(f"{qa.id:<14.14} {qa.scores['ndcg@10']:7.3f} {qb.scores['ndcg@10']:7.3f} "
                     f"{delta['ndcg@10']:+7.3f}{mark} {textwrap.shorten(qa.query, 50, placeholder='…')}")
    better = sum(1 for _, d in per_query if d["ndcg@10"] > 0)
    worse = sum(1 for _, d in per_query if d["ndcg@10"] < 0)
    lines += ["", f"nDCG@10 better on {better}, worse on {worse}, equal on {len(per_query) - better - worse} questions",
              "", f"{'metric':<10} {'A':>7} {'B':>7} {'B − A':>8}  95% interval (paired bootstrap)"]
    for d in diffs:
        note = "" if d.significant else "  (includes 0)"
        interval = f"[{d.low:+.3f}, {d.high:+.3f}]"
        lines.append(f"{d.metric:<10} {d.mean_a:7.3f} {d.mean_b:7.3f} {d.delta:+8.3f}  {interval}{note}")
    lines += ["", f"Judged share of the top 10s: A {a.judged_share:.0%} ({a.unjudged} unjudged), "
              f"B {b.judged_share:.0%} ({b.unjudged} unjudged). Unjudged results count as not relevant."]
    if abs(a.judged_share - b.judged_share) >= 0.02:
        lines.append("The two sides are not judged alike: judge the gaps (eval --gaps) before reading the "
                     "difference as a difference in quality.")
    return "\n".join(lines)


def format_agreement(golden_name: str, agreement: Agreement, shown: int = 20) -> str:
    a = agreement
    if len(a.judges) < 2 or not a.items:
        who = ", ".join(a.judges) or "no judge"
        return (f"{golden_name}: agreement needs items graded by two judges or more; this set records {who}. "
                "Import another judge's ratings (amicus-desktop golden import … --judge NAME) or judge in the "
                "workbench under another name.")
    alpha = "n/a" if a.alpha is None else f"{a.alpha:.3f}"
    lines = [f"{golden_name}: {len(a.judges)} judges ({', '.join(a.judges)}), {a.items} items graded by two or more",
             f"Krippendorff's α (ordinal) {alpha} · exact agreement {a.exact:.0%} · "
             f"within one grade {a.within_one:.0%}", ""]
    for p in a.pairs:
        kappa = "n/a" if p.kappa is None else f"{p.kappa:.3f}"
        lines.append(f"{p.a} × {p.b}: {p.items} items, Cohen's κ (linear weights) {kappa}, exact {p.exact:.0%}, "
                     f"within one {p.within_one:.0%}")
        lines.append(f"  {p.a + ' ↓ / ' + p.b + ' →':<24}" + "".join(f"{g:>6}" for g in GRADES))
        for g in GRADES:
            lines.append(f"  {g:<24}" + "".join(f"{n:>6}" for n in p.confusion[g]))
    lines += ["", "Most disagreed (widest spread of grades first):"]
    for d in a.disagreements[:shown]:
        grades = ", ".join(f"{j} {g}" for j, g in d.grades.items())
        lines.append(f"  {d.query_id:<14.14} {d.chunk_id:<40.40} {grades}")
    return "\n".join(lines)


def format_gaps(gaps: list[Gap], report: EvalReport) -> str:
    if not gaps:
        return f"Every chunk in the top 10s of {report.config.describe()} is judged."
    lines = [f"{len(gaps)} unjudged chunks in the top 10s of {report.config.describe()} "
             f"({sum(1 for q in report.queries if q.unjudged)} questions); judge them, best ranks first:", ""]
    current = None
    for g in gaps:
        if g.query_id != current:
            current = g.query_id
            lines.append(f"{g.query_id}: {textwrap.shorten(g.query, 70, placeholder='…')}")
        lines.append(f"  #{g.rank:<3} {g.chunk_id}")
    return "\n".join(lines)


def agreement_json(found: Agreement) -> dict[str, object]:
    return {
        "judges": list(found.judges), "items": found.items, "alpha_ordinal": found.alpha, "exact": found.exact,
        "within_one": found.within_one,
        "pairs": [{"a": p.a, "b": p.b, "items": p.items, "kappa_linear": p.kappa, "exact": p.exact,
                   "within_one": p.within_one, "confusion": p.confusion} for p in found.pairs],
        "disagreements": [{"id": d.query_id, "chunk_id": d.chunk_id, "grades": d.grades, "grade": d.grade}
                          for d in found.disagreements],
    }
