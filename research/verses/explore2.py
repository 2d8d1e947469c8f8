"""Second round: commentary variants and combinations, with the judged share of each top 10."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore import KINDS, evaluate


def judged(d, S, which):
    out = []
    for qi in which:
        order = np.lexsort((np.arange(S.shape[1]), -S[qi]))[:10]
        out.append(np.mean([d.ids[i] in d.queries[qi]["judgments"] for i in order]))
    return float(np.mean(out))


def show(name, d, S, train, test):
    a, b = evaluate(d, S, train), evaluate(d, S, test)
    cells = "  ".join(f"{a[k]:.3f}/{b[k]:.3f}" for k in (*KINDS, "all"))
    print(f"{name:<48} {cells}  {judged(d, S, train + test):.0%}", flush=True)


def affinity_comm(d, scholars=("matthew-henry", "c-i-scofield"), power=1.0, how="mul"):
    """comm(v) = max over covering chunks c of sim(q,c) × f(cos(v,c))."""
    rows, cover = sg.coverage(d, lambda c: c.source_type == "section_panel" and c.scholar in scholars)
    sims = d.Q @ d.C[rows].T
    out = np.zeros((d.Q.shape[0], len(d.ids)), dtype=np.float32)
    for j, idx in enumerate(cover):
        aff = d.V[idx] @ d.C[rows[j]]  # cos(verse, chunk)
        aff = np.clip(aff, 0, None)
        if how == "mul":
            s = sims[:, j][:, None] * (aff[None, :] ** power)
        else:
            s = sims[:, j][:, None] + power * aff[None, :]
        out[:, idx] = np.maximum(out[:, idx], s)
    return out


def main():
    d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
    train, test = split(d.queries)
    print(f"{'signal':<48} " + "  ".join(f"{k:>11}" for k in (*KINDS, "all")) + "  judged")
    D = sg.dense(d)
    B = sg.Lexical(d.texts).matrix(d)
    H = sg.commentary(d, span_power=0.25)
    L = sg.lexicon(d, ("strongs:", "abbott-smith:"), idf_power=1.0)
    show("dense", d, D, train, test)
    show("dense + 0.5 comm", d, D + 0.5 * H, train, test)
    for p in (0.5, 1.0, 2.0):
        A = affinity_comm(d, power=p)
        show(f"dense + 0.5 affcomm^{p}", d, D + 0.5 * A, train, test)
        show(f"dense + 1.0 affcomm^{p}", d, D + 1.0 * A, train, test)
    A = affinity_comm(d, power=0.3, how="add")
    show("dense + 0.5 (comm + 0.3 aff)", d, D + 0.5 * A, train, test)
    # combinations on train
    N = sg.neighbours
    best = []
    for a, b, c, beta in itertools.product((0.3, 0.5, 0.7), (0.0, 0.15, 0.3), (0.0, 0.1, 0.2), (0.0, 0.2)):
        S = D + a * H + b * L + c * B
        if beta:
            S = N(d, S, beta)
        best.append((evaluate(d, S, train)["all"], a, b, c, beta))
    best.sort(reverse=True)
    for _, a, b, c, beta in best[:8]:
        S = D + a * H + b * L + c * B
        if beta:
            S = N(d, S, beta)
        show(f"D+{a}H+{b}L+{c}B nb{beta}", d, S, train, test)


if __name__ == "__main__":
    main()
