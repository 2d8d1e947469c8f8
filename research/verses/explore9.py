"""Ninth round: a phrase signal (the question's consecutive word pairs found as phrases in the verse)."""
from __future__ import annotations

import itertools
import math
import re
import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore2 import show
from explore6 import lexicon_top, topn
from explore8 import lexicon_keyword


def phrases(d, lex: sg.Lexical) -> np.ndarray:
    """Σ idf of the question's word pairs found as phrases in the verse ÷ Σ idf of all its pairs."""
    out = np.zeros((len(d.queries), len(d.ids)), dtype=np.float32)
    for qi, q in enumerate(d.queries):
        words = re.findall(r"[^\W_]+", q["query"].lower())
        pairs = [f'"{a} {b}"' for a, b in itertools.pairwise(words)]
        weights, hits = [], []
        for p in dict.fromkeys(pairs):
            rows = [r for (r,) in lex.con.execute("SELECT rowid FROM f WHERE f MATCH ?", [p])]
            if not rows:
                weights.append(math.log(len(d.ids)))
                hits.append([])
                continue
            weights.append(math.log(len(d.ids) / len(rows)))
            hits.append(rows)
        total = sum(weights)
        if not total:
            continue
        for w, rows in zip(weights, hits, strict=True):
            out[qi, rows] += w / total
    return out


def main():
    d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
    train, test = split(d.queries)
    lex = sg.Lexical(d.texts)
    D = sg.dense(d)
    B = lex.matrix(d)
    P = phrases(d, lex)
    rows, cover = sg.commentary_cover(d)
    sims = d.Q @ d.C[rows].T
    cl = sg.Lexical([d.chunks[r].text for r in rows])
    CL = np.vstack([cl.scores(q["query"]) for q in d.queries])
    HL = sg.propagate(topn(CL, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    H = sg.propagate(topn(sims, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    L = lexicon_top(d, 300)
    LK = lexicon_keyword(d)
    nb = sg.neighbours
    base = D + 0.1 * B + 0.5 * H + 0.2 * HL + 0.5 * L + 0.1 * LK
    show("hybrid (engine weights)", d, nb(d, base, 0.3), train, test)
    show("phrase alone", d, P, train, test)
    for w in (0.1, 0.2, 0.4):
        show(f"hybrid + {w} phrase", d, nb(d, base + w * P, 0.3), train, test)
    qi = next(i for i, q in enumerate(d.queries) if "only child" in q["query"])
    print(d.queries[qi]["query"], [(d.ids[i], round(float(P[qi, i]), 2)) for i in np.argsort(-P[qi])[:5]])


if __name__ == "__main__":
    main()
