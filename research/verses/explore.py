"""Score candidate verse-search signals on the verse golden set, train and held-out halves per kind.

    .venv/bin/python research/verses/explore.py --db DEMO.db
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import signals as sg
from data import Data, load, split

from amicus_desktop.evaluate.metrics import ndcg

KINDS = ("topic", "question", "paraphrase")


def evaluate(d: Data, S: np.ndarray, which: list[int]) -> dict[str, float]:
    per: dict[str, list[float]] = {}
    for qi in which:
        q = d.queries[qi]
        order = np.lexsort((np.arange(S.shape[1]), -S[qi]))[:10]
        per.setdefault(q["kind"], []).append(ndcg([d.ids[i] for i in order], q["judgments"], 10))
    out = {k: float(np.mean(v)) for k, v in per.items()}
    out["all"] = float(np.mean([x for v in per.values() for x in v]))
    return out


def show(name: str, d: Data, S: np.ndarray, train: list[int], test: list[int]) -> None:
    a, b = evaluate(d, S, train), evaluate(d, S, test)
    cells = "  ".join(f"{a[k]:.3f}/{b[k]:.3f}" for k in (*KINDS, "all"))
    print(f"{name:<44} {cells}")


def rrf(*mats: np.ndarray, k: int = 60) -> np.ndarray:
    out = np.zeros_like(mats[0])
    for M in mats:
        ranks = np.argsort(np.argsort(-M, axis=1, kind="stable"), axis=1) + 1
        out += np.where(M > 0, 1.0 / (k + ranks), 0.0)
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--golden", type=Path, default=Path("resources/golden/verses.json"))
    p.add_argument("--cache", type=Path, default=Path("/work/data/verses-research"))
    args = p.parse_args()
    d = load(args.db, args.golden, args.cache)
    train, test = split(d.queries)
    print(f"{len(train)} train / {len(test)} held-out; cells train/held-out nDCG@10\n")
    print(f"{'signal':<44} " + "  ".join(f"{k:>11}" for k in (*KINDS, "all")))
    D = sg.dense(d)
    lex = sg.Lexical(d.texts)
    B = lex.matrix(d)
    show("dense", d, D, train, test)
    show("bm25", d, B, train, test)
    show("rrf(dense, bm25)", d, rrf(D, B), train, test)
    for a in (0.7, 0.8, 0.9):
        show(f"convex dense/bm25 a={a}", d, a * D + (1 - a) * B, train, test)
    # commentary
    H = sg.commentary(d)
    show("commentary (henry+scofield sections, max)", d, H, train, test)
    for sp in (0.0, 0.25, 0.5):
        Hs = sg.commentary(d, span_power=sp)
        for w in (0.3, 0.5, 1.0):
            show(f"dense + {w}·comm (span^{sp})", d, D + w * Hs, train, test)
    Hh = sg.commentary(d, scholars=("matthew-henry",))
    show("dense + 0.5·comm (henry only)", d, D + 0.5 * Hh, train, test)
    Hc = sg.commentary(d, types=("section_panel", "chapter_panel"))
    show("dense + 0.5·comm (+chapter panels)", d, D + 0.5 * Hc, train, test)
    # lexicon
    for pre in (("strongs:",), ("abbott-smith:",), ("strongs:", "abbott-smith:")):
        for ip in (0.0, 1.0):
            L = sg.lexicon(d, pre, idf_power=ip)
            show(f"lexicon {'+'.join(pre)} idf^{ip}", d, L, train, test)
            show("  dense + 0.3·lexicon", d, D + 0.3 * L, train, test)
    for top in (3, 10):
        L = sg.lexicon(d, ("strongs:", "abbott-smith:"), top=top)
        show(f"dense + 0.3·lexicon top{top}", d, D + 0.3 * L, train, test)
    Ch = sg.chains(d)
    show("dense + 0.3·chains", d, D + 0.3 * Ch, train, test)
    for beta in (0.1, 0.2, 0.3):
        show(f"dense neighbours max β={beta}", d, sg.neighbours(d, D, beta), train, test)
        show(f"dense neighbours mean β={beta}", d, sg.neighbours(d, D, beta, "mean"), train, test)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
