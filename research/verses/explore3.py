"""Third round: hubness, query templates, gloss BM25, PRF, top-k commentary."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore2 import show

from amicus_desktop.corpus.library import Library
from amicus_desktop.corpus.sources.lexicon import Lexicon
from amicus_desktop.embedding.local import LocalMiniLMBackend


def main():
    d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
    train, test = split(d.queries)
    D = sg.dense(d)
    B = sg.Lexical(d.texts).matrix(d)
    H = sg.commentary(d, span_power=0.25)
    L = sg.lexicon(d, ("strongs:", "abbott-smith:"), idf_power=1.0)
    nb = sg.neighbours

    def combo(D=D, B=B, H=H, L=L):
        return nb(d, D + 0.5 * H + 0.3 * L + 0.1 * B, 0.2)

    show("best combo so far", d, combo(), train, test)
    # hubness: r_v = mean cos to the 10 nearest chunks (commentary), and to 10 nearest verses
    VC = d.V @ d.C.T
    r_c = np.sort(VC, axis=1)[:, -10:].mean(axis=1)
    VV = d.V @ d.V.T
    np.fill_diagonal(VV, -1)
    r_v = np.sort(VV, axis=1)[:, -10:].mean(axis=1)
    for lam in (0.1, 0.2, 0.3):
        show(f"dense - {lam} r_chunks", d, D - lam * r_c[None, :], train, test)
        show(f"dense - {lam} r_verses", d, D - lam * r_v[None, :], train, test)
        show(f"combo(dense - {lam} r_verses)", d, combo(D=D - lam * r_v[None, :]), train, test)
    # query templates for short questions
    model = LocalMiniLMBackend()
    for tpl in ("{q}", "Bible verses about {q}", "What does the Bible say about {q}?"):
        Qt = model.embed([tpl.format(q=q["query"]) if len(q["query"].split()) <= 4 else q["query"] for q in d.queries])
        Dt = Qt @ d.V.T
        show(f"dense template '{tpl}'", d, Dt, train, test)
    # gloss BM25
    lex = Lexicon(Library())
    gl = {}
    for nums in d.strongs:
        for n in nums:
            if n not in gl:
                e = lex.get(n)
                gl[n] = "" if e is None or e.function_word else (e.renderings or "")
    Bg = sg.Lexical(sg.glosses(d, gl)).matrix(d)
    show("bm25 text+renderings", d, Bg, train, test)
    show("combo with bm25 text+renderings", d, combo(B=Bg), train, test)
    gd = {n: (lex.get(n).definition if lex.get(n) and not lex.get(n).function_word else "") for n in gl}
    Bd = sg.Lexical(sg.glosses(d, gd)).matrix(d)
    show("bm25 text+definitions", d, Bd, train, test)
    show("combo with bm25 text+definitions", d, combo(B=Bd), train, test)
    # PRF: q' = q + g·mean(top-5 verse vectors by combo)
    S = combo()
    for g, k in ((0.5, 5), (1.0, 5), (1.0, 10)):
        top = np.argsort(-S, axis=1)[:, :k]
        Qp = d.Q + g * d.V[top].mean(axis=1)
        Qp /= np.linalg.norm(Qp, axis=1, keepdims=True)
        show(f"combo(dense PRF g={g} k={k})", d, combo(D=Qp @ d.V.T), train, test)
    # top-k commentary: only the 20 / 50 nearest chunks count
    rows, cover = sg.commentary_cover(d)
    sims = d.Q @ d.C[rows].T
    for k in (10, 30, 60):
        thr = np.sort(sims, axis=1)[:, -k][:, None]
        s2 = np.where(sims >= thr, sims, 0.0)
        Hk = sg.propagate(s2, list(range(len(rows))), cover, len(d.ids), span_power=0.25)
        show(f"combo(comm top{k})", d, combo(H=Hk), train, test)


if __name__ == "__main__":
    main()
