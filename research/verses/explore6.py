"""Sixth round: the signals as the engine could compute them (top-N chunks only), per mode, on a DB."""
from __future__ import annotations

import itertools
import math
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore import evaluate
from explore2 import show


def topn(M, n):
    if n is None or n >= M.shape[1]:
        return M
    thr = np.sort(M, axis=1)[:, -n][:, None]
    return np.where(M >= thr, M, 0.0)


def lexicon_top(d, n, idf_power=1.0):
    entry = {}
    for ci, c in enumerate(d.chunks):
        if c.source_type == "lexicon_entry" and c.chunk_id.startswith(("strongs:", "abbott-smith:")):
            entry.setdefault(c.chunk_id.split(":", 1)[1], []).append(ci)
    nums = sorted(entry)
    rows = [ci for n_ in nums for ci in entry[n_]]
    owner = [n_ for n_ in nums for _ in entry[n_]]
    sims = topn(d.Q @ d.C[rows].T, n)          # the n nearest lexicon chunks
    col = {n_: i for i, n_ in enumerate(nums)}
    best = np.zeros((d.Q.shape[0], len(nums)), dtype=np.float32)
    for j, n_ in enumerate(owner):
        best[:, col[n_]] = np.maximum(best[:, col[n_]], sims[:, j])
    dfc = Counter(x for v in d.strongs for x in set(v))
    N = len(d.ids)
    idf = np.array([math.log(N / dfc.get(x, 1)) for x in nums], dtype=np.float32)
    best *= (idf / math.log(N)) ** idf_power
    out = np.zeros((d.Q.shape[0], N), dtype=np.float32)
    for vi, vn in enumerate(d.strongs):
        cols = [col[x] for x in vn if x in col]
        if cols:
            out[:, vi] = best[:, cols].max(axis=1)
    return out


def main():
    d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
    train, test = split(d.queries)
    D = sg.dense(d)
    B = sg.Lexical(d.texts).matrix(d)
    rows, cover = sg.commentary_cover(d)
    sims = d.Q @ d.C[rows].T
    cl = sg.Lexical([d.chunks[r].text for r in rows])
    CL = np.vstack([cl.scores(q["query"]) for q in d.queries])
    nb = sg.neighbours
    for n in (None, 100, 40):
        H = sg.propagate(topn(sims, n), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
        HL = sg.propagate(topn(CL, n), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
        for ln in (None, 50, 20):
            L = lexicon_top(d, ln)
            S = nb(d, D + 0.5 * H + 0.5 * L + 0.1 * B + 0.2 * HL, 0.3)
            show(f"hybrid comm top{n} lex top{ln}", d, S, train, test)
    H = sg.propagate(topn(sims, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    HL = sg.propagate(topn(CL, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    L = lexicon_top(d, 50)
    show("semantic D+0.5H+0.5L nb0.3", d, nb(d, D + 0.5 * H + 0.5 * L, 0.3), train, test)
    show("keyword B+0.2HL nb0.3", d, nb(d, B + 0.2 * HL, 0.3), train, test)
    for e in (0.5, 1.0, 2.0):
        show(f"keyword B+{e}HL nb0.3", d, nb(d, B + e * HL, 0.3), train, test)
    grid = []
    weights = ((0.3, 0.5, 0.7, 1.0), (0.3, 0.5, 0.7), (0.0, 0.1, 0.2), (0.1, 0.2, 0.4), (0.2, 0.3, 0.5))
    for a, b, c, e, beta in itertools.product(*weights):
        S = nb(d, D + a * H + b * L + c * B + e * HL, beta)
        grid.append((evaluate(d, S, train)["all"], a, b, c, e, beta))
    grid.sort(reverse=True)
    for _, a, b, c, e, beta in grid[:5]:
        show(f"D+{a}H+{b}L+{c}B+{e}HL nb{beta}", d, nb(d, D + a * H + b * L + c * B + e * HL, beta), train, test)
    grid = []
    for a, b, beta in itertools.product((0.3, 0.5, 0.7, 1.0), (0.3, 0.5, 0.7, 1.0), (0.2, 0.3, 0.5)):
        grid.append((evaluate(d, nb(d, D + a * H + b * L, beta), train)["all"], a, b, beta))
    grid.sort(reverse=True)
    for _, a, b, beta in grid[:3]:
        show(f"semantic D+{a}H+{b}L nb{beta}", d, nb(d, D + a * H + b * L, beta), train, test)


if __name__ == "__main__":
    main()
