"""Fourth round: keyword search over the commentary, propagated to the verses it covers."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore import evaluate
from explore2 import show


def main():
    d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
    train, test = split(d.queries)
    D = sg.dense(d)
    B = sg.Lexical(d.texts).matrix(d)
    H = sg.commentary(d, span_power=0.25)
    L = sg.lexicon(d, ("strongs:", "abbott-smith:"), idf_power=1.0)
    nb = sg.neighbours
    rows, cover = sg.commentary_cover(d)
    cl = sg.Lexical([d.chunks[r].text for r in rows])
    CL = np.vstack([cl.scores(q["query"]) for q in d.queries])
    for sp in (0.0, 0.25, 0.5):
        HL = sg.propagate(CL, list(range(len(rows))), cover, len(d.ids), span_power=sp)
        show(f"comm-lex alone sp{sp}", d, HL, train, test)
        for w in (0.2, 0.4):
            show(f"combo + {w} comm-lex sp{sp}", d, nb(d, D + 0.5 * H + 0.3 * L + 0.1 * B + w * HL, 0.2), train, test)
    # commentary fused at chunk level (0.7 sim + 0.3 lex), propagated
    sims = d.Q @ d.C[rows].T
    for a in (0.5, 0.7):
        F = a * sims + (1 - a) * CL
        HF = sg.propagate(F, list(range(len(rows))), cover, len(d.ids), span_power=0.25)
        for w in (0.5, 0.8):
            show(f"combo, comm fused a{a} w{w}", d, nb(d, D + w * HF + 0.3 * L + 0.1 * B, 0.2), train, test)
    HL = sg.propagate(CL, list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    grid = []
    weights = ((0.3, 0.5, 0.7), (0.2, 0.3, 0.5), (0.0, 0.1, 0.2), (0.1, 0.2, 0.4), (0.1, 0.2, 0.3))
    for a, b, c, e, beta in itertools.product(*weights):
        S = nb(d, D + a * H + b * L + c * B + e * HL, beta)
        grid.append((evaluate(d, S, train)["all"], a, b, c, e, beta))
    grid.sort(reverse=True)
    for _, a, b, c, e, beta in grid[:6]:
        show(f"D+{a}H+{b}L+{c}B+{e}HL nb{beta}", d, nb(d, D + a * H + b * L + c * B + e * HL, beta), train, test)


if __name__ == "__main__":
    main()
