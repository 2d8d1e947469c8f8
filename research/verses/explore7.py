"""Seventh round: how many chunks the engine must look at (lexicon top N, one KNN over all chunks)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore2 import show
from explore6 import lexicon_top, topn


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
    nb = sg.neighbours
    H = sg.propagate(topn(sims, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    for n in (None, 1000, 300, 100):
        L = lexicon_top(d, n)
        show(f"hybrid, lexicon top {n}", d, nb(d, D + 0.5 * H + 0.5 * L + 0.1 * B + 0.2 * HL, 0.3), train, test)
    L = lexicon_top(d, None)
    for sp in (0.0, 0.25, 0.5):
        Hs = sg.propagate(topn(sims, 100), list(range(len(rows))), cover, len(d.ids), span_power=sp)
        show(f"hybrid, comm span^{sp}", d, nb(d, D + 0.5 * Hs + 0.5 * L + 0.1 * B + 0.2 * HL, 0.3), train, test)
    for ip in (0.5, 1.0, 2.0):
        Li = lexicon_top(d, None, idf_power=ip)
        show(f"hybrid, lexicon idf^{ip}", d, nb(d, D + 0.5 * H + 0.5 * Li + 0.1 * B + 0.2 * HL, 0.3), train, test)


if __name__ == "__main__":
    main()
