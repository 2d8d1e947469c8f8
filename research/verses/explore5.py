"""Fifth round: verses the commentary cites, length prior, chapter prior, wider neighbours."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore2 import show

from amicus_desktop.understand.references import find_references


def main():
    d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
    train, test = split(d.queries)
    D = sg.dense(d)
    B = sg.Lexical(d.texts).matrix(d)
    H = sg.commentary(d, span_power=0.25)
    L = sg.lexicon(d, ("strongs:", "abbott-smith:"), idf_power=1.0)
    rows, cover = sg.commentary_cover(d)
    cl = sg.Lexical([d.chunks[r].text for r in rows])
    CL = np.vstack([cl.scores(q["query"]) for q in d.queries])
    HL = sg.propagate(CL, list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    nb = sg.neighbours
    base = D + 0.5 * H + 0.5 * L + 0.1 * B + 0.2 * HL
    show("combo nb0.3", d, nb(d, base, 0.3), train, test)
    for beta in (0.4, 0.5):
        show(f"combo nb{beta}", d, nb(d, base, beta), train, test)
    # cited verses: any chunk (commentary, any type except Nave) whose text cites a verse of this library
    index = d.index
    crow, ccov = [], []
    for ci, c in enumerate(d.chunks):
        if c.scholar == "orville-nave" or c.source_type not in ("section_panel", "chapter_panel"):
            continue
        idx = []
        for r in find_references(c.text):
            if r.verse_start is None:
                continue
            for v in range(r.verse_start, (r.verse_end or r.verse_start) + 1):
                vid = f"{r.book_id}:{r.chapter}:{v}"
                if vid in index and index[vid] not in idx:
                    idx.append(index[vid])
        if idx:
            crow.append(ci)
            ccov.append(idx)
    print("chunks citing verses:", len(crow), "citations:", sum(map(len, ccov)))
    sims = d.Q @ d.C[crow].T
    CI = sg.propagate(sims, list(range(len(crow))), ccov, len(d.ids))
    for w in (0.1, 0.2, 0.4):
        show(f"combo + {w} cited", d, nb(d, base + w * CI, 0.3), train, test)
    # length prior
    ln = np.log(np.array([len(t.split()) for t in d.texts], dtype=np.float32))
    ln = (ln - ln.mean()) / ln.std()
    for w in (0.01, 0.02, 0.04):
        show(f"combo + {w} z(log length)", d, nb(d, base, 0.3) + w * ln[None, :], train, test)
    # chapter prior: mean of the chapter's top-3 scores
    chap = [vid.rsplit(":", 1)[0] for vid in d.ids]
    groups = {}
    for i, c in enumerate(chap):
        groups.setdefault(c, []).append(i)
    S = nb(d, base, 0.3)
    P = np.zeros_like(S)
    for idx in groups.values():
        top = np.sort(S[:, idx], axis=1)[:, -3:].mean(axis=1)
        P[:, idx] = top[:, None]
    for w in (0.1, 0.2, 0.4):
        show(f"combo + {w} chapter prior", d, S + w * P, train, test)


if __name__ == "__main__":
    main()
