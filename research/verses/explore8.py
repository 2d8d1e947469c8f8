"""Eighth round: keyword search over the lexicon for keyword mode; grouping adjacent verses into results."""
from __future__ import annotations

import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore import KINDS
from explore2 import show
from explore6 import lexicon_top, topn

from amicus_desktop.evaluate.metrics import ndcg


def lexicon_keyword(d):
    entry = {}
    for ci, c in enumerate(d.chunks):
        if c.source_type == "lexicon_entry" and c.chunk_id.startswith(("strongs:", "abbott-smith:")):
            entry.setdefault(c.chunk_id.split(":", 1)[1], []).append(ci)
    nums = sorted(entry)
    rows = [ci for n_ in nums for ci in entry[n_]]
    owner = [n_ for n_ in nums for _ in entry[n_]]
    lx = sg.Lexical([d.chunks[r].text for r in rows])
    S = np.vstack([lx.scores(q["query"]) for q in d.queries])
    col = {n_: i for i, n_ in enumerate(nums)}
    best = np.zeros((len(d.queries), len(nums)), dtype=np.float32)
    for j, n_ in enumerate(owner):
        best[:, col[n_]] = np.maximum(best[:, col[n_]], S[:, j])
    dfc = Counter(x for v in d.strongs for x in set(v))
    N = len(d.ids)
    idf = np.array([math.log(N / dfc.get(x, 1)) for x in nums], dtype=np.float32)
    best *= idf / math.log(N)
    out = np.zeros((len(d.queries), N), dtype=np.float32)
    for vi, vn in enumerate(d.strongs):
        cols = [col[x] for x in vn if x in col]
        if cols:
            out[:, vi] = best[:, cols].max(axis=1)
    return out


def grouped(d, S, qi, k=10, span=3):
    """Groups of adjacent verses from the top 2k, best first; flattened in canonical order within a group."""
    order = list(np.lexsort((np.arange(S.shape[1]), -S[qi]))[: 2 * k])
    chap = [vid.rsplit(":", 1)[0] for vid in d.ids]
    groups: list[list[int]] = []
    where: dict[int, int] = {}
    for i in order:
        g = next((where[j] for j in (i - 1, i + 1) if j in where and chap[j] == chap[i]
                  and len(groups[where[j]]) < span), None)
        if g is None:
            where[i] = len(groups)
            groups.append([i])
        else:
            groups[g].append(i)
            where[i] = g
    flat = [d.ids[i] for g in groups[:k] for i in sorted(g)]
    return flat[:10]


def show_grouped(name, d, S, train, test):
    def ev(which):
        per = {}
        for qi in which:
            q = d.queries[qi]
            per.setdefault(q["kind"], []).append(ndcg(grouped(d, S, qi), q["judgments"], 10))
        out = {k: float(np.mean(v)) for k, v in per.items()}
        out["all"] = float(np.mean([x for v in per.values() for x in v]))
        return out
    a, b = ev(train), ev(test)
    print(f"{name:<48} " + "  ".join(f"{a[k]:.3f}/{b[k]:.3f}" for k in (*KINDS, "all")))


def main():
    d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
    train, test = split(d.queries)
    D = sg.dense(d)
    B = sg.Lexical(d.texts).matrix(d)
    rows, cover = sg.commentary_cover(d)
    sims = d.Q @ d.C[rows].T
    cl = sg.Lexical([d.chunks[r].text for r in rows])
    CL = np.vstack([cl.scores(q["query"]) for q in d.queries])
    HL = sg.propagate(topn(CL, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    H = sg.propagate(topn(sims, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    L = lexicon_top(d, 300)
    LK = lexicon_keyword(d)
    nb = sg.neighbours
    show("keyword B+0.5HL", d, nb(d, B + 0.5 * HL, 0.3), train, test)
    for w in (0.2, 0.5):
        show(f"keyword B+0.5HL+{w}LK", d, nb(d, B + 0.5 * HL + w * LK, 0.3), train, test)
    S = nb(d, D + 0.5 * H + 0.5 * L + 0.1 * B + 0.2 * HL, 0.3)
    show("hybrid", d, S, train, test)
    show("hybrid + 0.1 LK", d, nb(d, D + 0.5 * H + 0.5 * L + 0.1 * B + 0.2 * HL + 0.1 * LK, 0.3), train, test)
    show_grouped("hybrid grouped (span 3)", d, S, train, test)
    show_grouped("dense grouped (span 3)", d, D, train, test)


if __name__ == "__main__":
    main()
