"""Every signal tried for verse search, scored in one run: the table in docs/RELEVANCE.md ("Verse search").

    .venv/bin/python research/verses/summary.py DEMO.db

Each cell is nDCG@10 train / held-out (the fixed split of data.split, the same as ``relevance --verses``);
the last column is the share of the top 10 that carries a judgment. Signals alone are scored over every
verse of the library (no candidate pool); "+" rows add a signal to dense at the weight shown.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore2 import affinity_comm, show
from explore6 import lexicon_top, topn
from explore8 import lexicon_keyword
from explore9 import phrases

from amicus_desktop.corpus.library import Library
from amicus_desktop.corpus.sources.lexicon import Lexicon
from amicus_desktop.embedding.local import LocalMiniLMBackend


def main() -> int:
    d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
    train, test = split(d.queries)
    lex = sg.Lexical(d.texts)
    D, B = sg.dense(d), lex.matrix(d)
    nb = sg.neighbours
    rows, cover = sg.commentary_cover(d)
    sims = d.Q @ d.C[rows].T
    cl = sg.Lexical([d.chunks[r].text for r in rows])
    CL = np.vstack([cl.scores(q["query"]) for q in d.queries])

    def comm(sp: float, top: int | None = 100) -> np.ndarray:
        return sg.propagate(topn(sims, top) if top else sims, list(range(len(rows))), cover, len(d.ids),
                            span_power=sp)

    H, HL = comm(0.25), sg.propagate(topn(CL, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    L, LK = lexicon_top(d, 300), lexicon_keyword(d)
    P = phrases(d, lex)
    model = LocalMiniLMBackend()
    ctx = np.vstack([model.embed(part) for part in _chunks(_with_neighbours(d), 64)])
    print(f"{'signal':<48} {'topic':>11}  {'question':>11}  {'paraphrase':>11}  {'all':>11}  judged")
    print("-- the verse's own text")
    show("dense (each verse alone)", d, D, train, test)
    show("dense over the verse with its neighbours", d, d.Q @ ctx.T, train, test)
    show("BM25 (verse text)", d, B, train, test)
    show("RRF k 60 (dense, BM25)", d, _rrf(D, B), train, test)
    show("dense + 0.1 BM25", d, D + 0.1 * B, train, test)
    show("phrase (word pairs as phrases) alone", d, P, train, test)
    print("-- commentary (Henry and Scofield section notes covering the verse)")
    show("notes alone (best note by meaning)", d, comm(0.0, None), train, test)
    for sp in (0.0, 0.25, 0.5):
        show(f"dense + 0.5 notes, ÷ span^{sp}", d, D + 0.5 * comm(sp), train, test)
    show("dense + 0.5 notes weighted by verse–note cosine", d, D + 0.5 * affinity_comm(d, power=0.5), train, test)
    show("dense + 0.2 notes by words (BM25 over notes)", d, D + 0.2 * HL, train, test)
    show("dense + 0.1 Scofield chain notes", d, D + 0.1 * sg.chains(d), train, test)
    print("-- the lexicon (Strong's and Abbott-Smith entries of the verse's words)")
    for ip in (0.0, 1.0, 2.0):
        show(f"dense + 0.5 lexicon × rarity^{ip}", d, D + 0.5 * lexicon_top(d, 300, idf_power=ip), train, test)
    show("dense + 0.5 lexicon, Strong's only", d, D + 0.5 * sg.lexicon(d, ("strongs:",), idf_power=1.0), train, test)
    show("dense + 0.1 lexicon by words", d, D + 0.1 * LK, train, test)
    glosses = _renderings(d)
    show("BM25 over verse + KJV renderings of its words", d, sg.Lexical(sg.glosses(d, glosses)).matrix(d), train, test)
    print("-- neighbours and other priors")
    for beta in (0.2, 0.3, 0.5):
        show(f"dense + {beta} × best neighbour", d, nb(d, D, beta), train, test)
    VV = d.V @ d.V.T
    np.fill_diagonal(VV, -1)
    hub = np.sort(VV, axis=1)[:, -10:].mean(axis=1)
    show("dense − 0.2 hubness (mean cos to 10 nearest verses)", d, D - 0.2 * hub[None, :], train, test)
    print("-- combined (the engine's hybrid weights; semantic and keyword modes)")
    base = D + 0.1 * B + 0.2 * P + 0.5 * H + 0.2 * HL + 0.5 * L + 0.1 * LK
    show("hybrid: all signals + 0.3 neighbour", d, nb(d, base, 0.3), train, test)
    show("semantic: dense + notes + lexicon + neighbour", d, nb(d, D + 0.5 * H + 0.5 * L, 0.3), train, test)
    show("keyword: BM25 + phrase + notes + lexicon by words", d,
         nb(d, B + 0.2 * P + 0.5 * HL + 0.2 * LK, 0.3), train, test)
    return 0


def _rrf(*mats: np.ndarray, k: int = 60) -> np.ndarray:
    out = np.zeros_like(mats[0])
    for M in mats:
        ranks = np.argsort(np.argsort(-M, axis=1, kind="stable"), axis=1) + 1
        out += np.where(M > 0, 1.0 / (k + ranks), 0.0)
    return out


def _renderings(d) -> dict[str, str]:
    lexicon = Lexicon(Library())
    out: dict[str, str] = {}
    for nums in d.strongs:
        for n in nums:
            if n not in out:
                e = lexicon.get(n)
                out[n] = "" if e is None or e.function_word else (e.renderings or "")
    return out


def _with_neighbours(d) -> list[str]:
    """Each verse's text with the verse before and after it in its chapter (as the golden set's pooling did)."""
    chapter = [v.rsplit(":", 1)[0] for v in d.ids]
    n = len(d.ids)
    return [" ".join(d.texts[j] for j in (i - 1, i, i + 1) if 0 <= j < n and chapter[j] == chapter[i])
            for i in range(n)]


def _chunks(items: list[str], size: int) -> list[list[str]]:
    return [items[i: i + size] for i in range(0, len(items), size)]


if __name__ == "__main__":
    raise SystemExit(main())
